import numpy as np
from tlfmt import p, show, strides
a = np.arange(24).reshape(4, 6)
s = a[:, :4]
r1 = np.reshape(s, (4, 2, 2))
p(strides(r1), np.shares_memory(a, r1))
r2 = np.reshape(s, 16)
p(strides(r2), np.shares_memory(a, r2))
r3 = np.reshape(s, (2, 2, 4))
p(strides(r3), np.shares_memory(a, r3))
e = a[::2]
p(strides(e.reshape(12)), np.shares_memory(a, e.reshape(12)))
p(strides(e.reshape(2, 3, 2)), np.shares_memory(a, e.reshape(2, 3, 2)))
t = a.T
p(np.shares_memory(a, t.reshape(24)), strides(t.reshape(3, 2, 4)), np.shares_memory(a, t.reshape(3, 2, 4)))
n = a[:, ::-1]
p(strides(n.reshape(4, 3, 2)), np.shares_memory(a, n.reshape(4, 3, 2)), np.shares_memory(a, n.reshape(24)))
b = np.broadcast_to(np.arange(3), (4, 3))
p(strides(b.reshape(2, 2, 3)), np.shares_memory(b, b.reshape(12)))
p(a.reshape(-1, 8).shape, a.reshape(2, -1, 3).shape, a.reshape((-1,)).shape)
def view(x, *shape):          # numpy's no-copy reshape: assigning .shape raises instead of copying
    v = x.view()
    v.shape = shape
    return v
p(strides(view(s, 4, 2, 2)), strides(view(t, 6, 2, 2)))
p(a.reshape(24)[:5], view(a, 3, 8)[2])
w = view(a, 2, 12)
w[0, 0] = -1
p(a[0, 0])
p(np.zeros((0, 3)).reshape(3, 0).shape, np.reshape(7, (1, 1)))
