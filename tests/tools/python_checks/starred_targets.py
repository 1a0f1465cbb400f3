"""starred_targets.py — tests/golden/lang/starred_targets.tl in CPython 3.11: its output is starred_targets.out."""
t = (1, 2, 3, 4)
a, *b = t
print(a, b)
*a, b = t
print(a, b)
a, *b, c = t
print(a, b, c)
a, *b, c, d, e = t
print(a, b, c, d, e)
a, *b = list(["x"])
print(a, b)
first, *middle, last = "hello".split("l")
print(first, middle, last)
(p, q), *z = ((1, 2), 3, "s")
print(p, q, z)
for x, *ys in [(1, 2, 3), (4,), ("a", "b")]:
    print(x, ys)
print(([ys for x, *ys in [(1, 2, 3), (4, 5)]], {k: v for k, *v in [("a", 1, 2), ("b",)]}))
def head_tail(xs):
    h, *tl = xs
    return (h, tl)
print(head_tail([9, 8, 7]), head_tail(("only",)))
for items in [(), (1,)]:
    try:
        a, *b, c = items
    except ValueError as e:
        print("ValueError")
ys = list([list([]), "a" + "b", "c" + "d"])
ys[0:], b, c = ys
print(ys, b, c)
zs = list([list([]), "x" * 2, "y" * 3, "z"])
zs[0:], *r, w = zs
print(zs, r, w)
