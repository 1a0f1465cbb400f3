import numpy as np
np.take([1, 2, 3], [0], mode='edge')   # ValueError: clipmode must be one of 'clip', 'raise', or 'wrap' (got 'edge')
