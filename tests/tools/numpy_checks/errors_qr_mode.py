import numpy as np
np.linalg.qr(np.eye(2), mode="x")   # ValueError: Unrecognized mode 'x'
