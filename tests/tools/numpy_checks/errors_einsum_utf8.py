import numpy as np
np.einsum("é", np.ones(3))   # UnicodeEncodeError: 'ascii' codec can't encode character '\xe9'
