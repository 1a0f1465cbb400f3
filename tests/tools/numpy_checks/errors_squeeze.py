import numpy as np
from tlfmt import p
a = np.zeros((1, 2))
p(np.squeeze(a, axis=0).shape)
np.squeeze(a, axis=1)   # ValueError: cannot select an axis to squeeze out which has size not equal to one
