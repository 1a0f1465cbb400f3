import numpy as np
from tlfmt import p, show
a = np.arange(2)
a.fill(3)
p(a)
a.fill(1j)   # TypeError: float() argument must be ... not 'complex'
