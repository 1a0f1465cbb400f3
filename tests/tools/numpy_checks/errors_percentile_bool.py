import numpy as np
np.percentile([True, False], 50)   # TypeError: numpy boolean subtract, the `-` operator, is not supported
