import numpy as np
np.histogram([1.0, np.nan])   # ValueError: autodetected range of [nan, nan] is not finite
