import numpy as np
np.einsum("i->j", np.ones(2))   # ValueError: einstein sum subscripts string included output subscript 'j' which never appeared in an input
