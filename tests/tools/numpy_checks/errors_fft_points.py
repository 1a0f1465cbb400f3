import numpy as np
np.fft.fft([1, 2], n=0)   # ValueError: Invalid number of FFT data points (0) specified.
