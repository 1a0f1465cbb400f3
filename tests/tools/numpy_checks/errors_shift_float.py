import numpy as np
from tlfmt import p
p(1 << 3)
p(np.array([1.5]) << 2)   # TypeError: ufunc 'left_shift' not supported for the input types
