import numpy as np
from tlfmt import p, show
p(np.random.uniform(size=0).shape)
np.random.uniform(0, 1, size=-1)   # ValueError: negative dimensions are not allowed
