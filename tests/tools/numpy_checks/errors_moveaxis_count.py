import numpy as np
from tlfmt import p, show
x = np.zeros((2, 3, 4))
p(np.moveaxis(x, (0, 1), (1, 0)).shape)
np.moveaxis(x, (0, 1), (1,))   # ValueError: same number of elements
