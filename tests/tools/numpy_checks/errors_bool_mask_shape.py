import numpy as np
a = np.arange(4)
a[np.array([True, False])]
# IndexError: boolean index did not match indexed array along dimension 0; dimension is 4 but corresponding boolean dimension is 2
