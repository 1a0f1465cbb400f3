import numpy as np
np.argmax(np.zeros((2, 0)), axis=1)   # ValueError: attempt to get argmax of an empty sequence
