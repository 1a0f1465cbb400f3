import numpy as np
from tlfmt import p, show
p(np.array((1, 2), dtype="i4"))
np.array((1, 2), dtype="i33")   # TypeError: data type 'i33' not understood
