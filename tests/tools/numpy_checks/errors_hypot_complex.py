import numpy as np
from tlfmt import p
p(np.hypot(3, 4))
p(np.hypot(np.array([1j]), 1))   # TypeError: ufunc 'hypot' not supported for the input types
