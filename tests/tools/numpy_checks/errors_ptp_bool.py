import numpy as np
np.ptp([True, False])   # TypeError: numpy boolean subtract, the `-` operator, is not supported
