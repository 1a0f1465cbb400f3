import numpy as np
from tlfmt import p
p(np.bitwise_and(np.array([12], np.int8), 10))
p(np.bitwise_and(np.array([1.5]), 2))   # TypeError: ufunc 'bitwise_and' not supported for the input types
