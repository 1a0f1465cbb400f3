import numpy as np
from tlfmt import p, show
p(np.diag(np.ones((2, 2))))
np.diag(np.ones((2, 2, 2)))   # ValueError: Input must be 1- or 2-d.
