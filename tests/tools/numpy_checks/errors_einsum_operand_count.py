import numpy as np
np.einsum("ij,jk", np.ones((2, 2)))   # ValueError: fewer operands provided to einstein sum function than specified in the subscripts string
