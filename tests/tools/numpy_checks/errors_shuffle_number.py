import numpy as np
from tlfmt import p, show
p(np.random.shuffle(np.zeros(1)))
np.random.shuffle(np.array(5))   # TypeError: len() of unsized object
