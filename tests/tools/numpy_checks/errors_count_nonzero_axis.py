import numpy as np
np.count_nonzero([[1]], axis=2)   # numpy.exceptions.AxisError: axis 2 is out of bounds for array of dimension 2
