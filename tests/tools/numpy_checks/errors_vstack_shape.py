import numpy as np
from tlfmt import p, show
p(np.vstack(([1, 2], [3, 4])).shape)
np.vstack(([1, 2], [3, 4, 5]))   # ValueError: dimensions must match
