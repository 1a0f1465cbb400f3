import numpy as np
np.take([1, 2, 3], [0, 5])   # IndexError: index 5 is out of bounds for axis 0 with size 3
