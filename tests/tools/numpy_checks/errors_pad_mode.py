import numpy as np
from tlfmt import p, show
p(np.pad([1, 2], 1, mode="wrap"))
np.pad([1, 2], 1, mode="circular")   # ValueError: mode 'circular' is not supported
