import numpy as np
from tlfmt import p
p(np.invert(np.array([True, False])))
p(np.invert(np.array([1.5])))   # TypeError: ufunc 'invert' not supported for the input types
