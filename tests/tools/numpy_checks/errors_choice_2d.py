import numpy as np
from tlfmt import p, show
p(np.random.choice([5], 2))
np.random.choice(np.zeros((2, 2)))   # ValueError: a must be 1-dimensional
