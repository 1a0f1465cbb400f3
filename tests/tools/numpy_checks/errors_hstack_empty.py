import numpy as np
from tlfmt import p, show
p(np.hstack(([1], [2])))
np.hstack(())   # ValueError: need at least one array to concatenate
