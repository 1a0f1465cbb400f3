import numpy as np
from tlfmt import p, show, strides
a = np.arange(8)
r = a[::-1]
p(r, strides(r), np.shares_memory(a, r))
p(a[::-2], a[6:1:-2], a[-2::-3], a[1:6:-1])
r[0] = 70
p(a)
m = np.arange(12).reshape(3, 4)
f = m[::-1, ::-1]
p(f)
p(strides(f))
p(f[1:, ::-1])
p(np.flip(m, axis=0))
p(strides(np.flip(m, axis=-1)))
p(np.flip(m))
p(np.flip(m, axis=(0, 1)))
p(m[::-1].T)
g = m[:, ::-1]
g[0] = [10, 20, 30, 40]
p(m)
p(np.sum(m[::-1, ::-2], axis=1), m[::-1] + m)
p(strides(m[::-1].copy()), m[::-1, ::-1].reshape(12))
