import numpy as np
np.zeros((2, 3)) @ np.zeros((4, 2))
# ValueError: matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size 4 is different from 3)
