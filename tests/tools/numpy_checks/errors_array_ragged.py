import numpy as np
from tlfmt import p, show
p(np.array(((1, 2), (3, 4))).shape)
np.array(((1, 2), (3,)))   # ValueError: inhomogeneous shape
