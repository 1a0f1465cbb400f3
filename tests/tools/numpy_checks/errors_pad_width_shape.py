import numpy as np
from tlfmt import p, show
p(np.pad(np.zeros((1, 1)), ((1, 2), (0, 0))).shape)
np.pad(np.zeros((1, 1)), (1, 2, 3))   # ValueError: could not be broadcast
