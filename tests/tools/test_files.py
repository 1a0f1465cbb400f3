#!/usr/bin/python3
"""test_files.py — end-to-end tests of load/save/meta against numpy and a malformed-file corpus.

Usage: test_files.py TL_EXE WORKDIR

Runs make_test_files.py into WORKDIR, then checks that
  * tl reads every good file exactly as numpy (or the reference dequantizer) says,
  * tl refuses every bad file with an error naming the file and the problem
    (exit status 1, never a crash or a sanitizer report),
  * randomly damaged files are refused or read, never crash tl,
  * files tl writes are read back by numpy bit for bit (npy bytes equal numpy's own),
  * save is atomic (an interrupted save leaves the old file), loads are lazy and private.
Prints one line per failure and a summary; exits 1 on any failure.
"""
import hashlib
import io
import json
import os
import random
import resource
import shutil
import signal
import stat
import subprocess
import sys
import warnings
import zipfile

import numpy as np

TL = os.path.abspath(sys.argv[1])
WORK = os.path.abspath(sys.argv[2])
HERE = os.path.dirname(os.path.abspath(__file__))
FILES = os.path.join(WORK, "files")
GOOD, EXPECT, BAD = (os.path.join(FILES, d) for d in ("good", "expect", "bad"))
OUT = os.path.join(WORK, "out")
failures, passed = [], 0


def check(cond, what):
    global passed
    if cond:
        passed += 1
    else:
        failures.append(what)
        print("FAIL:", what)


def run_tl(code, limit_fsize=None, timeout=60):
    """Runs tl -e CODE in OUT; returns (status, stdout, stderr, peak RSS in KiB)."""
    def pre():
        if limit_fsize is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_fsize, limit_fsize))
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    p = subprocess.run([TL, "-e", code], cwd=OUT, capture_output=True, text=True, timeout=timeout,
                       preexec_fn=pre, errors="replace")
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return p.returncode, p.stdout, p.stderr, rss if rss > before else None


def sane(rc, err, what):
    """No signal, no sanitizer report."""
    check(rc >= 0, "%s: tl died with signal %d" % (what, -rc))
    check("Sanitizer" not in err and "runtime error:" not in err, "%s: sanitizer report:\n%s" % (what, err[-2000:]))


def q(path):
    return '"%s"' % path


def same_array(got, want):
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    return np.ascontiguousarray(got).tobytes() == np.ascontiguousarray(want).tobytes()


def load_npy(path):
    return np.load(path, allow_pickle=False)


# ---------------------------------------------------------------- reading

def readback_cases():
    """(tl expression, expected .npy name) pairs: tl saves each expression for numpy to compare."""
    cases = []
    for f in sorted(os.listdir(GOOD)):
        stem, ext = os.path.splitext(f)
        if ext == ".npy" and stem != "bf16":
            name = "big_" + stem[4:] if stem.startswith("big_") else stem
            cases.append(('load("%s")' % os.path.join(GOOD, f), name))
    for z in ("stored", "deflated"):
        for e in sorted(os.listdir(EXPECT)):
            if e.startswith(z + "_"):
                key = e[len(z) + 1:-4]
                cases.append(('load("%s")["%s"]' % (os.path.join(GOOD, z + ".npz"), key), e[:-4]))
    cases.append(('load("%s")["%s"]' % (os.path.join(GOOD, "aligned.npz"), "x" * 30), "aligned"))
    st = os.path.join(GOOD, "model.safetensors")
    for e in sorted(os.listdir(EXPECT)):
        if e.startswith("st_") and not e.startswith("st_bf16") and not e.startswith("st_unaligned"):
            key = "t_" + e[3:-4]
            cases.append(('load("%s")["%s"]' % (st, key), e[:-4]))
    cases.append(('load("%s")["b"]' % os.path.join(GOOD, "unaligned.safetensors"), "st_unaligned_b"))
    gg = os.path.join(GOOD, "model.gguf")
    for e in sorted(os.listdir(EXPECT)):
        if e.startswith("gguf_plain_") and "BF16" not in e:
            cases.append(('load("%s")["plain.%s"]' % (gg, e[11:-4]), e[:-4]))
        elif e.startswith("gguf_q_") or e.startswith("gguf_r_"):
            cases.append(('load("%s")["%s.%s"]' % (gg, e[5], e[7:-4]), e[:-4]))
    cases.append(('load("%s")["w"]' % os.path.join(GOOD, "example.gguf"), "gguf_example"))
    cases.append(('load("%s")["a"]' % os.path.join(GOOD, "align64.gguf"), "gguf_align64_a"))
    cases.append(('load("%s")["a"]' % os.path.join(GOOD, "v2.gguf"), "gguf_align64_a"))
    cases.append(('load("%s")' % os.path.join(GOOD, "table.csv"), "table_csv"))
    cases.append(('load("%s")' % os.path.join(GOOD, "table.txt"), "table_txt"))
    cases.append(('load("%s")' % os.path.join(GOOD, "messy.csv"), "messy"))
    return cases


def test_reading():
    cases = readback_cases()
    lines = ['save("rb_%d.npy", %s)' % (i, expr) for i, (expr, _) in enumerate(cases)]
    # bf16 has no numpy dtype: compare its bits (tl writes bf16 as '<V2')
    lines.append('save("rb_bf16.npy", bitcast(load("%s"), "u16"))' % os.path.join(GOOD, "bf16.npy"))
    lines.append('save("rb_st_bf16.npy", bitcast(load("%s")["t_bf16"], "u16"))' % os.path.join(GOOD, "model.safetensors"))
    lines.append('save("rb_gguf_bf16.npy", bitcast(load("%s")["plain.BF16"], "u16"))' % os.path.join(GOOD, "model.gguf"))
    rc, out, err, _ = run_tl("\n".join(lines))
    sane(rc, err, "reading good files")
    check(rc == 0, "reading good files failed: %s" % err.strip()[-500:])
    if rc != 0:
        return
    for i, (expr, name) in enumerate(cases):
        got = load_npy(os.path.join(OUT, "rb_%d.npy" % i))
        want = load_npy(os.path.join(EXPECT, name + ".npy"))
        check(same_array(got, want), "%s != expect/%s.npy (got %s %s)" % (expr, name, got.dtype, got.shape))
    for f, name in (("rb_bf16.npy", "bf16_bits"), ("rb_st_bf16.npy", "st_bf16_bits"), ("rb_gguf_bf16.npy", "gguf_plain_BF16_bits")):
        check(same_array(load_npy(os.path.join(OUT, f)), load_npy(os.path.join(EXPECT, name + ".npy"))), "bf16 bits of " + name)
    # quantized types: the reference dequantization is close to what was quantized
    for e in sorted(os.listdir(EXPECT)):
        if e.startswith("gguf_orig_"):
            kind = e[10:-4]
            x, y = load_npy(os.path.join(EXPECT, e)), load_npy(os.path.join(EXPECT, "gguf_q_%s.npy" % kind))
            tol = {"Q8_0": 0.02, "Q8_K": 0.02, "Q6_K": 0.1, "Q5_0": 0.2, "Q5_1": 0.2, "Q5_K": 0.2}.get(kind, 0.9)
            check(np.abs(x - y).max() < tol * np.abs(x).max(), "%s quantization error too large" % kind)


def test_views_and_meta():
    f = os.path.join(GOOD, "fortran.npy")
    rc, out, err, _ = run_tl('a = load("%s"); print(strides(a)); print(shape(a))' % f)
    check(rc == 0 and out.split("\n")[:2] == ["(1, 3, 12)", "(3, 4, 5)"], "fortran order loads as a transposed view: %r" % out)
    rc, out, err, _ = run_tl('info(load("%s"))' % os.path.join(GOOD, "dtype_f4.npy"))
    check(rc == 0 and "mapped" in out and "dtype_f4.npy" in out, "aligned npy data is mapped: %r" % out)
    rc, out, err, _ = run_tl('info(load("%s")["b"])' % os.path.join(GOOD, "unaligned.safetensors"))
    check(rc == 0 and "mapped" not in out, "unaligned safetensors data is copied: %r" % out)
    rc, out, err, _ = run_tl('info(load("%s")["%s"])' % (os.path.join(GOOD, "aligned.npz"), "x" * 30))
    check(rc == 0 and "mapped" in out, "an aligned stored npz member is mapped: %r" % out)
    rc, out, err, _ = run_tl('print(load("%s"))' % os.path.join(GOOD, "example.gguf"))
    check(rc == 0 and out == "w: f32 (2, 3)\n", "printing a loaded dict: %r" % out)
    gg = os.path.join(GOOD, "model.gguf")
    code = 'm = meta(load("%s"))\n' % gg + "\n".join('print(m["%s"])' % k for k in (
        "general.name", "t.u8", "t.i8", "t.u16", "t.i16", "t.u32", "t.i32", "t.f32", "t.bool", "t.u64", "t.i64",
        "t.f64", "t.tokens", "t.scores", "t.ids", "t.flags", "t.nested")) + '\nprint(dtype(m["t.u32"]), dtype(m["t.scores"]), len(m))'
    rc, out, err, _ = run_tl(code)
    want = ["caf\u00e9 model", "200", "-100", "60000", "-30000", "4000000000", "-2000000000", "0.25", "true",
            "18446744073709551615", "-9223372036854775808", "1e+300", str(("<s>", "</s>", "hello", "")), "[ 0.5  -1.    2.25]",
            "[ 1 -2  3]", "[ true false  true]", "([1 2], [3])", "u32 f32 21"]
    check(rc == 0 and out.split("\n")[:-1] == want, "meta(gguf):\n%s\n%s" % (out, err))
    rc, out2, err, _ = run_tl('m = meta("%s"); print(m["general.name"], len(m))' % gg)
    check(rc == 0 and out2 == "caf\u00e9 model 21\n", "meta(path) reads only the header: %r %r" % (out2, err))
    st = os.path.join(GOOD, "model.safetensors")
    rc, out, err, _ = run_tl('m = meta(load("%s")); print(keys(m)); print(m["note"])' % st)
    check(rc == 0 and out == str(("format", "note")) + '\ncaf\u00e9 "quoted"\n\n', "meta(safetensors): %r %r" % (out, err))
    rc, out, err, _ = run_tl('print(len(meta(load("%s"))), len(meta(load("%s"))))' % (os.path.join(GOOD, "nometa.safetensors"),
                                                                                     os.path.join(GOOD, "stored.npz")))
    check(rc == 0 and out == "0 0\n", "meta of files without metadata is empty: %r %r" % (out, err))
    rc, out, err, _ = run_tl('meta({"a": 1})')
    check(rc == 1 and "meta() takes a dict returned by load()" in err, "meta of a plain dict is an error: %r" % err)
    rc, out, err, _ = run_tl('print(len(load("%s")), len(load("%s")))' % (os.path.join(GOOD, "empty.safetensors"),
                                                                          os.path.join(GOOD, "notensors.gguf")))
    check(rc == 0 and out == "0 0\n", "files without tensors load as empty dicts: %r %r" % (out, err))
    rc, out, err, _ = run_tl('d = load("%s"); print(keys(d))' % os.path.join(GOOD, "positional.npz"))
    check(rc == 0 and out == str(("arr_0", "arr_1")) + "\n", "npz keys drop .npy: %r" % out)


def test_lazy_and_private():
    big = os.path.join(GOOD, "big_q8.gguf")
    rc, out, err, rss_slice = run_tl('g = load("%s"); print(g["w"][5, 0:4])' % big)
    check(rc == 0 and out == "[-8.  -7.5 -7.  -6.5]\n", "dequantize a slice: %r %r" % (out, err))
    rc, out, err, rss_all = run_tl('g = load("%s"); print(sum(g["w"])); print(g["w"][4095, -2:])' % big)
    check(rc == 0 and out == "-4194304.0\n[7.  7.5]\n", "dequantize all: %r %r" % (out, err))
    if rss_slice and rss_all:
        check(rss_all - rss_slice > 40 * 1024, "touching a slice must not dequantize the whole tensor "
              "(peak RSS %d KiB for a slice, %d KiB for all)" % (rss_slice, rss_all))
    rc, out, err, _ = run_tl('g = load("%s"); w = g["w"]; w[0, 0] = 100; print(w[0, 0:2], sum(w))' % big)
    check(rc == 0 and out == "[100.   -7.5] -4194196.0\n", "writing into a lazily dequantized tensor: %r %r" % (out, err))
    os.environ["TL_GGUF_EAGER"] = "1"
    rc, out, err, _ = run_tl('g = load("%s"); print(g["q.Q4_K"][1, 2:4] == load("%s")[1, 2:4])' % (
        os.path.join(GOOD, "model.gguf"), os.path.join(EXPECT, "gguf_q_Q4_K.npy")))
    del os.environ["TL_GGUF_EAGER"]
    check(rc == 0 and out == "[ true  true]\n", "eager dequantization (TL_GGUF_EAGER=1): %r %r" % (out, err))
    # writes to a loaded tensor stay in memory: the file is untouched (MAP_PRIVATE)
    path = os.path.join(OUT, "private.npy")
    np.save(path, np.arange(1024, dtype=np.float64))
    digest = hashlib.sha256(open(path, "rb").read()).hexdigest()
    rc, out, err, _ = run_tl('a = load("private.npy"); a[0] = 99; a[1023] = -1; print(a[0], a[1023], load("private.npy")[0])')
    check(rc == 0 and out == "99.0 -1.0 0.0\n", "writes to a loaded tensor: %r %r" % (out, err))
    check(hashlib.sha256(open(path, "rb").read()).hexdigest() == digest, "writes must never reach the file")
    rc, out, err, _ = run_tl('a = load("private.npy"); save("private.npy", a * 2); print(a[3], load("private.npy")[3])')
    check(rc == 0 and out == "3.0 6.0\n", "saving over a loaded file keeps the loaded tensor: %r %r" % (out, err))


# ---------------------------------------------------------------- refusing bad files

def test_bad_corpus():
    cases = json.load(open(os.path.join(BAD, "bad.json")))
    for name, phrase in sorted(cases.items()):
        rc, out, err, _ = run_tl('x = load("%s")' % os.path.join(BAD, name))
        sane(rc, err, name)
        check(rc == 1 and name in err and phrase in err, "%s: expected an error with %r, got status %d: %s" % (
            name, phrase, rc, err.strip()[:400]))
    rc, out, err, _ = run_tl('x = load("no/such/file.npy")')
    check(rc == 1 and "no/such/file.npy: cannot open: No such file or directory" in err, "missing file: %r" % err)
    rc, out, err, _ = run_tl('x = load("%s")' % GOOD)
    check(rc == 1 and "is a folder" in err, "loading a folder: %r" % err)
    rc, out, err, _ = run_tl('x = load("%s")' % os.path.join(HERE, "make_test_files.py"))
    check(rc == 1 and "unknown file type" in err, "unknown file type: %r" % err)


def test_format_by_magic():
    """A path with another extension loads by the magic its bytes start with (npy, npz, gguf, as
    docs/files.md says), an extension matches in any case, and a safetensors file, which has no
    magic, needs its extension."""
    for src, name in (("fortran.npy", "npy_magic.bin"), ("deflated.npz", "npz_magic.dat"),
                      ("example.gguf", "gguf_magic.model"), ("fortran.npy", "UPPER.NPY")):
        shutil.copy(os.path.join(GOOD, src), os.path.join(OUT, name))
        rc, want, err, _ = run_tl('print(load("%s")); print(meta("%s"))' % ((os.path.join(GOOD, src),) * 2))
        check(rc == 0 and want, "%s loads: %r" % (src, err))
        rc, out, err, _ = run_tl('print(load("%s")); print(meta("%s"))' % (name, name))
        check(rc == 0 and out == want, "%s (%s by its magic) loads as the original: %r" % (name, src, err or out))
    with open(os.path.join(OUT, "empty_zip.dat"), "wb") as f:   # np.savez with no arrays
        f.write(b"PK\x05\x06" + bytes(18))
    rc, out, err, _ = run_tl('print(len(load("empty_zip.dat")))')
    check(rc == 0 and out == "0\n", "an empty zip is an empty .npz by its magic: %r" % (err or out))
    shutil.copy(os.path.join(GOOD, "model.safetensors"), os.path.join(OUT, "st_magic.bin"))
    rc, out, err, _ = run_tl('load("st_magic.bin")')
    check(rc == 1 and "st_magic.bin: unknown file type (expected .npy, .npz, .safetensors, .gguf, .csv or .txt)" in err,
          "a safetensors file needs its extension: %r" % err)


def mutations(data, rng):
    """Deterministic damage: truncation, flipped header bytes, runs of 0xFF or 0x00."""
    out = []
    for _ in range(6):
        out.append(data[: rng.randrange(len(data))])
    for _ in range(10):
        d = bytearray(data)
        for _ in range(rng.randrange(1, 4)):
            i = rng.randrange(min(len(d), 512))
            d[i] ^= 1 << rng.randrange(8)
        out.append(bytes(d))
    for fill in (b"\xff" * 8, b"\x00" * 8, b"\x7f" * 8):
        d = bytearray(data)
        i = rng.randrange(min(len(d), 400))
        d[i:i + 8] = fill
        out.append(bytes(d))
    return out


def test_damaged():
    rng = random.Random(1234)
    sources = ["dtype_f8.npy", "fortran.npy", "stored.npz", "deflated.npz", "model.safetensors", "example.gguf",
               "align64.gguf", "messy.csv"]
    n = 0
    for src in sources:
        data = open(os.path.join(GOOD, src), "rb").read()
        for k, m in enumerate(mutations(data, rng)):
            path = os.path.join(OUT, "damaged_%s_%d%s" % (os.path.splitext(src)[0], k, os.path.splitext(src)[1]))
            open(path, "wb").write(m)
            code = ('x = load("%s")\nif len(shape(x)) >= 0 and size(x) > 0 { s = sum(x) }' % path
                    if src.endswith((".npy", ".csv")) else
                    'x = load("%s")\nfor k in keys(x) { v = x[k]; if size(v) > 0 { s = sum(v) } }' % path)
            rc, out, err, _ = run_tl(code)
            sane(rc, err, "damaged " + os.path.basename(path))
            check(rc in (0, 1) and (rc == 0 or os.path.basename(path) in err),
                  "damaged %s: status %d, %s" % (os.path.basename(path), rc, err.strip()[:300]))
            n += 1
    return n


# ---------------------------------------------------------------- writing

def test_writing():
    lines = []
    npys = sorted(f for f in os.listdir(GOOD) if f.startswith("dtype_") or f in ("fortran.npy", "fortran_i2.npy",
                  "scalar.npy", "scalar_i4.npy", "empty.npy", "empty1.npy", "vec.npy"))
    for f in npys:
        lines.append('save("w_%s", load("%s"))' % (f, os.path.join(GOOD, f)))
    f4 = os.path.join(GOOD, "dtype_f4.npy")
    lines += [
        'a = load("%s")' % f4,
        'save("w_T.npy", transpose(a))',
        'save("w_step.npy", a[::2, ::-1])',
        'save("w_col.npy", a[:, 1])',
        'save("w_bf16.npy", load("%s"))' % os.path.join(GOOD, "bf16.npy"),
        'save("w_stored.npz", load("%s"))' % os.path.join(GOOD, "stored.npz"),
        'save("w_deflated.npz", load("%s"), compress=true)' % os.path.join(GOOD, "deflated.npz"),
        'save("w_one.npz", a)',
        's = load("%s")' % os.path.join(GOOD, "model.safetensors"),
        'save("w_model.safetensors", s, meta=meta(s))',
        'save("w_plain.safetensors", {"x": a, "y": a[0]})',
        'save("w_table.csv", load("%s"))' % os.path.join(GOOD, "table.csv"),
        'save("w_table.txt", a)',
        'save("w_ints.csv", load("%s"))' % os.path.join(GOOD, "dtype_i8.npy"),
        'save("w_vec.txt", a[0])',
        'g = load("%s")' % os.path.join(GOOD, "model.gguf"),
        'save("w_gguf.safetensors", {"q": g["q.Q6_K"], "b": g["plain.BF16"]})',
    ]
    rc, out, err, _ = run_tl("\n".join(lines))
    sane(rc, err, "writing")
    check(rc == 0, "writing failed: %s" % err.strip()[-500:])
    if rc != 0:
        return
    for f in npys:   # numpy 1.24's np.save output, byte for byte
        check(open(os.path.join(OUT, "w_" + f), "rb").read() == open(os.path.join(GOOD, f), "rb").read(),
              "tl's %s differs from numpy's bytes" % f)
    a = load_npy(f4)
    t = load_npy(os.path.join(OUT, "w_T.npy"))
    check(same_array(t, a.T) and t.flags.f_contiguous, "a transposed view saves in Fortran order")
    check(same_array(load_npy(os.path.join(OUT, "w_step.npy")), a[::2, ::-1]), "a strided view saves in C order")
    check(same_array(load_npy(os.path.join(OUT, "w_col.npy")), a[:, 1]), "a column saves")
    b = load_npy(os.path.join(OUT, "w_bf16.npy"))
    check(b.dtype.str in ("|V2", "<V2") and same_array(b.view(np.uint16), load_npy(os.path.join(EXPECT, "bf16_bits.npy"))),
          "bf16 saves as '<V2' holding the bits")
    check(open(os.path.join(OUT, "w_bf16.npy"), "rb").read()[10:25] == b"{'descr': '<V2'", "bf16 descr is '<V2'")
    for name, key_src, method in (("w_stored.npz", "stored", zipfile.ZIP_STORED), ("w_deflated.npz", "deflated", zipfile.ZIP_DEFLATED)):
        with zipfile.ZipFile(os.path.join(OUT, name)) as z:
            check(z.testzip() is None, name + " CRCs")
            check(all(i.compress_type == method for i in z.infolist()), name + " compression method")
        with np.load(os.path.join(OUT, name)) as z:
            for k in z.files:
                check(same_array(z[k], load_npy(os.path.join(EXPECT, "%s_%s.npy" % (key_src, k)))), "%s[%s]" % (name, k))
    with np.load(os.path.join(OUT, "w_one.npz")) as z:
        check(z.files == ["arr_0"] and same_array(z["arr_0"], a), "a tensor saved to .npz is arr_0")
    got = open(os.path.join(OUT, "w_model.safetensors"), "rb").read()
    check(got == open(os.path.join(GOOD, "model.safetensors"), "rb").read(), "safetensors bytes equal the reference layout")
    check_safetensors(os.path.join(OUT, "w_plain.safetensors"), {"x": a, "y": a[0]})
    q6 = load_npy(os.path.join(EXPECT, "gguf_q_Q6_K.npy"))
    check_safetensors(os.path.join(OUT, "w_gguf.safetensors"), {"q": q6}, bf16={"b": load_npy(os.path.join(EXPECT, "gguf_plain_BF16_bits.npy"))})
    check(same_array(np.loadtxt(os.path.join(OUT, "w_table.csv"), delimiter=",", ndmin=2),
                     load_npy(os.path.join(EXPECT, "table_csv.npy"))), "csv round trip is exact")
    check(same_array(np.loadtxt(os.path.join(OUT, "w_table.txt"), ndmin=2, dtype=np.float32), a), "txt of f32 round trips")
    check(same_array(np.loadtxt(os.path.join(OUT, "w_ints.csv"), delimiter=",", dtype=np.int64),
                     load_npy(os.path.join(GOOD, "dtype_i8.npy"))), "integers are written exactly")
    check(same_array(np.loadtxt(os.path.join(OUT, "w_vec.txt"), dtype=np.float32), a[0]), "1-d text is one value per line")
    check(same_array(np.loadtxt(os.path.join(OUT, "w_table.txt"), ndmin=2), a.astype(np.float64)),
          "txt of f32 loads back as f64 exactly (the value's digits, not the f32's shortest)")
    # f16 and f32 saved as text load back exactly: f16 0.1 is 0.0999755859375, 65504 is not 65500
    rc, out, err, _ = run_tl('h = f16([[0.1, 65504], [-3.1e-5, 1/3]]); s = f32([0.1, 1e-45, 3.4e38, -1/3])\n'
                             'save("w_f16.csv", h); save("w_f32.txt", s)\n'
                             'print(all(load("w_f16.csv") == f64(h)), all(load("w_f32.txt")[:, 0] == f64(s)))')
    sane(rc, err, "f16/f32 text round trip")
    check(rc == 0 and out == "true true\n", "f16/f32 saved as text load back exactly: %r %r" % (out, err))
    h = np.array([[0.1, 65504], [-3.1e-5, 1 / 3]], np.float16)
    if rc == 0:
        check(same_array(np.loadtxt(os.path.join(OUT, "w_f16.csv"), delimiter=",", ndmin=2), h.astype(np.float64)),
              "numpy reads tl's f16 text as the f16 values")


def check_safetensors(path, want, bf16=None):
    """A reader applying the reference's checks, then comparing values."""
    data = open(path, "rb").read()
    n = int.from_bytes(data[:8], "little")
    check(n % 8 == 0 and (8 + n) % 8 == 0, path + ": header padded to 8")
    hdr = json.loads(data[8:8 + n])
    ents = sorted((v["data_offsets"], k) for k, v in hdr.items() if k != "__metadata__")
    pos = 0
    for (b, e), k in ents:
        check(b == pos and e >= b, path + ": offsets tile the buffer")
        pos = e
    check(8 + n + pos == len(data), path + ": buffer ends the file")
    names = {"F32": np.float32, "F64": np.float64, "BF16": np.uint16}
    for k, arr in list(want.items()) + list((bf16 or {}).items()):
        v = hdr[k]
        b, e = v["data_offsets"]
        got = np.frombuffer(data[8 + n + b: 8 + n + e], dtype=names[v["dtype"]]).reshape(v["shape"])
        check(same_array(got, arr), "%s[%s]" % (path, k))


def test_bool_bytes():
    """Bool bytes other than 0 or 1 in a file read as true (numpy's reading), and the file is untouched."""
    raw = bytes([2, 255, 1, 0, 0, 7, 1, 128])
    arr = np.frombuffer(raw, dtype=np.uint8).view(np.bool_)
    np.save(os.path.join(OUT, "b_bytes.npy"), arr)                        # aligned: mapped
    with zipfile.ZipFile(os.path.join(OUT, "b_bytes.npz"), "w", zipfile.ZIP_DEFLATED) as z:
        with z.open("m.npy", "w") as f:                                   # deflated: copied
            np.lib.format.write_array(f, arr)
    hdr = json.dumps({"m": {"dtype": "BOOL", "shape": [8], "data_offsets": [0, 8]}}).encode()
    hdr += b" " * (-len(hdr) % 8)
    with open(os.path.join(OUT, "b_bytes.safetensors"), "wb") as f:
        f.write(len(hdr).to_bytes(8, "little") + hdr + raw)
    want = "%d %s %s" % (np.count_nonzero(arr), np.array2string(arr == True).lower(), np.array2string(~arr).lower())
    digests = {f: hashlib.sha256(open(os.path.join(OUT, f), "rb").read()).hexdigest()
               for f in ("b_bytes.npy", "b_bytes.npz", "b_bytes.safetensors")}
    for f, get in (("b_bytes.npy", ""), ("b_bytes.npz", '["m"]'), ("b_bytes.safetensors", '["m"]')):
        rc, out, err, _ = run_tl('b = load("%s")%s; print(sum(b), b == true, ~b); b[0] = false; print(sum(b & true))' % (f, get))
        sane(rc, err, f)
        check(rc == 0 and out == want + "\n%d\n" % (np.count_nonzero(arr) - 1), "%s: bool bytes 2..255 read as true: %r %r" % (f, out, err))
        check(hashlib.sha256(open(os.path.join(OUT, f), "rb").read()).hexdigest() == digests[f], f + ": loading never writes the file")


def test_save_errors_and_atomicity():
    for code, phrase in (
        ('save("x.npy", {"a": 1})', "use .npz, .safetensors or .gguf"),
        ('save("x.csv", [[1j]])', "complex"),
        ('save("x.txt", zeros(2, 2, 2))', "1-d or 2-d"),
        ('save("x.gguf", {"a": zeros(2, dtype=u16)})', "u16"),
        ('save("x.gguf", {"a": zeros(2)}, meta={"k": {"n": 1}})', "cannot be written"),
        ('save("x.bin", zeros(2))', "cannot tell the format"),
        ('save("x.safetensors", {"a": zeros(2, dtype=c128)})', "no such dtype"),
        ('save("x.safetensors", {"a": "text"})', "not a tensor"),
        ('save("x.safetensors", {"a": zeros(2)}, meta={"k": 1})', "must be a string"),
        ('save("x.npz", {"a": zeros(2)}, meta={"k": "v"})', "meta= applies"),
        ('save("no/such/dir/x.npy", zeros(2))', "cannot create a file in its folder"),
    ):
        rc, out, err, _ = run_tl(code)
        sane(rc, err, code)
        check(rc == 1 and phrase in err, "%s: expected %r, got %r" % (code, phrase, err.strip()))
    leftovers = [f for f in os.listdir(OUT) if f.startswith(".") and ".tmp-" in f]
    # replacing a file keeps its mode, leaves no temporary behind, and follows symlinks
    target = os.path.join(OUT, "mode.npy")
    np.save(target, np.zeros(3))
    os.chmod(target, 0o640)
    os.symlink("mode.npy", os.path.join(OUT, "link.npy"))
    rc, out, err, _ = run_tl('save("mode.npy", ones(4)); save("link.npy", ones(5))')
    check(rc == 0 and stat.S_IMODE(os.stat(target).st_mode) == 0o640, "save keeps the replaced file's mode")
    check(os.path.islink(os.path.join(OUT, "link.npy")) and load_npy(target).shape == (5,), "save through a symlink")
    # an interrupted save (the file size limit stops the write) leaves the old file whole
    keep = os.path.join(OUT, "keep.npy")
    np.save(keep, np.arange(10.0))
    digest = hashlib.sha256(open(keep, "rb").read()).hexdigest()
    rc, out, err, _ = run_tl('save("keep.npy", ones(1000, 1000))', limit_fsize=1 << 20)
    sane(rc, err, "interrupted save")
    check(rc == 1 and "keep.npy: cannot write" in err, "an interrupted save is an error: %r" % err)
    check(hashlib.sha256(open(keep, "rb").read()).hexdigest() == digest, "an interrupted save leaves the old file")
    left = [f for f in os.listdir(OUT) if f.startswith(".") and ".tmp-" in f]
    check(left == leftovers == [], "no temporary files left behind: %r" % left)


def test_npz_key_with_nul():
    # a dict key holding a NUL byte went into the zip member name as is: tl's own load then
    # refused the file, and numpy read two such members as one name (an array lost)
    prog = os.path.join(OUT, "nul_key.tl")
    with open(prog, "wb") as f:   # a NUL byte inside a string literal is part of the string
        f.write(b'save("nul_key.npz", {"a\x00b": ones(2), "a": ones(3)})\n')
    p = subprocess.run([TL, prog], cwd=OUT, capture_output=True, text=True, errors="replace")
    sane(p.returncode, p.stderr, "npz key with a NUL byte")
    check(p.returncode == 1 and "NUL" in p.stderr and not os.path.exists(os.path.join(OUT, "nul_key.npz")),
          "save refuses a dict key holding a NUL byte: %r" % p.stderr.strip())


def test_text_files():
    """read_text/write_text: text round trips as bytes, universal newlines on read, atomic writes."""
    raw = "caf\u00e9 \u2615\r\nline two\rthree\n".encode() + b"\xff\xc3!"
    with open(os.path.join(OUT, "in.txt"), "wb") as f:
        f.write(raw)
    rc, out, err, _ = run_tl('s = read_text("in.txt"); print(len(s), len(s.splitlines()), ord(s[-2])); write_text("out.txt", s)')
    sane(rc, err, "read_text")
    want = raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    check(rc == 0 and out == "%d 4 %d\n" % (len(want.decode("utf-8", "surrogateescape")), 0xDCC3), "read_text counts characters: %r %r" % (out, err))
    check(open(os.path.join(OUT, "out.txt"), "rb").read() == want, "write_text writes the string's bytes (\\r\\n read as \\n)")
    rc, out, err, _ = run_tl('write_text("empty.txt", ""); print(len(read_text("empty.txt")))')
    check(rc == 0 and out == "0\n" and os.path.getsize(os.path.join(OUT, "empty.txt")) == 0, "an empty text file: %r %r" % (out, err))
    keep = os.path.join(OUT, "keep.txt")
    with open(keep, "w") as f:
        f.write("old text\n")
    os.chmod(keep, 0o600)
    rc, out, err, _ = run_tl('write_text("keep.txt", "x" * 3000000)', limit_fsize=1 << 20)
    sane(rc, err, "interrupted write_text")
    check(rc == 1 and "keep.txt: cannot write" in err and open(keep).read() == "old text\n",
          "an interrupted write_text leaves the old file whole: %r" % err)
    rc, out, err, _ = run_tl('write_text("keep.txt", "new"); print(read_text("keep.txt"))')
    check(rc == 0 and out == "new\n" and stat.S_IMODE(os.stat(keep).st_mode) == 0o600, "write_text replaces a file, keeping its mode")
    for code, phrase in (('read_text("no/such.txt")', "no/such.txt: cannot open: No such file or directory"),
                         ('read_text(".")', "is a folder"), ('write_text("no/dir/x.txt", "a")', "cannot create a file in its folder"),
                         ('write_text("x.txt", 5)', "s must be a string, not a number")):
        rc, out, err, _ = run_tl(code)
        sane(rc, err, code)
        check(rc == 1 and phrase in err, "%s: expected %r, got %r" % (code, phrase, err.strip()))
    left = [f for f in os.listdir(OUT) if f.startswith(".") and ".tmp-" in f]
    check(left == [], "no temporary files left behind by write_text: %r" % left)


def through_fifo(fifo, code):
    """Runs tl -e CODE, which writes to the FIFO fifo; returns (status, stderr, the bytes read).
    The reader never blocks: tl's open for writing finds it, a small file fits in the pipe's
    buffer, and a tl that replaces the FIFO leaves it empty rather than hanging."""
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    rc, out, err, _ = run_tl(code, timeout=20)
    got = b""
    try:
        while chunk := os.read(reader, 65536):
            got += chunk
    except BlockingIOError:
        pass
    os.close(reader)
    return rc, err, got


def test_save_to_special_files():
    # atomic replace is for regular files: a save through a symlink to a FIFO or a device node
    # wrote a temporary file beside it and renamed it over it, so the FIFO or device (as root,
    # /dev/null itself) became a regular file. Special files are written in place.
    want = io.BytesIO()
    np.save(want, np.arange(5.0))
    fifo = os.path.join(OUT, "pipe")
    os.mkfifo(fifo)
    os.symlink("pipe", os.path.join(OUT, "to_pipe.npy"))
    rc, err, got = through_fifo(fifo, 'save("to_pipe.npy", arange(5.0))')
    sane(rc, err, "save to a FIFO")
    check(rc == 0 and stat.S_ISFIFO(os.stat(fifo).st_mode) and os.path.islink(os.path.join(OUT, "to_pipe.npy")),
          "save through a symlink to a FIFO keeps the FIFO and the link: %r" % err)
    check(got == want.getvalue(), "the FIFO's reader gets np.save's bytes: %r" % got[:64])
    # a FIFO cannot seek back to patch an npz member's sizes: they follow its data instead
    os.symlink("pipe", os.path.join(OUT, "to_pipe.npz"))
    for code in ('save("to_pipe.npz", {"a": arange(5.0), "b": ones(2, 3, dtype=i32)})',
                 'save("to_pipe.npz", {"a": arange(5.0), "b": ones(2, 3, dtype=i32)}, compress=true)'):
        rc, err, got = through_fifo(fifo, code)
        sane(rc, err, code)
        try:
            z = np.load(io.BytesIO(got))
            ok = z["a"].tolist() == list(range(5)) and z["b"].dtype == np.int32 and z["b"].tolist() == [[1] * 3] * 2
        except Exception as e:
            ok = False
            err += repr(e)
        check(rc == 0 and ok and stat.S_ISFIFO(os.stat(fifo).st_mode), "%s: numpy reads what the FIFO got: %r" % (code, err))
    rc, err, got = through_fifo(fifo, 'write_text("pipe", "caf\u00e9\n")')
    check(rc == 0 and got == "caf\u00e9\n".encode() and stat.S_ISFIFO(os.stat(fifo).st_mode), "write_text to a FIFO: %r %r" % (got, err))
    # a dangling symlink, and a chain of two: the file the last names is made, the links stay
    os.symlink("made.npy", os.path.join(OUT, "dangling.npy"))
    os.symlink("dangling.npy", os.path.join(OUT, "chain.npy"))
    for name in ("dangling.npy", "chain.npy"):
        rc, out, err, _ = run_tl('save("%s", arange(5.0))' % name)
        check(rc == 0 and os.path.islink(os.path.join(OUT, "dangling.npy")) and os.path.islink(os.path.join(OUT, "chain.npy")) and
              load_npy(os.path.join(OUT, "made.npy")).tolist() == list(range(5)), "save through %s: %r" % (name, err))
        if os.path.lexists(os.path.join(OUT, "made.npy")):
            os.unlink(os.path.join(OUT, "made.npy"))
    os.symlink("loop_b.npy", os.path.join(OUT, "loop_a.npy"))
    os.symlink("loop_a.npy", os.path.join(OUT, "loop_b.npy"))
    rc, out, err, _ = run_tl('save("loop_a.npy", arange(5.0))')
    sane(rc, err, "save through a symlink loop")
    check(rc == 1 and "loop_a.npy: cannot open: Too many levels of symbolic links" in err and
          os.path.islink(os.path.join(OUT, "loop_a.npy")), "save through a symlink loop: %r" % err)
    # device nodes (root, and a file system that allows them): /dev/null takes anything, /dev/full
    # refuses with ENOSPC; either stays a device
    for name, minor, code, ok in (("null", 3, 'save("to_null.npz", {"a": ones(100)})', True),
                                  ("full", 7, 'save("to_full.npy", ones(100))', False)):
        dev = os.path.join(OUT, name + "_dev")
        try:
            os.mknod(dev, stat.S_IFCHR | 0o666, os.makedev(1, minor))
            open(dev, "wb").close()
        except OSError:
            print("skipped: cannot make and open a device node here")
            break
        os.symlink(name + "_dev", os.path.join(OUT, "to_%s.%s" % (name, "npz" if ok else "npy")))
        rc, out, err, _ = run_tl(code)
        sane(rc, err, code)
        check(stat.S_ISCHR(os.stat(dev).st_mode), "%s: the device node stays one" % code)
        check(rc == (0 if ok else 1) and (ok or "No space left" in err), "%s: %r" % (code, err.strip()))
    left = [f for f in os.listdir(OUT) if f.startswith(".") and ".tmp-" in f]
    check(left == [], "no temporary files left behind: %r" % left)


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(OUT)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        subprocess.run([sys.executable, "-W", "ignore", os.path.join(HERE, "make_test_files.py"), FILES], check=True)
    test_reading()
    test_views_and_meta()
    test_lazy_and_private()
    test_bad_corpus()
    test_format_by_magic()
    n = test_damaged()
    test_writing()
    test_bool_bytes()
    test_save_errors_and_atomicity()
    test_npz_key_with_nul()
    test_text_files()
    test_save_to_special_files()
    print("%d passed, %d failed (%d damaged files tried)" % (passed, len(failures), n))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
