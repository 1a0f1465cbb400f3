import numpy as np
from tlfmt import p, show
p(np.array_split(np.arange(5), 7)[6].shape)
np.array_split(np.arange(5), 0)   # ValueError: number sections must be larger than 0.
