import numpy as np
np.fft.fftfreq(0)   # ZeroDivisionError: float division by zero
