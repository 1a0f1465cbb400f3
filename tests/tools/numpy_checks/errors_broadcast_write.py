import numpy as np
from tlfmt import p
b = np.broadcast_to(np.arange(3), (2, 3))
p(b)
b[0, 0] = 5   # ValueError: assignment destination is read-only
