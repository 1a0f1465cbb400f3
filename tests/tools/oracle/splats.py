# The Python twin of tests/golden/oracle/splats.tl.
from tlprint import p


def f(a, b=2, *rest, **names):
    return (a, b, rest, len(names))


p(f(1), f(1, 3), f(1, 3, 4, 5), f(1, x=9), f(*(7, 8, 9)), f(**{"a": 1, "b": 5, "z": 0}))


def count(*xs):
    return len(xs)


p(count(), count(1, 2, 3), count(*range(5)), count(*"abc", *list((1, 2))), count(*list()))


def kw(**names):
    out = list()
    for k in sorted(names.keys()):
        out.append(k + "=" + str(names[k]))
    return ",".join(out)


p(kw(), kw(a=1, b=2), kw(**{"x": 1}, y=2), kw(**{"p": 1}, **{"q": 2}))
xs = list((3, 1, 2))
print(*xs)
print(*xs, sep="-")
print(*"tl", *("a", "b"), sep="|")


def sub(a, b):
    return a - b


p(sub(*(5, 3)), sub(**{"b": 1, "a": 10}), sub(5, **{"b": 2}), sub(*list((9,)), 4))
lam = lambda *a, **k: (len(a), len(k))
p(lam(1, 2, z=3), lam())


def wrap(*args, **kwargs):
    return sub(*args, **kwargs)


p(wrap(7, 2), wrap(b=1, a=4), "{} and {}".format(*("this", "that")))


def first(xs, *more):
    return more


p(first(1), first(1, 2), first(*(1, 2, 3)))
