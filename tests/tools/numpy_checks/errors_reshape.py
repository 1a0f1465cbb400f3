import numpy as np
from tlfmt import p
a = np.arange(6)
p(a.reshape(3, -1))
a.reshape(4, 2)   # ValueError: cannot reshape array of size 6 into shape (4,2)
