#!/usr/bin/python3
"""gen_view_cases.py — prints the slice-clamping table used by tests/unit/test_view.c.

Each row is {n, has_start, start, has_stop, stop, step, length, first}, where
length and first come from numpy: np.arange(n)[start:stop:step]."""
import numpy as np

bounds = [None, -7, -1, 0, 2, 5, 7]
rows = []
for n in (0, 5):
    for start in bounds:
        for stop in bounds:
            for step in (-2, -1, 1, 3):
                got = np.arange(n)[slice(start, stop, step)]
                first = int(got[0]) if len(got) else -1
                rows.append("{%d,%d,%d,%d,%d,%d,%d,%d}" % (
                    n, start is not None, start or 0, stop is not None, stop or 0, step, len(got), first))
for i in range(0, len(rows), 6):
    print("    " + ", ".join(rows[i:i + 6]) + ",")
