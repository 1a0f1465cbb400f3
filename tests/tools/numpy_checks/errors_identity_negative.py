import numpy as np
from tlfmt import p, show
p(np.identity(0).shape)
np.identity(-2)   # ValueError: negative dimensions are not allowed
