#!/usr/bin/python3
"""check_python_mirrors.py — the golden tests whose semantics are Python's have their expected output from CPython.

Each tests/tools/python_checks/NAME.py is the program of tests/golden/lang/NAME.tl written in Python;
run by CPython 3.11 it must print exactly tests/golden/lang/NAME.out (which tl --test then holds tl to).
usage: /usr/bin/python3 tests/tools/check_python_mirrors.py SOURCE_ROOT
"""
import difflib
import subprocess
import sys
from pathlib import Path

assert sys.version_info[:2] == (3, 11), 'the mirrors are CPython 3.11 programs'
root = Path(sys.argv[1])
bad = 0
mirrors = sorted((root / 'tests' / 'tools' / 'python_checks').glob('*.py'))
for py in mirrors:
    out = root / 'tests' / 'golden' / 'lang' / (py.stem + '.out')
    got = subprocess.run([sys.executable, str(py)], capture_output=True, text=True, check=True).stdout
    want = out.read_text()
    if got != want:
        bad += 1
        print(f'{out} is not what {py.name} prints:')
        sys.stdout.writelines(difflib.unified_diff(want.splitlines(True), got.splitlines(True), str(out), py.name))
print(f'{len(mirrors) - bad} of {len(mirrors)} expected outputs are CPython\'s')
sys.exit(1 if bad else 0)
