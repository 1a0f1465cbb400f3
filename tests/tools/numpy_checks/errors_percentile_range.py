import numpy as np
np.percentile([1, 2, 3], 101)   # ValueError: Percentiles must be in the range [0, 100]
