import numpy as np
np.quantile([1, 2, 3], [0.5, -0.1])   # ValueError: Quantiles must be in the range [0, 1]
