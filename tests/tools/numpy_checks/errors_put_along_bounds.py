import numpy as np
a = np.zeros((2, 2))
np.put_along_axis(a, np.array([[0], [2]]), 1.0, 1)   # IndexError: index 2 is out of bounds for axis 1 with size 2
