import numpy as np
from tlfmt import p, show
p(np.random.choice(3, 0, replace=False).shape)
np.random.choice(3, 4, replace=False)   # ValueError: Cannot take a larger sample than population
