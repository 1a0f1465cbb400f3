import numpy as np
from tlfmt import p, show
p(np.pad(np.zeros(0), 1))
np.pad(np.zeros(0), 1, mode="edge")   # ValueError: can't extend empty axis 0
