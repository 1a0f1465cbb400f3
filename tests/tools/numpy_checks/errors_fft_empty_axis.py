import numpy as np
np.fft.fft(np.zeros((3, 0)))   # ValueError: Invalid number of FFT data points (0) specified.
