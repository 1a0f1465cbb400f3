import numpy as np
from tlfmt import p
a = np.zeros((3, 4))
p(a[2, -4])
a[1, 7]   # IndexError: index 7 is out of bounds for axis 1 with size 4
