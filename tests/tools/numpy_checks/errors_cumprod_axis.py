import numpy as np
np.cumprod(np.zeros((2, 3)), axis=2)   # numpy.exceptions.AxisError: axis 2 is out of bounds for array of dimension 2
