import numpy as np
from tlfmt import p, show
p(np.random.choice(2, 2, p=[1, 0]))
np.random.choice(3, p=[0.5, 0.6, -0.1])   # ValueError: probabilities are not non-negative
