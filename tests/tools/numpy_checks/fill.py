import numpy as np
from tlfmt import p
a = np.zeros((2, 3)); a.fill(2.5); p(a)
b = np.arange(4); b.fill(2.7); p(b)
b[1:3].fill(-1); p(b)
m = np.arange(12).reshape(3, 4)
m.T[1].fill(0); p(m)
c = np.zeros(3, bool); c.fill(5); p(c)
h = np.array([1, 2], np.float16); h.fill(np.inf); p(h)
h.fill(np.nan); p(h)
g = np.array([1, 2], np.float32); g.fill(0.5); p(g)   # exact in bf16
e = np.zeros((0, 2)); e.fill(3)
p(e.shape, np.zeros(1).fill(1))
u = np.zeros(3, np.uint8); u.fill(True); p(u)
z = np.zeros(2, np.complex64); z.fill(1 + 2j); p(z)
m[:, ::2].fill(np.float32(9.5)); p(m)
