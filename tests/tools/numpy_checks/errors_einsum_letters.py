import numpy as np
np.einsum("i1", np.ones(2))   # ValueError: invalid subscript '1' in einstein sum subscripts string, subscripts must be letters
