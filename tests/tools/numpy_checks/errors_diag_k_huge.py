import numpy as np
from tlfmt import p, show
p(np.diag(np.ones(2), k=-1))
np.diag(np.ones(3), k=-2**63)   # ValueError: Maximum allowed dimension exceeded
