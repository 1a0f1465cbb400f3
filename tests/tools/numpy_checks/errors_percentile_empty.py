import numpy as np
np.percentile(np.zeros(0), 50)   # IndexError: cannot do a non-empty take from an empty axes.
