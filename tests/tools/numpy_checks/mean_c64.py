import numpy as np
from tlfmt import p, show
np._set_promotion_state("weak")   # NEP 50, as numpy 2: mean divides c64 sums by the intp count in c128
a = np.array([0.625+0.25j, -1-2.25j, -0.75-2j, -0.625-1j, -0.75-0.5j, 0.625+0.5j, 0.75-0.25j], np.complex64)
print(np.mean(a))
print(np.mean(a.reshape(1, -1), 1))
