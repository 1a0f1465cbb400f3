# The Python twin of tests/golden/oracle/comprehensions.tl: a tl comprehension of numbers is a
# tensor, written here as np.array of the list (numpy's int64 and float64, as tl's).
import numpy as np
from tlprint import p

p(np.array([x * 2 for x in range(5)]))
p(np.array([x / 2 for x in range(4) if x != 1]))
p(np.array([i * 10 + j for i in range(3) for j in range(i)]))
p(np.array([x for x in range(10) if x % 2 == 0 if x > 3]))
p([(x, x * x) for x in range(3)])
p(np.array([len(w) for w in "a bb ccc".split()]))
p([w for w in "a bb ccc".split() if len(w) > 1][1])
p([list((i,)) for i in range(2)], [x for x in list()], [x for x in range(0)])
p(np.array([[i, i + 1] for i in range(3)]))
p(np.array([x for x in (1.5, 2)]), [c for c in "héllo" if c != "l"][1])
p(np.array([y for x in list((list((1, 2)), list((3,)))) for y in x]))
p(np.array([a + b for a, b in list(((1, 2), (3, 4)))]), np.array([k + 1 for k, _ in enumerate("ab")]))
d = {w: len(w) for w in "one three five".split()}
for k, v in d.items():
    p(k, v)
e = {k: v * 2 for k, v in d.items() if v > 3}
p(len(e), e["three"], "one" in e)
x = 42
sq = np.array([x * x for x in range(4)])
p(sq, x)
n = 3
p(np.array([n * k for k in range(n)]))


def scaled(s):
    return np.array([s * v for v in range(3)])


p(scaled(10))
fns = [lambda t: t + i for i in range(3)]
p(fns[0](10), fns[2](10))

# generator expressions: a call's only argument, or in parentheses; evaluated at once
words = "the tensor language".split()
p(" ".join(w.upper() for w in words), sum(x * x for x in range(5)), max(len(w) for w in words))
p(any(w.startswith("t") for w in words), all(len(w) > 3 for w in words), " ".join(sorted(w for w in words if "e" in w)))
p("".join(list(c for c in "héllo" if c != "l")), len(list(k for k in range(7) if k % 2)))
