import numpy as np
np.average([[1, 2]], axis=1, weights=[[[1, 2]]])   # TypeError: 1D weights expected when shapes of a and weights differ.
