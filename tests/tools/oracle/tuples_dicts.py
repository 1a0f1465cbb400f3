# The Python twin of tests/golden/oracle/tuples_dicts.tl.
from tlprint import p

t = (1, 2, 3, 4, 5)
p(t[1:3], t[::-1], t[::2], t[-2:], t[4:1:-1], t[9:], t[:0], (7,)[0:1])
p(3 in t, 9 in t, 9 not in t, (1, 2) in ((1, 2), (3,)), "b" in ("a", "b"))
p((1, 2) * 2, 3 * (0,), (1,) * 0, (1, 2) + (3,))
p((1, 2) < (1, 3), (1, 2) < (1, 2, 0), (2,) > (1, 9), (1, 2) <= (1, 2), (1, 2) >= (1, 3), () < (0,))
p((1, 2, 1, 1).count(1), (1, 2, 1).index(2), (3, 4).index(4), ("a", "b").count("b"))
p((1, (2, 3)) < (1, (2, 4)), (1.5, 2) == (1.5, 2), (1, 2) == (1, 2.0))
d = {"a": 1, "b": 2}
p("a" in d, "z" in d, "z" not in d, len(d))
p(list(d.values()), list(d.values()))
for k, v in d.items():
    p(k, v)
p(d.get("a"), d.get("z"), d.get("z", 0), d.get("b", 0))
p(d.pop("a"), d.pop("z", -1), len(d))
d.update({"c": 3, "b": 20})
d.update(list((("e", 5),)))
for k, v in d.items():
    p(k, v)
del d["c"]
p(len(d), tuple(d.keys())[0], "c" in d)
d["f"] = 6
p(list(d)[-1], len(d))
counts = {}
for w in "a b a c b a".split():
    counts[w] = counts.get(w, 0) + 1
for k in sorted(list(counts)):
    p(k, counts[k])
cp = counts.copy()
cp["z"] = 0
p(len(counts), len(cp))
counts.clear()
p(len(counts))


def int_key(k):
    return int(k)


big = {str(i * 7 % 100): i for i in range(100)}
for k in list(big)[:30]:
    if int_key(k) % 3 == 0:
        del big[k]
p(len(big), list(big.values())[:12], "21" in big, "22" in big, big.get("49", -1), big.get("0", -1))
big.update({str(i): -i for i in range(95, 105)})
p(len(big), big["104"], big["99"], list(big)[-3:] == list(("102", "103", "104")))

# dict(), setdefault, update with names
cfg = dict(zip(("lr", "steps", "name"), (0.5, 100, "run")), seed=7)
p(len(cfg), cfg["lr"], cfg["steps"], cfg["name"], cfg["seed"], len(dict()), dict(cfg)["seed"])
groups = {}
for w in "apple avocado banana blueberry cherry".split():
    groups.setdefault(w[0], list()).append(w)
p(len(groups), len(groups["a"]), groups["b"][1], groups.setdefault("c", list())[0], groups.setdefault("z") == None, len(groups))
cfg.update(lr=0.25, extra=1)
cfg.update((("steps", 200),), name="again")
p(cfg["lr"], cfg["extra"], cfg["steps"], cfg["name"], list(cfg)[-1])
