import numpy as np
np.inner(np.ones((2, 3)), np.ones(2))   # ValueError: shapes (2,3) and (2,) not aligned: 3 (dim 1) != 2 (dim 0)
