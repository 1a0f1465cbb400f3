#!/usr/bin/env python3
"""test_mistakes.py — common mistakes from Python and numpy habits, each answered with a
message that names the fix (SPEC section 14 asks for 40 at least). Each row is a program, and a piece
of text its error must hold: the fix, not just the fault. The shell's own mistakes (an unknown
:command, x' at the prompt) are checked in tests/pty/pty_shell.py.

usage: test_mistakes.py path/to/tl [--list]   (--list prints each mistake with its message)
"""
import os
import subprocess
import sys
import tempfile

MISTAKES = [
    # typos of builtins, locals, globals, keywords, methods, keys and dtypes
    ("a builtin misspelt", "x = sofmax([1.0, 2.0])", "did you mean 'softmax'?"),
    ("another builtin misspelt", "m = mena([1.0, 2.0])", "did you mean 'mean'?"),
    ("argmax misspelt", "i = argmx([1, 3, 2])", "did you mean 'argmax'?"),
    ("linspace as it sounds", "t = linespace(0, 1, 5)", "did you mean 'linspace'?"),
    ("a parameter misspelt", "fn f(alpha) { return alpah * 2 }\nf(1)", "did you mean 'alpha'?"),
    ("a global misspelt", "weights = [1.0, 2.0]\nprint(weigths)", "did you mean 'weights'?"),
    ("a keyword argument misspelt", "sum([[1, 2]], axs=0)", "did you mean 'axis'?"),
    ("PyTorch's dim=", "sum([[1, 2]], dim=0)", "calls it 'axis'"),
    ("PyTorch's keepdim=", "sum([[1, 2]], axis=0, keepdim=true)", "calls it 'keepdims'"),
    ("a function's keyword misspelt", "fn f(alpha=1) = alpha\nf(alhpa=2)", "did you mean 'alpha'?"),
    ("a method misspelt", "x = zeros(6)\ny = x.reshpe(2, 3)", "did you mean 'reshape'?"),
    ("an attribute misspelt", "x = zeros(6)\nprint(x.shpe)", "did you mean 'shape'?"),
    ("a dict key misspelt", 'cfg = {"steps": 10, "lr": 0.1}\nn = cfg["step"]', 'did you mean "steps"?'),
    ("a dtype name misspelt", 'x = zeros(3, dtype="flaot32")', 'did you mean "float32"?'),
    # wrong-shape products and shapes that do not fit
    ("x @ w with w stored (out, in)", "x = zeros(8, 3)\nw = zeros(4, 3)\ny = x @ w",
     "the right operand transposed would fit: (8, 3) @ (3, 4)"),
    ("a matmul whose dims differ", "y = zeros(2, 3) @ zeros(4, 2)", "(2, 3) @ (4, 2): 3 (dim 1 of the left) != 4 (dim 0 of the right)"),
    ("shapes that do not broadcast", "y = zeros(3, 4) + zeros(5)", "axis -1: 4 vs 5 (sizes must be equal, or one of them 1)"),
    ("a reshape to the wrong size", "y = reshape(arange(6), 4, 2)", "shape (6,) (size 6) into shape (4, 2) (size 8)"),
    ("concatenating mismatched rows", "y = concat((zeros(2, 3), zeros(2, 4)))", "(2, 3) (tensor 0) and (2, 4) (tensor 1) along axis 0: dim 1 differs"),
    ("assigning the wrong shape", "x = zeros(2, 4)\nx[:, 1:] = [1, 2]", "cannot assign a value of shape (2,) to a selection of shape (2, 3)"),
    ("growing a tensor in place", "x = zeros(4)\nx += zeros(3, 4)", "in place, a tensor keeps its shape (x = x + y makes a new one)"),
    ("stacking different shapes", "y = stack((zeros(2, 3), zeros(2, 2)))", "cannot stack (2, 3) (tensor 0) and (2, 2) (tensor 1)"),
    # Python's spellings
    ("None", "x = None", "tl writes none"),
    ("True", "flag = True", "tl writes true"),
    ("False", "flag = False", "tl writes false"),
    ("def", "def f(x):\n    return x * 2", "tl defines a function with fn"),
    ("lambda", "f = lambda x: x * 2", "fn(x) = x * 2"),
    ("elif", "x = 1\nif x > 1 { print(1) }\nelif x > 0 { print(0) }", "tl writes else if"),
    ("a colon opening a block", "x = 1\nif x > 0:\n    print(x)", "tl's blocks are in braces"),
    ("a for loop with a colon", "for i in range(3):\n    print(i)", "tl's blocks are in braces"),
    ("is None", "x = 1\nif x is None { print(0) }", "tl compares with == and !="),
    ("raise", 'raise ValueError("bad")', "tl raises with error(msg) or error(kind, msg)"),
    ("with", 'with open("w.txt") as f:\n    s = f.read()', "tl has no with: load(path) and read_text(path)"),
    ("yield", "fn gen() { yield 1 }", "tl has no generators"),
    ("min of two numbers", "m = min(3, 1)", "the smaller of two values is minimum(a, b)"),
    ("set", "s = set([1, 2, 2])", "tl has no sets: unique(x)"),
    ("type()", "t = type(3)", "tl has no type(): help(x) says what x is"),
    ("isinstance", "ok = isinstance(3, int)", "tl has no isinstance(): help(x)"),
    ("int()", "n = int(3.7)", "tl casts with i64(x)"),
    ("float()", "v = float(3)", "tl casts with f64(x)"),
    ("exit()", "exit()", "the shell quits on exit or quit alone on a line"),
    ("appending to a literal of numbers", "xs = [1, 2]\nxs.append(3)", "list([1, 2]) or [] makes a list"),
    # numpy's spellings
    ("import numpy", "import numpy as np", "tl needs no import"),
    ("an np. prefix", "x = np.zeros(3)", "tl needs no np. prefix"),
    ("concatenate", "y = concatenate((zeros(2), zeros(3)))", "tl calls it concat"),
    ("np.newaxis", "x = zeros(3)\ny = x[:, newaxis]", "tl writes a new axis as none"),
    ("MATLAB's transpose x'", "x = zeros(2, 3)\ny = x'", "the transpose is x.T"),
    # brackets never closed
    ("a list never closed", "x = [1, 2, 3\ny = x * 2", "1:5: error[SyntaxError]: '[' was never closed"),
    ("a call never closed", "print(sum([1, 2])", "1:6: error[SyntaxError]: '(' was never closed"),
    ("a bracket closed by the wrong one", "y = max(1, 2]", "closing ']' does not match the '(' on line 1"),
]


def message(tl, work, code):
    """The error a program gives (stderr), from a file so its lines and columns are the file's."""
    path = os.path.join(work, "m.tl")
    with open(path, "w") as f:
        f.write(code + "\n")
    r = subprocess.run([tl, path], capture_output=True, text=True, timeout=60)
    return r.returncode, r.stderr


def main():
    tl = os.path.abspath(sys.argv[1])
    listing = "--list" in sys.argv[2:]
    failed = 0
    with tempfile.TemporaryDirectory(prefix="tl-mistakes-") as work:
        for i, (what, code, fix) in enumerate(MISTAKES, 1):
            status, err = message(tl, work, code)
            ok = status == 1 and fix in err
            headline = err.splitlines()[0] if err else "(no error)"
            if listing:
                print(f"{i:2}. {what}: `{code.replace(chr(10), '; ')}`\n    {headline.replace(work + '/', '')}")
            if not ok:
                failed += 1
                print(f"FAIL {i} {what}: expected the message to hold {fix!r}, got (status {status}):\n{err}")
    n = len(MISTAKES)
    print(f"{n - failed}/{n} mistakes answered with their fix")
    return 1 if failed or n < 40 else 0


if __name__ == "__main__":
    sys.exit(main())
