import numpy as np
from tlfmt import p
a = np.arange(5)
p(a[-5])
a[-6]   # IndexError: index -6 is out of bounds for axis 0 with size 5
