import numpy as np
from tlfmt import p
p(np.bincount([3, 1]))
# np.bincount([2**63 - 1]) is not run: numpy 1.24 corrupts its heap there ("corrupted size vs.
# prev_size", abort), where tl says as for bincount([2**62]): "shape (...,) of i64 is too big".
