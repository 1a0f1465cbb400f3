"""format_template.py — tests/golden/lang/format_template.tl in CPython 3.11: its output is format_template.out."""
import numpy as np


def fmt(template, /, *args, **names):
    return template.format(*args, **names)


print(fmt("{} + {} = {}", 1, 2, 3))
print(fmt("{0}{1}{0}", "ab", "cd"), fmt("{} has shape {}", "x", (2, 3)), fmt("{}", 1, 2))
print(fmt("{name} is {age:>4}|", name="tl", age=3), fmt("{template}", template="kept"))
print(fmt("{0[1]} {0[0]!r} {t[2]} {d[k]} {d[name]!r}", ("a", "b"), t=(1, 2, 3), d={"k": 1, "name": "x"}))
print(fmt("{:{}}|{:{w}.{p}f}|", "x", 5, 3.14159, w=9, p=2))
print(fmt("{!r:>6}|{!s}|{!a}|{!r}", "é", "é", "é", (1, "a")))
print(fmt("{{}} {{{0}}} }}{{", 5))
print(fmt("{:>10}|{:<10}|{:^10}|{:d}", 1.5, "ab", True, False))
print("{:,}".format(1234567), "{:.2%}".format(0.125), "{:>8}|".format("ab"), "{0}-{0}".format("r"))
print(fmt("{0.shape} {0.ndim} {x.size}", np.zeros((2, 3)), x=np.ones(4)))
print(fmt("{:.3f}", 1 / 3), fmt("{:e}", 12345.6789), fmt("{:g}", 1e-7))
print(fmt(""), fmt("no fields"), fmt("{0:}|{0!s:}|", 2.5))


def check(template, v):
    try:
        print(fmt(template, v))
    except ValueError as e:
        print("ValueError: format(): " + str(e))


for t in ("{", "}", "a}b", "{0!x}", "{0!}", "{0!r", "{0!rx}", "{0:{0:{0}}}", "{} {0}", "{0} {}", "{0[}", "{0.}",
          "{a{b}", "{:x}", "{:d}", "{0", "{0:", "{:{", "{:}}"):
    check(t, 1.5)
check("{:d}", "s")
check("{0[0]}", (7, 8))
check("{0[0]x}", (7, 8))
check("{0[1]}", (7, 8))
