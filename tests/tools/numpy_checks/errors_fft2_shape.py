import numpy as np
np.fft.fft2(np.ones((2, 2)), s=(2,))   # ValueError: Shape and axes have different lengths.
