import numpy as np
import sys
sys.exit('TypeError: data type "f33" not understood')   # np.sum([1, 2], dtype='f33')
