import numpy as np
np.take(np.zeros(0), [0])   # IndexError: cannot do a non-empty take from an empty axes.
