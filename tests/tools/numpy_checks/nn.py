# References written as PyTorch defines them (torch.nn.functional.softmax/log_softmax/layer_norm/rms_norm).
import numpy as np
from tlfmt import p, show
def softmax(a, axis=-1):
    a = np.asarray(a)
    if a.dtype.kind in "iub": a = a.astype(np.float64)
    e = np.exp(a - np.max(a, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)
def log_softmax(a, axis=-1):
    a = np.asarray(a)
    m = np.max(a, axis=axis, keepdims=True)
    return a - m - np.log(np.sum(np.exp(a - m), axis=axis, keepdims=True))
def layer_norm(a, w=None, b=None, eps=1e-5):
    a = np.asarray(a)
    y = (a - a.mean(-1, keepdims=True)) / np.sqrt(a.var(-1, keepdims=True) + a.dtype.type(eps))
    if w is not None: y = y * np.asarray(w)
    if b is not None: y = y + np.asarray(b)
    return y
def rms_norm(a, w=None, eps=1e-6):
    a = np.asarray(a)
    y = a / np.sqrt(np.mean(a * a, -1, keepdims=True) + a.dtype.type(eps))
    return y if w is None else y * np.asarray(w)
x = np.array([[1.0, 2.0, 3.0], [-1.0, 0.0, 5.0]])
show(softmax([1.0, 2.0, 3.0]))
show(softmax(x))
show(softmax(x, axis=0))
show(softmax([1000.0, 1000.0, -1000.0]))
# numpy's f32 exp is 1 ULP off here (prints 0.2689414); the f64 result rounded once to f32 is tl's:
show(softmax(np.array([0.5, 1.5])).astype(np.float32))
show(softmax(np.array([1, 2], np.int32)))
show(log_softmax([1.0, 2.0, 3.0]))
show(log_softmax(x, axis=0))
show(log_softmax([1000.0, 0.0]))
show(log_softmax(np.array([[0, 1], [2, 4]], np.float32)))
show(np.sum(softmax(np.arange(24).reshape(2, 3, 4) * 0.1, axis=1), axis=1))
show(layer_norm(x))
show(layer_norm(x, [1.0, 2.0, 0.5]))
show(layer_norm(x, [1.0, 2.0, 0.5], [0.0, 1.0, -1.0]))
show(layer_norm(x, b=[1.0, 1.0, 1.0]))
show(layer_norm(x, eps=0.1))
show(layer_norm(np.array([[1, 2, 3, 4]], np.float32)))
show(layer_norm([5.0, 5.0]))
show(rms_norm(x))
show(rms_norm(x, [1.0, 2.0, 0.5]))
show(rms_norm(x, eps=0.5))
show(rms_norm(np.array([3, 4], np.float32)))
show(rms_norm([0.0, 0.0]))
