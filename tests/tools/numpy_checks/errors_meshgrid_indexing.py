import numpy as np
from tlfmt import p, show
p(tuple(np.meshgrid(np.arange(2), indexing="ij")))
np.meshgrid(np.arange(2), np.arange(3), indexing="yx")   # ValueError
