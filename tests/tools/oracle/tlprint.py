"""tlprint.py — p(*values): print as tl's print() writes the same values, for the oracle programs.

The programs in this folder are the Python 3.11 twins of tests/golden/oracle/*.tl; their output
is those tests' expected output (tests/tools/oracle_check.py checks that it still is). tl writes
true/false/none where Python writes True/False/None, and numpy arrays as numpy's str(); the rest
(numbers, strings at the top level, lists and tuples of them) reads the same in both. A string
inside a printed list or tuple is refused here: tl's quoting of such strings is not Python's yet.
"""
import numpy as np


def _fmt(v, top):
    if v is True or v is False:
        return "true" if v else "false"
    if v is None:
        return "none"
    if isinstance(v, str):
        if not top:
            raise TypeError("a string inside a printed container: print its items instead")
        return v
    if isinstance(v, np.ndarray):
        if v.dtype == bool:
            raise TypeError("a bool array: tl writes true/false")
        return str(v)
    if isinstance(v, (np.integer, np.floating)):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, list):
        return "[" + ", ".join(_fmt(x, False) for x in v) + "]"
    if isinstance(v, tuple):
        inner = ", ".join(_fmt(x, False) for x in v)
        return "(" + inner + ("," if len(v) == 1 else "") + ")"
    raise TypeError(f"no tl form for {type(v).__name__}")


def p(*values):
    print(" ".join(_fmt(v, True) for v in values))
