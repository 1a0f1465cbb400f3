# The Python twin of tests/golden/oracle/lists.tl.
from tlprint import p

xs = list()
p(xs, len(xs), [], len([]))
for i in range(5):
    xs.append(i * i)
p(xs, xs[0], xs[-1], xs[1:3], xs[::-1], xs[::2], xs[-2:], xs[10:], xs[3:1])
ys = list(xs)
ys[0] = 100
ys[-1] = -1
p(xs, ys, xs == ys, xs != ys, list(xs) == xs)
zs = list(range(10))
zs[2:5] = list((7, 8))
p(zs, len(zs))
zs[1:1] = list((0.5, 0.25))
p(zs)
zs[::3] = list((-1, -2, -3, -4))
p(zs)
del zs[0]
del zs[-1]
p(zs)
del zs[1:3]
p(zs)
del zs[::2]
p(zs)
p(3 in zs, 100 in zs, 100 not in zs, len(zs))
a = list((1, 2))
b = list((3,))
p(a + b, a * 2, 2 * b, a * 0, a + list(), (a + b) * 2)
p(a < b, list((1, 2, 3)) < list((1, 2)), list((1, 2)) <= list((1, 2)), list((2,)) > list((1, 9)), list() < list((0,)))
n = list((1, list((2, 3)), (4, 5)))
p(n, len(n), n[1][0], n[2][1])
total = 0
for v in list((1, 2, 3)):
    total = total + v
p(total)

# methods
m = list((3, 1, 4, 1, 5))
m.append(9)
m.extend(list((2, 6)))
m.extend((5, 3))
p(m)
m.insert(0, 0)
m.insert(-1, 7)
m.insert(100, 8)
m.insert(-100, -1)
p(m)
p(m.pop(), m.pop(0), m.pop(2), m)
m.remove(1)
p(m, m.index(5), m.count(5), m.count(42))
m.reverse()
p(m)
c = m.copy()
c.append(99)
p(len(m), len(c))
m.sort()
p(m)
m.sort(reverse=True)
p(m)
w = "the quick brown fox jumps over a lazy dog".split()
w.sort(key=len)
p(" ".join(w))
w.sort(key=len, reverse=True)
p(" ".join(w))
w.sort()
p(" ".join(w))
pairs = list(((2, 1), (1, 2), (2, 0), (1, 1)))
pairs.sort()
p(pairs)
pairs.sort(key=lambda t: t[0], reverse=True)
p(pairs)
m.clear()


def dict_of_two():
    return {"a": 1, "b": 2}


p(m, len(m))
p(list("héllo")[1], list((1, 2)), len(list(dict_of_two())), list(list((1,))))
