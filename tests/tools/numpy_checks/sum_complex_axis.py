import numpy as np
from tlfmt import p, show
np._set_promotion_state("weak")   # NEP 50, as numpy 2: mean divides c64 sums by the intp count in c128
a = ((np.arange(30) * 0.37).reshape(6, 5) + 1j * (np.arange(30) * 0.11 - 1).reshape(6, 5)).astype(np.complex64)
show(np.sum(a, axis=0))
show(np.mean(a, axis=0))
show(np.mean(a, axis=-2, keepdims=True))
b = (np.arange(108) * 0.37 + 1j * (np.arange(108) * 0.013 - 0.7)).reshape(4, 9, 3)
show(np.sum(b, axis=1))
show(np.mean(b, axis=0))
show(np.mean(b.astype(np.complex64), axis=1))
show(np.sum(b.astype(np.complex64) * np.float32(1.1), axis=(0, 1)))
