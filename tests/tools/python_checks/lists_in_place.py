"""lists_in_place.py — tests/golden/lang/lists_in_place.tl in CPython 3.11: its output is lists_in_place.out."""
def show(*bools):   # tl prints bools as true and false
    print(*[str(x).lower() for x in bools])
a = ["x"]
b = a
b += ["y"]
print(a, b)
def add(xs):
    xs += ["z"]
add(a)
print(a)
c = [1, 2]
e = c
e *= 2
print(c, e)
e *= 0
print(c, len(e))
xs = [1, 2]
xs += xs
xs += "hi"
xs += (7,)
print(xs)
d = {"k": [1]}
alias = d["k"]
d["k"] += [2, 3]
print(alias, d["k"])
t = (["a"],)
try:
    t[0] += ["b"]
except TypeError:
    print("TypeError")
print(t)
s = "ab"
s2 = s
s2 += "c"
print(s, s2)
u = (1,)
u2 = u
u2 += (2,)
print(u, u2)

xs = [1]
xs.append(xs)
print(xs, repr(xs), f"{xs}")
show(xs == xs, xs != xs, xs in xs, (xs,) == (xs,), [xs, 2] == [xs, 2])
ys = [1]
ys.append(ys)
try:
    print(xs == ys)
except RecursionError as err:
    print(type(err).__name__)
try:
    print(xs < ys)
except RecursionError as err:
    print(type(err).__name__)
dd = {"a": 1}
dd["me"] = dd
print([dd])
l = []
tt = (l, 2)
l.append(tt)
print(tt, l)

p = []
q = []
for i in range(1500):
    p = [p, 1]
    q = [q, 1]
try:
    print(p == q)
except RecursionError as err:
    print(type(err).__name__)
try:
    print(sorted([p, q]))
except RecursionError as err:
    print(type(err).__name__)
p = []
q = []
for i in range(500):
    p = [p, 1]
    q = [q, 2]
show(p == q, p < q)

m = dict(a=1, b=2, c=3)
try:
    for k in m:
        del m[k]
except RuntimeError:
    print("changed size")
print(list(m))
m = dict(a=1, b=2)
for k in m:
    m[k] = 5
print(list(m.items()))
for k in list(m):
    del m[k]
print(len(m))

zs = [3, 1, 2]
def key(x):
    zs.append(0)
    return x
try:
    zs.sort(key=key)
except ValueError as err:
    print(type(err).__name__)
