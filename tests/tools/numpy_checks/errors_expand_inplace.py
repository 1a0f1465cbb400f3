import numpy as np
from tlfmt import p
e = np.broadcast_to(np.zeros(1), (4,))
p(e)
e[1:] += 1   # ValueError: output array is read-only
