import numpy as np
np.diff([[1, 2]], axis=2)   # numpy.exceptions.AxisError: axis 2 is out of bounds for array of dimension 2
