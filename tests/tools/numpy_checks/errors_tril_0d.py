import numpy as np
from tlfmt import p, show
p(np.tril([1, 2]))
np.tril(5)   # TypeError: tri() missing 1 required positional argument
