# What numpy prints for tests/golden/tensors/item.tl's values, up to its quantized tensor (its errors are tl's messages).
import numpy as np
from tlfmt import show
np._set_promotion_state("weak")
a = np.arange(6).reshape(2, 3)
print(a.item(4), a.item(-1), a.item(1, 2), a.item((0, 1)), a.item(1, -1))
print(repr(np.float32([2.5]).item()), repr(np.float16([0.1]).item()), repr(np.complex64([1 + 2j]).item()),
      repr(np.array([True]).item()).lower())
print(repr(np.uint8([200]).item()), repr(np.int8([-3]).item()), repr(np.float32([0.1]).item()), repr(np.array(7).item()),
      repr(np.array(2.5).item()))
show(np.float32([1.5, 2.5]).item(0) + np.float32([1, 2]))
print(a[:, ::-1].item(0), a.T.item(1), a[1].item(0), a[:, 1:].item(1, 1))
print(a.tolist(), np.array(7).tolist(), np.zeros(0).tolist(), np.zeros((2, 0)).tolist(), np.zeros((0, 3)).tolist())
print(np.float32([0.1, 2]).tolist(), a.T.tolist(), np.arange(10)[::-3].tolist(), np.complex64([1 - 2j]).tolist(),
      str(np.array([True, False]).tolist()).lower())
