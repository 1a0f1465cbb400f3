"""str_predicates_more.py — tests/golden/lang/str_predicates_more.tl in CPython 3.11: its output is str_predicates_more.out."""
def show(*xs):   # tl prints bools as true and false
    print(*[str(x).lower() if isinstance(x, bool) else x for x in xs])
samples = ("", "abc", "ABC_123", "_", "__init__", "2abc", "a2", "café", "naïve", "Ñandú", "中文", "变量1",
           "١٢٣", "x١", "a-b", "a b", " ", "a\u0301", "\u0301a", "a\u200db", "\u200d", "😀", "a😀",
           "\t", "a\n", "\x00", "\x7f", "\x80", "\u00a0", "a\u00a0b", "\u2028", "\u00ad", "\ue000",
           "\u0378", "\ufeff", "a\u00b7", "\u00b7", "\u2118x", "x\u00b2", "\u00b2", "ª", "ℌ",
           "\U0001D518\U0001D52B", "\U00020000", "\U00010400\U00010428", "x\U0001F600")
for s in samples:
    show(ascii(s), s.isprintable(), s.isprintable(), s.isidentifier(), s.isidentifier())
show("\udcff".isprintable(), "a\udcff".isidentifier())

quoted = ("it's", "say \"hi\"", "both ' and \"", "back\\slash", "tab\tnew\nline", "é", "中文", "😀",
          "\U0001D518", "\x00\x7f\x80\xff", "")
for s in quoted:
    show(ascii(s), repr(ascii(s)), len(ascii(s)), f"{s!a}" == ascii(s))
print(ascii(("é", "it's", 1)), ascii(["中", "😀"]), ascii(("x",)))
print(ascii([{"clé": "välue", "n": 1}, ["ß", ("ü", "\U0001F600")]]))
print(ascii(42), ascii(-1.5), ascii("plain"))

d = {"a": 1, "b": 2, "c": 3}
d["d"] = 4
print(d.popitem())
del d["a"]
d["a"] = 10
d["b"] = 20
print(d.popitem(), list(d.items()))
d["e"] = 5
f = d.setdefault("f", 6)
d.update({"b": 0, "g": 7})
while len(d) > 0:
    k, v = d.popitem()
    print(k, v, len(d))
try:
    d.popitem()
    print("no error")
except KeyError:
    print("popitem of an empty dict: an error")
xs = [1]
k, v = {"xs": xs}.popitem()
v.append(2)
print(k, xs)
big = {}
for i in range(20):
    big["k" + str(i)] = i
show(big.popitem(), big.popitem(), len(big), "k19" in big, "k17" in big, big["k17"])
big["k19"] = 99
big["k0"] = -1
print(big.popitem(), big.popitem(), len(big), big.get("k1"))
