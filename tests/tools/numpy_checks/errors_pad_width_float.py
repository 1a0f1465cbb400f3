import numpy as np
from tlfmt import p, show
p(np.pad([1], 2))
np.pad([1], 1.5)   # TypeError: `pad_width` must be of integral type.
