import math
import numpy as np
from tlfmt import p, show, dtype
np._set_promotion_state("weak")   # numpy 2's NEP 50: Python scalars are weak, numpy scalars/0-d arrays strong
import warnings
warnings.simplefilter("ignore")
f = np.array([1.5, 2.5], np.float32)
i = np.array([1, 2], np.int32)
u = np.array([0, 200], np.uint8)
h = np.array([1, 2], np.float16)
show(f * 2.5)
show(f + 1)
show(i + 1)
show(i * 1.5)
show(i // 2)
show(u + 100)
show(u - 1)
show(h + 1j)
show(h + 70000.0)
show(np.array([100], np.int8) + 27)
# numpy 1.24's weak mode raises here; numpy 2.x (and tl) compare exactly
show(u.astype(np.int64) < 1000)
show(u.astype(np.int64) > -1)
show(np.array([1], np.int8).astype(np.int64) == 1000)
# no bf16 in numpy: docs/language.md §7 says bf16 with int/float literals stays bf16, with a complex literal gives c64
p("bf16", "bf16", "bf16", "c64")
show(np.array([True, False]) + 1)
show(np.array([True, False]) + 1.5)
show(np.array([True, False]).astype(np.int64) + True)   # docs/language.md §7: two bools under + give i64 (numpy keeps bool)
show(2 + 3)
show(2.0 * 3)
show(7 / 2)
x = 2.5
show(f * x)
show(f * -x)
show(f * (x * 2))
# tl keeps elementwise functions of weak values weak (as JAX); Python's math on floats models that
show(f + math.sqrt(x))
show(f + abs(-2.5) + max(1, 2.5) + min(max(5.0, 0), 1) + round(2.567, 1) + (1.0 if True else 2.0))
def twice(v): return v * 2
show(f * twice(1.5))
show(f * np.float64(0.5))
show(f + np.sum(np.array([1.0])))
show(f + np.zeros(()))
show(f + np.float64(x))
show(i + np.int64(1))
p(dtype(2 ** 0.5), dtype(1 + 2j), dtype(-3))
