import numpy as np
np.partition(np.array(5), 0)   # numpy.exceptions.AxisError: axis -1 is out of bounds for array of dimension 0
