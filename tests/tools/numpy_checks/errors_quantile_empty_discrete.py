import numpy as np
from tlfmt import p
p(np.percentile(np.zeros((3, 0)), 50, axis=0, method="lower"))
np.percentile(np.zeros((0, 3)), 50, axis=0, method="nearest")   # IndexError: index -1 is out of bounds for axis 0 with size 0
