import numpy as np
np.fft.irfft([1])   # ValueError: Invalid number of FFT data points (0) specified.
