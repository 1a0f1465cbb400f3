import numpy as np
from tlfmt import p, show
a = np.arange(3)
p(np.zeros_like(a, shape=(0, 2)).shape)
np.zeros_like(a, shape=(2, -1))   # ValueError: negative dimensions are not allowed
