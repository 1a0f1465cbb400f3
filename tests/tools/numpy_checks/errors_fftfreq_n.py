import numpy as np
np.fft.rfftfreq(2.5)   # ValueError: n should be an integer
