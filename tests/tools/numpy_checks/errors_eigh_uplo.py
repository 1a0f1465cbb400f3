import numpy as np
np.linalg.eigvalsh(np.eye(2), UPLO="X")   # ValueError: UPLO argument must be 'L' or 'U'
