import numpy as np
from tlfmt import p, show
p(np.random.permutation([7]))
np.random.permutation(np.array(2.5))   # IndexError: x must be an integer or at least 1-dimensional
