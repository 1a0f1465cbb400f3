import numpy as np
np.einsum("ij,jk", np.ones((2, 3)), np.ones((4, 5)))   # ValueError: operands could not be broadcast together with remapped shapes
