import numpy as np
from tlfmt import p, show
p(np.logspace(0, 1, 0).shape)
np.logspace(0, 1, -1)   # ValueError: Number of samples, -1, must be non-negative.
