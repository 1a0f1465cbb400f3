import numpy as np
np.fft.fft(np.array(3.0))   # IndexError: tuple index out of range
