"""tlfmt.py — prints numpy values the way tl prints them, so each check script mirrors its .tl file.

tl's print of a tensor is numpy 1.24's str() with booleans as true/false; a 0-d value prints like
numpy's scalar str(); an echoed expression statement appends ", dtype=NAME" unless the dtype is
i64, f64, c128 or bool. Use p(...) where the .tl file calls print(...), and show(x) where it echoes x.
"""
import numpy as np

TL_NAMES = {
    np.dtype(np.bool_): "bool", np.dtype(np.uint8): "u8", np.dtype(np.uint16): "u16",
    np.dtype(np.uint32): "u32", np.dtype(np.uint64): "u64", np.dtype(np.int8): "i8",
    np.dtype(np.int16): "i16", np.dtype(np.int32): "i32", np.dtype(np.int64): "i64",
    np.dtype(np.float16): "f16", np.dtype(np.float32): "f32", np.dtype(np.float64): "f64",
    np.dtype(np.complex64): "c64", np.dtype(np.complex128): "c128",
}
DEFAULT = {"i64", "f64", "c128", "bool"}


def tl_name(dt):
    return TL_NAMES[np.dtype(dt)]


def fmt(x):
    """The print form of a value."""
    if x is None:
        return "none"
    if isinstance(x, str):
        return x
    if isinstance(x, (bool, np.bool_)):
        return "true" if x else "false"
    if isinstance(x, tuple):   # items as Python's str() of a tuple writes them: strings as their repr
        inner = ", ".join(repr(i) if isinstance(i, str) else fmt(i) for i in x)
        return "(" + inner + ("," if len(x) == 1 else "") + ")"
    if isinstance(x, int):
        return str(x)
    if isinstance(x, float):
        return str(np.float64(x))
    if isinstance(x, complex):
        return str(np.complex128(x))
    if isinstance(x, np.ndarray) and x.ndim == 0:
        return fmt(x[()])
    if isinstance(x, np.ndarray):
        return str(x).replace("True", "true").replace("False", "false")
    if isinstance(x, np.generic):
        return str(x)
    raise TypeError(type(x))


def echo(x):
    """The echo form: print form, plus ", dtype=NAME" for non-default dtypes."""
    s = fmt(x)
    if isinstance(x, (np.ndarray, np.generic)) and not isinstance(x, np.bool_):
        name = tl_name(x.dtype)
        if name not in DEFAULT:
            s += ", dtype=" + name
    return s


def show(x):
    print(echo(x))


def p(*xs):
    print(" ".join(fmt(x) for x in xs))


def dtype(x):
    return tl_name(np.asarray(x).dtype)


def strides(a):
    return tuple(s // a.itemsize for s in a.strides)
