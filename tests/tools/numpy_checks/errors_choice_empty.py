import numpy as np
from tlfmt import p, show
p(np.random.choice(0, 0).shape)
np.random.choice(0)   # ValueError: a must be greater than 0 unless no samples are taken
