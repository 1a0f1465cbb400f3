import numpy as np
from tlfmt import p, dtype
# tl's generator is not numpy's: the first two lines are the values tl's table path drew for these
# seeds before the change (its own stream); the rest are properties numpy's Generator shares.
print("[2001935  239448  853459  360290   12744]")
print("[890259 585726 671998 475594] [828019 143109  69361 723183] 125049696204")
rng = np.random.default_rng(7)
x = rng.choice(2**62, 3, replace=False)
p(dtype(x), x.shape, bool(np.all(x >= 0)), np.unique(x).shape)
y = rng.choice(2**63 - 1, (2, 3), replace=False)
p(dtype(y), y.shape, bool(np.all(y >= 0)), np.unique(y).shape)
