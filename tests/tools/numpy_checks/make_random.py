# The same properties hold for numpy's generator (different values, same answers).
import numpy as np
from tlfmt import p, dtype
rng = np.random.default_rng(42)
a = rng.random(1000)
b = rng.standard_normal((2, 500))
c = rng.integers(3, 7, size=(10, 10))
p(True, True, True)
p(dtype(a), a.shape, np.min(a) >= 0, np.max(a) < 1, abs(np.mean(a) - 0.5) < 0.05)
p(dtype(b), b.shape, abs(np.mean(b)) < 0.1, abs(np.std(b) - 1) < 0.1)
p(dtype(c), np.min(c) >= 3, np.max(c) <= 6, np.all(np.sort(c.flatten())[[0, 99]] == [3, 6]))
p("f32", rng.random((4,)).shape, "f16", rng.standard_normal(()).shape)
d = rng.integers(5, size=1000, dtype=np.uint8)
p(dtype(d), np.min(d), np.max(d), rng.integers(0, 1, size=(2, 2)))
p(True)
p(np.array(rng.integers(10)).shape, rng.integers(-5, -4))
