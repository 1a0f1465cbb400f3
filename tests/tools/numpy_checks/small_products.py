import numpy as np
from tlfmt import p
f = np.float32
for m in (1, 15, 16, 17, 48, 100, 127, 128, 129, 200, 257):
    for n in (1, 3):
        k = 48 if m % 2 == 0 else 7
        a = ((np.arange(n * k) % 5) - 2).astype(f).reshape(n, k)
        b = ((np.arange(k * m) % 7) - 3).astype(f).reshape(k, m)
        ref = np.sum(a[:, :, None] * b[None, :, :], axis=1)
        q = a[:, None, :]
        p(m, n, bool(np.all(a @ b == ref)), bool(np.all((q @ b[None])[:, 0, :] == ref)), bool(np.all(a.T.T @ b == ref)))
kc = (np.arange(2 * 48 * 256) % 9).astype(f).reshape(2, 48, 256)
q = np.ones((2, 1, 48), f)
p(bool(np.all((q @ kc[:, :, :100])[:, 0, :] == np.sum(kc[:, :, :100], axis=1))))
