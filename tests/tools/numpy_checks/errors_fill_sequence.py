import numpy as np
from tlfmt import p, show
a = np.zeros(2)
a.fill(1)
p(a)
a.fill(np.zeros(2))   # ValueError: setting an array element with a sequence.
