import numpy as np
from tlfmt import p
np.seterr(divide="raise")      # numpy only warns (and gives 0); tl makes it an error (docs/language.md §7)
a = np.arange(3)
p(a // np.array([1, 2, 3]))
p(a // np.array([1, 0, 3]))    # FloatingPointError: divide by zero encountered in floor_divide
