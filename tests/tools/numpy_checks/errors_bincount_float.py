import numpy as np
np.bincount(np.array([1.0, 2.0]))   # TypeError: Cannot cast array data from dtype('float64') to dtype('int64') according to the rule 'safe'
