import numpy as np
from tlfmt import p, show
a = np.zeros(3)
p(np.expand_dims(a, (0, 2)).shape)
np.expand_dims(a, (1, -2))   # ValueError: repeated axis
