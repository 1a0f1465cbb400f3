import numpy as np
from tlfmt import p
np.seterr(divide="raise")      # numpy only warns (and gives 0); tl makes it an error (docs/language.md §7)
p(np.array([5, 6], np.int32) % np.array([0, 1], np.int32))   # FloatingPointError: divide by zero encountered in remainder
