import numpy as np
from tlfmt import p, show, strides
a = np.arange(-3, 5)
mask = a > 0
p(mask)
p(a[mask], a[a % 2 == 0], a[(a > -2) & (a < 2)], a[~mask])
m = np.arange(12).reshape(3, 4)
p(m[m > 6])
p(m[[True, False, True]])
p(m[:, [False, True, True, False]])
p(m[m > 100].shape, m[m >= 0].shape)
b = m.copy()
b[b % 3 == 0] = -1
p(b)
b[[True, False, True]] = 0
p(b)
with np.errstate(invalid="ignore"):
    f = np.array([1.5, -2.0, 0.0 / np.float64(0.0), 4.0])
f[np.isnan(f)] = 0
p(f)
z = np.arange(6)
z[z > 2] = [30, 40, 50]
p(z)
p(np.any(m > 10), np.all(m > 10), np.sum(m > 5))
x = np.arange(24).reshape(2, 3, 4)
p(x[x[:, :, 0] > 4].shape, x[[True, False]].shape)
