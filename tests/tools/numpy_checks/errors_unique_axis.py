import numpy as np
np.unique(np.array([[1, 2], [1, 2]]), axis=2)   # numpy.exceptions.AxisError: axis 2 is out of bounds for array of dimension 2
