import numpy as np
from tlfmt import p
p(np.histogram([1e15, 1e15, 1e15], bins=4))
# numpy 1.24 fails with "IndexError: index -9223372036854775808 is out of bounds for axis 0 with
# size 5"; numpy 2.1 and later raise "ValueError: Too many bins for data range. Cannot create 4
# finite-sized bins."
np.histogram([1e17, 1e17, 1e17], bins=4)
