import numpy as np
from tlfmt import p, show
a = np.zeros((2, 3))
p(np.expand_dims(a, 2).shape, np.expand_dims(a, -3).shape)
np.expand_dims(a, 3)   # AxisError (an IndexError)
