#!/usr/bin/env python3
"""test_help_examples.py — runs every example help(name) shows and compares what it prints with
the output help shows, so help cannot go stale; every builtin must have one.

usage: test_help_examples.py path/to/tl
"""
import os
import shutil
import subprocess
import sys
import tempfile

WORK = tempfile.mkdtemp(prefix="tl-help-")   # the examples of load, save, include, ... write files here


def tl_run(tl, code):
    r = subprocess.run([tl, "-e", code], capture_output=True, text=True, timeout=60, cwd=WORK)
    return r.returncode, r.stdout, r.stderr


def examples(help_text):
    """The (code, output) pairs of a help page: '  >>> ' lines, then the '  ' lines they print."""
    found, code, out = [], None, None
    for line in help_text.splitlines() + ["example:"]:
        if line == "example:":
            if code is not None:
                found.append(("\n".join(code), "".join(o + "\n" for o in out)))
            code, out = [], []
        elif code is not None and line.startswith("  >>> ") and not out:
            code.append(line[6:])
        elif code is not None and line.startswith("  "):
            out.append(line[2:])
    return found


def main():
    tl = os.path.abspath(sys.argv[1])
    status, index, err = tl_run(tl, "help()")
    if status != 0:
        print(f"help() failed: {err}")
        return 1
    names = index.split("Builtins:\n", 1)[1].split()
    with_example = failed = total = 0
    seen = set()
    for name in names:
        status, page, err = tl_run(tl, f'help("{name}")')
        if status != 0:
            print(f"FAIL help({name!r}): {err}")
            failed += 1
            continue
        found = examples(page)
        with_example += bool(found)
        if found:
            seen.add(name)
        for code, want in found:
            total += 1
            status, got, err = tl_run(tl, code)
            if status != 0 or got != want:
                failed += 1
                print(f"FAIL {name}: {code!r}\n  help shows {want!r}\n  it prints  {got!r} {err}")
    print(f"{total - failed}/{total} examples print what help shows; {with_example}/{len(names)} builtins have one")
    missing = [n for n in names if n not in seen]
    if missing:
        print("without an example: " + " ".join(missing))
    shutil.rmtree(WORK, ignore_errors=True)
    return 1 if failed or missing else 0


if __name__ == "__main__":
    sys.exit(main())
