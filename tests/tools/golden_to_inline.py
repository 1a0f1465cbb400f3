#!/usr/bin/env python3
"""golden_to_inline.py — moves golden tests whose expected output is short from X.out/X.err to inline
#> / #! lines (docs/testing.md), mechanically: a test is converted only when it passes in its file form,
its .out and .err hold at most MAX_LINES lines together, and after `tl --test --update` wrote the
inline lines, those lines read in order are byte for byte the old .out and .err and the test passes.
Otherwise the test is left as it was. usage: golden_to_inline.py PATH/TO/tl FOLDER [MAX_LINES]"""
import os
import subprocess
import sys

tl, folder = os.path.abspath(sys.argv[1]), sys.argv[2]
max_lines = int(sys.argv[3]) if len(sys.argv) > 3 else 6


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


def inline_streams(src):
    """The stdout and stderr the #> and #! lines of src expect, in file order."""
    out, err = b"", b""
    for line in src.split(b"\n"):
        s = line.lstrip(b" \t")
        for mark, is_err in ((b"#>", False), (b"#!", True)):
            if s == mark or s.startswith(mark + b" "):
                text = s[3:] if len(s) > 2 else b""
                text = text[:-9] if text.endswith(b" (no-eol)") else text + b"\n"
                if is_err:
                    err += text
                else:
                    out += text
    return out, err


def passes(path):
    return subprocess.run([tl, "--test", path], capture_output=True).returncode == 0


converted = kept = 0
for dirpath, _, names in sorted(os.walk(folder)):
    for name in sorted(names):
        if not name.endswith(".tl") or name.startswith("_"):
            continue
        path = os.path.join(dirpath, name)
        base = path[:-3]
        src, out, err = read(path), read(base + ".out"), read(base + ".err")
        if out is None and err is None:
            continue
        out, err = out or b"", err or b""
        if out.count(b"\n") + err.count(b"\n") > max_lines or not passes(path):
            kept += 1
            continue
        for suffix in (".out", ".err"):
            if os.path.exists(base + suffix):
                os.rename(base + suffix, base + suffix + ".was")
        subprocess.run([tl, "--test", "--update", path], capture_output=True)
        new = read(path)
        if inline_streams(new) == (out, err) and passes(path):
            for suffix in (".out", ".err"):
                if os.path.exists(base + suffix + ".was"):
                    os.remove(base + suffix + ".was")
            converted += 1
        else:   # line numbers quoted by an error moved, or the output is not attributable: keep the files
            with open(path, "wb") as f:
                f.write(src)
            for suffix in (".out", ".err"):
                if os.path.exists(base + suffix + ".was"):
                    os.rename(base + suffix + ".was", base + suffix)
            kept += 1
print(f"{converted} converted to inline, {kept} kept as .out/.err")
