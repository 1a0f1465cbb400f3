"""splicing.py — tests/golden/lang/splicing.tl in CPython 3.11: its output is splicing.out."""
xs = list([1, 2])
t = (3, "a")
print((*xs, 0), (*t,), (0, *xs, *t, *"bc"), (*range(3),))
print([*t, *xs], [*"hi", *list()])
defaults = {"lr": 0.1, "steps": 10}
print(({**defaults, "steps": 20, "seed": 1}, {"seed": 0, **defaults}, {**defaults, **{"lr": 0.5}}, {**{}}))
print((defaults | {"lr": 1, "x": 2}, defaults))
y = 1, *xs
print(y)
def wrap(*a):
    return "start", *a, "end"
print(wrap(1, 2), wrap())
(p, *q), r = ((1, 2, 3), 4)
print(p, q, r)
print((*{"k": 1, "m": 2},), [*{"k": 1}, "z"])
for bad in [5, None]:
    try:
        z = (*bad, 1)
    except TypeError as e:
        print("TypeError")
try:
    z = {**xs}
except TypeError as e:
    print("TypeError")
