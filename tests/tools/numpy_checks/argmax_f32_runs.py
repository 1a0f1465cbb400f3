import numpy as np
import warnings
from tlfmt import p
warnings.simplefilter("ignore")
f = np.float32
x = (np.arange(100) % 7).astype(f)
p(np.argmax(x), np.argmax(x[::2]), np.argmax(x[3:]))
y = np.zeros(37, f) - 1
y[20] = np.nan
y[30] = 5
p(np.argmax(y), np.argmax(y[::3]))
y[20] = 0
p(np.argmax(y))
y[35] = np.nan
p(np.argmax(y))
z = np.zeros(40, f) - np.inf
p(np.argmax(z))
z[39] = np.nan
z[38] = np.nan
p(np.argmax(z))
w = np.zeros(33, f)
w[0] = -0.0
w[17] = 0.0
p(np.argmax(w), np.argmax(np.ones((3, 20), f), axis=1))
v = np.sin(np.arange(32001) * 0.37).astype(f)
v[31999] = 2
p(np.argmax(v), np.argmax(v[:31999]) == np.argmax(v[:31999].astype(np.float64)))
