import numpy as np
from tlfmt import p, show
p(np.random.choice(3, 1, replace=False, p=[1, 0, 0]))
np.random.choice(3, 2, replace=False, p=[1, 0, 0])   # ValueError: Fewer non-zero entries in p than size
