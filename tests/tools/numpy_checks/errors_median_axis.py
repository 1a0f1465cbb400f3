import numpy as np
np.median([[1, 2], [3, 4]], axis=2)   # numpy.exceptions.AxisError: axis 2 is out of bounds for array of dimension 2
