import numpy as np
from tlfmt import p
a = np.zeros((3, 4))
p(a.shape)
b = a + np.zeros(5)   # ValueError: operands could not be broadcast together with shapes (3,4) (5,)
