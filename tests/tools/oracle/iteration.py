# The Python twin of tests/golden/oracle/iteration.tl (tl's enumerate, zip, sorted and reversed
# give lists: list() of Python's iterators).
from tlprint import p

words = "pear fig apple kiwi".split()
for i, w in enumerate(words):
    p(i, w)
for i, w in enumerate(words, start=10):
    p(i, w)
p(list(enumerate(list((7, 8)))), list(enumerate(list())))
for a, b in zip(words, range(100)):
    p(a, b)
p(list(zip(list((1, 2, 3)), (4, 5))), list(zip()), len(list(zip(words))))
for a, (b, c) in zip("xy", list(((1, 2), (3, 4)))):
    p(a, b, c)
p(" ".join(sorted(words)), " ".join(sorted(words, reverse=True)), " ".join(sorted(words, key=len)))
p(sorted((3, 1, 2)), sorted(list((2.5, -1, 0))), sorted(list()), "".join(sorted("hello")))
p(sorted(list(((1, "b"), (1, "a"), (0, "z"))))[0][1], sorted(list((-3, 2, -1)), key=abs))
p(list(reversed((1, 2, 3))), list(reversed(list((4, 5)))), "".join(reversed("abc")), list(reversed(list())))
for k, v in sorted({"b": 2, "a": 1}.items()):
    p(k, v)
total = 0
for (i, j) in list(((1, 2), (3, 4))):
    total = total + i * j
p(total)
for c in "añ":
    p(c)
for k in {"x": 1, "y": 2}:
    p(k)

# map and filter give lists (Python's give iterators: list() of them reads the same)
p(" ".join(map(str, range(4))), " ".join(map(lambda a, b: a + b, ("x", "y", "z"), ("1", "2"))))
p(len(list(map(len, ("a", "bb")))), sum(map(lambda w: len(w), "a bb ccc".split())), " ".join(filter(lambda w: len(w) > 1, "a bb ccc".split())))
p(len(list(filter(None, (0, 1, "", "a", None, 2)))), " ".join(filter(str.isdigit, ("1", "x", "22"))))
p(tuple(range(3)), tuple(), len(tuple("héllo")), tuple(x * 2 for x in (1, 2)), tuple((7,)))
