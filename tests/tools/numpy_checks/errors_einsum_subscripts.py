import numpy as np
np.einsum("ijk", np.ones((2, 3)))   # ValueError: einstein sum subscripts string contains too many subscripts for operand 0
