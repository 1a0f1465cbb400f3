import numpy as np
from tlfmt import p, show
p(np.random.normal(0, 0, size=2))
np.random.normal(0, -1)   # ValueError: scale < 0
