import numpy as np
from tlfmt import p, show
x = np.zeros((2, 3, 4))
p(np.moveaxis(x, 0, -1).shape)
np.moveaxis(x, 0, 3)   # AxisError (an IndexError): destination axis 3 is out of bounds
