import numpy as np
np.fft.fft([1, 2], norm="x")   # ValueError: Invalid norm value x; should be "backward","ortho" or "forward".
