"""nonlocal.py — tests/golden/lang/nonlocal.tl in CPython 3.11: its output is nonlocal.out."""
def counter(start):
    n = start
    def step(by=1):
        nonlocal n
        n += by
        return n
    return step
a = counter(0)
b = counter(100)
print(a(), a(), b(), a(10), b(5))
def outer():
    total = 0
    last = None
    def mid(xs):
        nonlocal total, last
        def inner(v):
            nonlocal total
            total = total + v
        for v in xs:
            inner(v)
        first, *last = xs
    mid([1, 2, 3])
    mid([10, 20])
    return (total, last)
print(outer())
def makers():
    k = 0
    fs = list()
    for i in range(3):
        fs.append(lambda: k)
    def bump():
        nonlocal k
        k = 7
    bump()
    return (fs[0](), fs[1](), fs[2]())
print(makers())
