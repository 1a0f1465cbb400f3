#!/usr/bin/env python3
"""list_props.py — property test of tl's lists: random operation sequences applied to a tl list
and to a Python list, their printed states compared after every step.

usage: list_props.py TL_EXECUTABLE [PROGRAMS [SEED]]

Each program starts from a list of a few numbers and applies OPS random operations: append
extend insert pop remove index count clear reverse copy sort (key, reverse), item and slice
reads, item and slice assignment (extended slices too), del of items and slices, + * in == <
len, list(), sorted, reversed. After each operation both sides print the list and the
operation's result (or "error" for an operation Python refuses: pop from an empty list, an
index out of range, remove of a missing value, an extended slice assigned the wrong length).
The two outputs must be equal line for line; the first difference is reported with the
program that produced it, kept in the working folder.
"""
import os
import random
import subprocess
import sys
import tempfile

OPS = 60


def num(r):
    return r.choice([r.randint(-5, 9), r.randint(-5, 9), r.choice([0.5, -2.25, 3.0])])


def nums(r, k=None):
    k = r.randint(0, 4) if k is None else k
    return [num(r) for _ in range(k)]


def tl_list(vals):
    """A tl expression making the list vals (list((...)) keeps numbers a list, not a tensor)."""
    if not vals:
        return "list()"
    return "list((" + ", ".join(tl_num(v) for v in vals) + ("," if len(vals) == 1 else "") + "))"


def tl_num(v):
    return repr(v)


def py_list(vals):
    return "[" + ", ".join(repr(v) for v in vals) + "]"


def slice_text(r):
    parts = [r.choice(["", str(r.randint(-7, 7))]) for _ in range(2)]
    if r.random() < 0.4:
        parts.append(str(r.choice([-3, -2, -1, 1, 2, 3])))
    return ":".join(parts)


def operation(r):
    """One random operation as (tl statement, Python statement); each prints its result."""
    i, x, ys, s = r.randint(-8, 8), num(r), nums(r), slice_text(r)
    kind = r.randrange(24)
    both = [
        ("p(xs.append({x}))", x), ("p(xs.extend({ys}))", None), ("p(xs.insert({i}, {x}))", x),
        ("p(xs.pop())", None), ("p(xs.pop({i}))", None), ("p(xs.remove({x}))", x), ("p(xs.index({x}))", x),
        ("p(xs.count({x}))", x), ("p(xs.reverse())", None), ("p(len(xs), {x} in xs, {x} not in xs)", x),
        ("xs[{i}] = {x}", x), ("del xs[{i}]", None), ("xs[{s}] = {ys}", None), ("del xs[{s}]", None),
        ("p(xs[{s}])", None), ("p(xs[{i}])", None), ("p(xs + {ys}, {ys} + xs)", None), ("p(xs * {k}, {k} * xs)", None),
        ("p(xs == {ys}, xs != {ys}, xs < {ys}, xs >= {ys})", None), ("ys = xs.copy()\nys.append(1)\np(len(xs), len(ys))", None),
        ("p(xs.sort())", None), ("p(xs.sort(reverse={rev}))", None), ("p(sorted(xs), reversed(xs), list(xs) == xs)", None),
        ("p(xs.clear())", None),
    ][kind][0]
    if kind == 23 and r.random() < 0.8:   # clear rarely, or the lists stay short
        return operation(r)
    k, rev = r.randint(-1, 3), r.choice([True, False])
    tl = both.format(i=i, x=tl_num(x), ys=tl_list(ys), s=s, k=k, rev="true" if rev else "false")
    py = both.format(i=i, x=repr(x), ys=py_list(ys), s=s, k=k, rev=rev).replace("reversed(xs)", "list(reversed(xs))")
    return tl, py


def program(r):
    start = nums(r, r.randint(0, 6))
    # p(a, b, ...) prints its values as one tuple (a alone when it is the only one), on both sides
    tl = ["fn p(a=none, b=none, c=none, d=none) {",
          "    print(a if b == none else (a, b) if c == none else (a, b, c) if d == none else (a, b, c, d))", "}",
          f"xs = {tl_list(start)}"]
    py = ["import sys", "sys.path.insert(0, %r)" % os.path.join(os.path.dirname(os.path.abspath(__file__)), "oracle"),
          "from tlprint import p as show",
          "def p(a=None, b=None, c=None, d=None):",
          "    show(a if b is None else (a, b) if c is None else (a, b, c) if d is None else (a, b, c, d))",
          f"xs = {py_list(start)}"]
    for _ in range(OPS):
        t, q = operation(r)
        tl.append("try {\n" + "\n".join("    " + line for line in t.split("\n")) + "\n} catch e { print(\"error\") }")
        tl.append("print(xs)")
        py.append("try:\n" + "\n".join("    " + line for line in q.split("\n")) + "\nexcept (IndexError, ValueError):\n    print('error')")
        py.append("show(xs)")
    return "\n".join(tl) + "\n", "\n".join(py) + "\n"


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    tl = os.path.abspath(sys.argv[1])
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 2024
    work = tempfile.mkdtemp(prefix="tl-list-props-")
    for n in range(count):
        r = random.Random(seed * 1000 + n)
        tl_src, py_src = program(r)
        tl_path, py_path = os.path.join(work, f"p{n}.tl"), os.path.join(work, f"p{n}.py")
        with open(tl_path, "w") as f:
            f.write(tl_src)
        with open(py_path, "w") as f:
            f.write(py_src)
        a = subprocess.run([tl, tl_path], capture_output=True, text=True)
        b = subprocess.run(["/usr/bin/python3", py_path], capture_output=True, text=True)
        if a.returncode != 0 or b.returncode != 0:
            print(f"FAIL program {n} ({tl_path}): tl status {a.returncode}, python status {b.returncode}\n{a.stderr[-800:]}{b.stderr[-800:]}")
            return 1
        la, lb = a.stdout.splitlines(), b.stdout.splitlines()
        for k, (x, y) in enumerate(zip(la, lb)):
            if x != y:
                print(f"FAIL program {n} ({tl_path}), output line {k + 1}:\n  tl:     {x}\n  python: {y}")
                return 1
        if len(la) != len(lb):
            print(f"FAIL program {n} ({tl_path}): {len(la)} lines from tl, {len(lb)} from python")
            return 1
    print(f"{count} programs of {OPS} operations: tl's lists agree with Python's")
    return 0


if __name__ == "__main__":
    sys.exit(main())
