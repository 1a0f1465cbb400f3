import numpy as np
from tlfmt import p, show
p(np.random.choice(2, 2, p=[0, 1]))
np.random.choice(3, p=[0.5, 0.5])   # ValueError: 'a' and 'p' must have same size
