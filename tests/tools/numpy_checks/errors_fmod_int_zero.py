import numpy as np
from tlfmt import p
np.seterr(divide="raise")      # numpy only warns (and gives 0); tl makes it an error
p(np.fmod(np.array([7, -7], np.int32), 2))
p(np.fmod(np.array([7, -7], np.int32), np.array([2, 0], np.int32)))   # FloatingPointError: divide by zero
