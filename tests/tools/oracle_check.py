#!/usr/bin/env python3
"""oracle_check.py — the golden tests of tests/golden/oracle/ keep CPython 3.11 as their oracle.

usage: oracle_check.py SOURCE_ROOT [--update]

Each tests/golden/oracle/X.tl has a Python twin tests/tools/oracle/X.py (the same program in
Python); X.out, which `tl --test` compares X.tl's output with, must be byte for byte what the
twin prints. This runs every twin with /usr/bin/python3 (3.11, numpy installed) and compares;
--update rewrites the .out files from the twins instead (then run tl --test to see that tl
agrees). A .tl without a twin, or a twin without a .tl, is a failure too.
"""
import os
import subprocess
import sys


def main():
    root = sys.argv[1]
    update = "--update" in sys.argv[2:]
    tdir = os.path.join(root, "tests", "golden", "oracle")
    pdir = os.path.join(root, "tests", "tools", "oracle")
    tls = {f[:-3] for f in os.listdir(tdir) if f.endswith(".tl")}
    pys = {f[:-3] for f in os.listdir(pdir) if f.endswith(".py") and f != "tlprint.py"}
    failures = [f"{n}.tl has no Python twin tools/oracle/{n}.py" for n in sorted(tls - pys)]
    failures += [f"tools/oracle/{n}.py has no test {n}.tl" for n in sorted(pys - tls)]
    for name in sorted(tls & pys):
        run = subprocess.run([sys.executable, f"{name}.py"], cwd=pdir, capture_output=True)
        if run.returncode != 0:
            failures.append(f"{name}.py failed: {run.stderr.decode(errors='replace')[-500:]}")
            continue
        out = os.path.join(tdir, f"{name}.out")
        if update:
            with open(out, "wb") as f:
                f.write(run.stdout)
            continue
        with open(out, "rb") as f:
            if f.read() != run.stdout:
                failures.append(f"{name}.out is not what {name}.py prints (oracle_check.py --update rewrites it)")
    for f in failures:
        print("FAIL", f)
    print(f"{len(tls & pys)} twins, {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
