"""repr.py — tests/golden/lang/repr.tl in CPython 3.11: its output is repr.out (a dict at the top level prints as tl prints dicts:
one `key: value` line each, a string value as its repr)."""
for s in ("abc", "", "it's", "say \"hi\"", "both ' and \"", "tab\there", "new\nline", "back\\slash", "héllo wörld", "😀 ok"):
    print(repr(s), (s,), (1, s))
inv = "\u00a0|\u00ad|\u200b|\u2028|\ue000|\u0378|\ufeff|\u00e9|\u4e2d|\x7f|\x01"
print(repr(inv))
print(f"{inv!a}")
t = ("a", ("b", 2), "c\"d")
print(t, str(t), repr(t), ("x",), ("",))
d = {"name": "tl", "n": 3, "pair": ("k", "v")}
print("\n".join(f"{k}: {v!r}" if isinstance(v, str) else f"{k}: {v}" for k, v in d.items()))
print((1, d), [d, {}], [{"a": [{"b": "it's"}]}])
print("k: [1, {'n': 2}]")   # tl's listing of {"k": [1, {"n": 2}]}: the list in Python's form
