#!/usr/bin/env python3
"""check_tutorial.py — runs every snippet of docs/tutorial.md and docs/pictures.md: each ```tl block
must print the ```text block after it; and each tl cell of the phrasebook must run (after the prelude the page
states) without an error, error(...) excepted, which must raise. Fails under 60 phrasebook rows.

usage: check_tutorial.py path/to/tl SOURCE_ROOT
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

PRELUDE = ("x = f64(arange(6))\nA = reshape(f64(arange(6)), 2, 3)\nB = ones(3, 2)\n"
           "v = [3.0, 1.0, 2.0]\nM = [[2.0, 1.0], [1.0, 3.0]]\na = true\nb = false\n")


def main():
    tl, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    read = lambda name: open(os.path.join(root, "docs", name), encoding="utf-8").read()
    text = read("tutorial.md")
    work = tempfile.mkdtemp(prefix="tl-tutorial-")
    run = lambda code: subprocess.run([tl, "-e", code], capture_output=True, text=True, timeout=60, cwd=work)
    failed = 0
    blocks = re.findall(r"```tl\n(.*?)```\n(?:```text\n(.*?)```\n)?", text + read("pictures.md"), re.S)
    for code, want in blocks:
        r = run(code)
        if r.returncode != 0 or (want and r.stdout != want):
            failed += 1
            print(f"FAIL snippet:\n{code}shows:\n{want}prints:\n{r.stdout}{r.stderr}")
    table = text.split("<!-- phrasebook:begin -->", 1)[1].split("<!-- phrasebook:end -->", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    for row in rows:
        tl_cell = row.rsplit(" | ", 1)[1].rstrip(" |")
        for code in re.findall(r"`([^`]+)`", tl_cell):
            if "..." in code:
                continue
            r = run(PRELUDE + code)
            raises = code.startswith("error(")
            if (r.returncode != 0) != raises:
                failed += 1
                print(f"FAIL phrasebook {code!r}: {r.stderr}")
    shutil.rmtree(work, ignore_errors=True)
    print(f"{len(blocks)} snippets and {len(rows)} phrasebook rows checked, {failed} failed")
    return 1 if failed or len(rows) < 60 or not blocks else 0


if __name__ == "__main__":
    sys.exit(main())
