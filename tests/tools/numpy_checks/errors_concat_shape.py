import numpy as np
np.concatenate((np.zeros((2, 3)), np.zeros((2, 4))), axis=0)
# ValueError: all the input array dimensions except for the concatenation axis must match exactly, but along dimension 1, the array at index 0 has size 3 and the array at index 1 has size 4
