"""fstrings.py — tests/golden/lang/fstrings.tl in CPython 3.11: its output is fstrings.out."""
import numpy as np

x = 1 / 3
n = 42
s = "héllo"
print(f"plain text, no fields")
print(f'single quotes: {n} and "double" inside')
print(f"escapes\t{n}\\n stays, braces {{literal}} and }}{{")
print(rf"raw: \t {n} \n")
print(f"{x:.3f} {x:10.4e} {n:>6} {n:<6}| {n:^7}| {n:+} {n:08.2f} {n:#x} {n:b}")
print(f"{1234567.891:,.2f} {1234567:_} {0.25:%} {-0.0:z.1f} {s:*^11} {s:.2}")
w = 12
p = 3
print(f"[{x:{w}.{p}f}] [{x:>{w}}] [{n:{'^'}{w}}] [{s:{'<'}{w - 4}}]")
q = "it's"
both = "it's \"both\"\t"
print(f"{s!r} {s!s} {s!a} {s!r:>12} {q!r} {both!r}")
print(f"{x=} {x = } {x=:.2f} {n=!s} {1 + 1=} {s=}")
print(f"{n * 2 + 1} {len((n, s))} {(n, s)} {'none'} {'true'} {np.array([n, n + 1])}")
d = {"k": 7, "name": "tl"}
print(f"{d['k']} {d['name']!r} { {'a': 1}['a'] } {f'{n}{n}'}")
print(f"""multi
line {n}""")
greet = lambda who, times: f"{'hi '}{who}, {times:>3}x"
print(greet("you", 5))
for i in range(3):
    print(f"{i}: {i ** 2:02d} {i / 4:.2%}")
print("{:>8}|{:<6}|".format(s, n), "{0}{1}{0}".format("a", "b"))
t = np.array([1.5, -2.25, 10.0])
print(f"{t} | {np.array2string(t, formatter={'all': lambda v: format(v, '.1f')})} | "
      f"{np.array2string(t, formatter={'all': lambda v: format(v, '>8.3e')})}")
print(f"{''}|{'a' if n > 40 else 'b'}|{n if n < 0 else -n}|")
pair = (2, 3)
print(f"{1, 2}|{1,}|{*pair,}|{n, *pair}|{n, 'x'!r}|{n, pair=}")
