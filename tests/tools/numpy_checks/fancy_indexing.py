import numpy as np
from tlfmt import p, show, strides
a = np.arange(10) * 10
i = [3, 0, -1, 3]
g = a[i]
p(g, np.shares_memory(a, g))
g[0] = -1
p(a[3])
m = np.arange(12).reshape(3, 4)
p(m[[0, 2]])
p(m[[0, 2], [1, 3]])
p(m[:, [3, 0]])
p(m[np.array([[0, 1], [2, 0]])])
p(m[[[0], [2]], [1, 2]])
p(m[1, [0, 0, 3]])
p(m[[2, 1], 1:3])
p(strides(m[[0, 1]]))
x = np.arange(24).reshape(2, 3, 4)
p(x[:, [0, 2], [1, 3]].shape, x[[0, 1], :, [0, 1]].shape, x[..., [0, 0]].shape)
p(x[[1, 0], [2, 0], [3, 0]])
p(a[np.array([1, 2], np.int32)], a[np.array([9], np.uint8)], a[np.arange(3)])
