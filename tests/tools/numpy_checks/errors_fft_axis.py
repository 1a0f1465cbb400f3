import numpy as np
np.fft.rfft([1, 2], axis=1)   # IndexError: tuple index out of range
