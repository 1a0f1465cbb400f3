import numpy as np
from tlfmt import p, show, strides
from numpy.lib.stride_tricks import as_strided
a = np.arange(12).reshape(3, 4)
v = a[1]
v[0] = 100
p(a)
t = a.T
p(t.shape, strides(t), np.shares_memory(a, t))
t[0, 2] = -1
p(a)
s = a[:, 1:3]
p(s.shape, strides(s), np.shares_memory(a, s))
s[...] = 0
p(a)
p(np.shares_memory(a[0], a[1]), np.shares_memory(a[:, ::2], a[:, 1::2]), np.shares_memory(a[:, ::2], a[:, 2]))
n = a[None]
p(n.shape, strides(n))
p(strides(a[:, None]))
e = a[..., 1]
e[2] = 77
p(a)
b = a[::-1, ::2]
p(strides(b), np.shares_memory(a, b))
p(b)
u = np.expand_dims(a, 0)
u[0, 0, 0] = 42
p(a[0])
z = np.array([1+2j, 3+4j])
r = z.real
im = z.imag
r[0] = 9
im[1] = -1
p(z, strides(r), strides(im))
d = as_strided(a, shape=(3,), strides=(a.strides[0] + a.strides[1],))   # numpy's diagonal is read-only
d[1] = 55
p(d, a[1, 1])
fresh = np.zeros((2, 1, 3))
p(strides(fresh), strides(np.ones(1)))
c = np.ascontiguousarray(a)
p(np.shares_memory(a, c), np.shares_memory(a.T, np.ascontiguousarray(a.T)))
k = a.copy()
k[0, 0] = -5
p(a[0, 0], k[0, 0])
