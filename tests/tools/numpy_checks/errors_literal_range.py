import numpy as np
from tlfmt import p
np._set_promotion_state("weak")   # NEP 50: an out-of-range Python int is an error
u = np.array([1, 2], np.uint8)
p(u + 255)
u + 256   # OverflowError: Python integer 256 out of bounds for uint8
