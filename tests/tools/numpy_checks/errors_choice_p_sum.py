import numpy as np
from tlfmt import p, show
p(np.random.choice(3, 2, p=[0, 0, 1]))
np.random.choice(3, p=[0.5, 0.6, 0.1])   # ValueError: probabilities do not sum to 1
