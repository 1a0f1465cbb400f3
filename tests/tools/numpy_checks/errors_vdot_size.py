import numpy as np
np.vdot([1, 2], [1, 2, 3])   # ValueError: cannot reshape array of size 3 into shape (2,)
