#!/usr/bin/env python3
"""check_kind_tags.py — verifies that a change to expected outputs only added error kinds.

usage: tests/tools/check_kind_tags.py BASE [PATH...]   (run from the repository root)

Compares every file under PATH (default: tests/ docs/ examples/) as it is in the working tree
with its text at the git commit BASE, line by line, and fails unless each changed line is the
old line with "error: " become "error[KIND]: " (KIND one of runtime/error.h's kinds), and
nothing else changed: no line added, removed or otherwise edited. This is how the expected
outputs were moved to the printed form that names each error's kind, by running the tests
with --update and checking the result with this script.
"""
import re
import subprocess
import sys

KINDS = re.findall(r"X\((\w+)\)", open("runtime/error.h").read().split("#define TL_ERRKIND_LIST(X)")[1].split("typedef")[0])
TAG = re.compile(r"error\[(" + "|".join(KINDS) + r")\]: ")


def changed_files(base, paths):
    out = subprocess.run(["git", "diff", "--name-only", base, "--"] + paths, capture_output=True, text=True, check=True).stdout
    return [p for p in out.split("\n") if p]


def old_text(base, path):
    r = subprocess.run(["git", "show", f"{base}:{path}"], capture_output=True)
    return r.stdout.decode("utf-8", "surrogateescape") if r.returncode == 0 else None


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    base, paths = sys.argv[1], sys.argv[2:] or ["tests", "docs", "examples"]
    bad = changed_lines = 0
    files = changed_files(base, paths)
    for path in files:
        old = old_text(base, path)
        try:
            new = open(path, encoding="utf-8", errors="surrogateescape").read()
        except FileNotFoundError:
            new = None
        if old is None or new is None:
            print(f"{path}: added or removed")
            bad += 1
            continue
        a, b = old.split("\n"), new.split("\n")
        if len(a) != len(b):
            print(f"{path}: {len(a)} lines became {len(b)}")
            bad += 1
            continue
        for i, (x, y) in enumerate(zip(a, b), 1):
            if x == y:
                continue
            changed_lines += 1
            if TAG.sub("error: ", y) != x or "error: " not in x:
                print(f"{path}:{i}: not only a kind tag:\n  - {x}\n  + {y}")
                bad += 1
    print(f"{len(files)} files, {changed_lines} changed lines, {bad} problems")
    sys.exit(1 if bad else 0)


main()
