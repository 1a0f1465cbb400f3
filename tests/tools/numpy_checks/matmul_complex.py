import numpy as np
from tlfmt import show
np._set_promotion_state("weak")
np.seterr(all="ignore")
inf = np.inf
r = np.array([[0.75 - 0.25j]])
show(r @ np.array([[inf, -1.5, 2.0]], dtype=np.float32))
show(np.array([[0.75 - 0.25j], [1.0 + 0.5j]]) @ np.array([[inf, -1.5]], dtype=complex))
show(np.array([1.5 - 1.75j]) @ np.array([inf], dtype=np.float32))
show(np.array([inf, 2.0, -3.0]) @ np.array([1 + 2j, 3 - 1j, 0.5j]))
show(np.array([[1 + 2j, inf], [0.5j, 2.0]]) @ np.array([1 - 1j, 2 + 0.25j]))
show(np.array([1 - 1j, 2 + 0.25j]) @ np.array([[1 + 2j, inf], [0.5j, 2.0]]))
show(np.array([[1 + 2j, inf], [0.5j, 2.0]], dtype=np.complex64) @ np.array([1 - 1j, 2 + 0.25j], dtype=np.complex64))
x = (np.arange(40) * 0.37 - 3.1).reshape(20, 2)
v = x[:, 0] + 1j * x[:, 1]
w = (np.arange(20) * 0.7 - 5.3) / 3.1 - 1j * (np.arange(20) * 0.3 - 2.9) / 1.7
xe = (np.arange(40) * 0.375 - 3.125).reshape(20, 2)
ve = xe[:, 0] + 1j * xe[:, 1]
we = (np.arange(20) % 7 - 3) * 0.25 - 1j * (np.arange(20) % 5 - 2) * 0.5
show(ve @ we)
show(v[::-1] @ w)
show(ve[::2] @ we[1::2])
show(ve.astype(np.complex64) @ we.astype(np.complex64))
m = v.reshape(4, 5)
show(m @ w[:5])
show(m.T @ w[:4])
show(w[:4] @ m)
show(w[:5] @ m.T)
show(m[:, ::-1] @ w[:5])
p = np.array([[1 + 2j, inf], [0.5j, 2.0]])
q = np.array([[1 - 1j, 2 + 0.25j], [0.5 - 3j, -1.0]])
show(p @ q)
show(p @ q[:, ::-1])
show(p[::-1] @ q)
show(np.array([[[0.5, 1.25], [2.5, -1.75]], [[-inf, 1.25], [2.0, -1.25]]], dtype=np.float16) @ np.stack([q, q]).astype(np.complex64)[..., ::-1])
show(m[:, ::2] @ w[:6].reshape(3, 2))
show(m[::-1, ::-1] @ w[:10].reshape(5, 2))
