import numpy as np
from tlfmt import p, show
p(np.pad([1, 2], (0, 1)))
np.pad([1, 2], (1, -1))   # ValueError: index can't contain negative values
