import numpy as np
from tlfmt import p, show
p(np.roll(np.arange(3), 1, axis=-1))
np.roll(np.arange(3), 1, axis=1)   # AxisError (an IndexError)
