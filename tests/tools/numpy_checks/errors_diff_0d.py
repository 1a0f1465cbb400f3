import numpy as np
np.diff(5)   # ValueError: diff requires input that is at least one dimensional
