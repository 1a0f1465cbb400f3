import numpy as np
from tlfmt import p, show, strides, dtype
a = np.arange(6)
a[1:] += a[:-1]
p(a)
b = np.arange(6)
b[:-1] += b[1:]
p(b)
c = np.arange(6)
c[::-1] = c
p(c)
d = np.arange(6)
d[1:] = d[:-1]
p(d)
m = np.zeros((3, 4), np.int32)
m[1] = 7
m[:, 2] = [1, 2, 3]
m[0, 0] = 2.9
m[2, 1:3] = np.array([[-5, -6]])
p(m, dtype(m))
f = np.zeros((2, 3), np.float32)
f[...] = np.arange(3)
f[0] *= 2.5
f[1] -= 1
p(f)
g = np.arange(10)
g[[1, 3, 3]] = [10, 30, 31]
p(g)
g[[0, 0]] += 1
p(g)
h = np.arange(12).reshape(3, 4)
h[[0, 2], [1, 3]] = 0
h[h > 8] = h[h > 8] * 10
p(h)
t = np.arange(9).reshape(3, 3)
t[:] = t.T
p(t)
u = np.array([250, 5], np.uint8)
u[0] = np.array(300).astype(np.uint8)   # tl wraps an out-of-range integer store (numpy 1.24 also wraps; 2.x raises)
u += 10
p(u)
x = np.arange(4) * 1.0
x /= 2
x *= x
p(x)
