"""compare.py — runs each tests/golden/tensors/X.tl with tl and tests/tools/numpy_checks/X.py with numpy,
and reports whether their stdout agrees. Error tests (errors_*.tl) also show both stderrs to compare by eye.

usage: /usr/bin/python3 tests/tools/numpy_checks/compare.py [--tl build/src/tl] [NAME...]
"""
import difflib, os, subprocess, sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(os.path.dirname(here)))
golden = os.path.join(root, "tests", "golden", "tensors")
args = sys.argv[1:]
tl = os.path.join(root, "build", "src", "tl")
if args[:1] == ["--tl"]:
    tl, args = os.path.abspath(args[1]), args[2:]
names = args or sorted(f[:-3] for f in os.listdir(golden) if f.endswith(".tl") and not f.startswith("_"))
bad = 0
for name in names:
    py = os.path.join(here, name + ".py")
    if not os.path.exists(py):
        print(f"MISSING numpy check for {name}")
        bad += 1
        continue
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    t = subprocess.run([tl, name + ".tl"], cwd=golden, capture_output=True, text=True)
    n = subprocess.run(["/usr/bin/python3", py], cwd=here, capture_output=True, text=True, env=env)
    if t.stdout == n.stdout:
        print(f"ok   {name}")
    else:
        bad += 1
        print(f"DIFF {name}")
        sys.stdout.writelines(difflib.unified_diff(n.stdout.splitlines(True), t.stdout.splitlines(True), "numpy", "tl"))
    if name.startswith("errors_") or t.stderr or n.stderr:
        print("  tl    stderr: " + t.stderr.strip().replace("\n", "\n                 "))
        print("  numpy stderr: " + n.stderr.strip().replace("\n", "\n                 "))
print(f"{len(names) - bad} agree, {bad} differ")
sys.exit(1 if bad else 0)
