import numpy as np
from tlfmt import p
a = np.arange(12).reshape(3, 4)
v = a.view(); v.shape = (4, 3)
p(v.shape)
v = a.T.view(); v.shape = (12,)   # AttributeError: Incompatible shape for in-place modification. Use `.reshape()` to make a copy with the desired shape.
