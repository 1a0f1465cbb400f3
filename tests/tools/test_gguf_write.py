#!/usr/bin/python3
"""test_gguf_write.py — save("m.gguf", d, meta=m) read by a GGUF parser written for this test.

Usage: test_gguf_write.py TL WORKDIR

tl writes plain tensors (f32 f16 bf16 f64 i8 i16 i32 i64, one to four axes), tensors quantize()
made (all ten types) and typed metadata (strings, every integer width, floats, bools, arrays of
numbers and strings, nested arrays). The parser below follows the GGUF v3 specification
(ggml/docs/gguf.md) on its own: magic, version, counts, key/values with their value types, tensor
infos (ggml's dims, types, offsets), general.alignment, the data section at the first aligned
offset after the infos, each tensor at an aligned offset inside it, padding zero. It checks every
tensor's bytes against numpy (plain values; quant_ref.py's blocks for the quantized ones) and every
metadata value and type. Then: tl loads the file and saves it again, byte for byte the same file;
general.alignment = u32(64) is honoured; a failing save leaves the old file and no temporary.
"""
import os
import struct
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import quant_ref  # noqa: E402

# GGUF value types and ggml tensor types, as the specification numbers them.
VT = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d"}
GGML = {0: ("f32", "<f4"), 1: ("f16", "<f2"), 30: ("bf16", "<u2"), 28: ("f64", "<f8"), 24: ("i8", "i1"),
        25: ("i16", "<i2"), 26: ("i32", "<i4"), 27: ("i64", "<i8"), 2: ("q4_0",), 3: ("q4_1",), 6: ("q5_0",),
        7: ("q5_1",), 8: ("q8_0",), 10: ("q2_k",), 11: ("q3_k",), 12: ("q4_k",), 13: ("q5_k",), 14: ("q6_k",)}

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


class Parser:
    def __init__(self, data):
        self.b, self.at = data, 0

    def take(self, fmt):
        v = struct.unpack_from(fmt, self.b, self.at)
        self.at += struct.calcsize(fmt)
        return v[0]

    def string(self):
        n = self.take("<Q")
        s = self.b[self.at: self.at + n]
        assert len(s) == n, "string past the end"
        self.at += n
        return s.decode("utf-8")

    def value(self, t):
        if t == 8:
            return ("str", self.string())
        if t == 9:
            et, n = self.take("<I"), self.take("<Q")
            return ("array", et, [self.value(et) for _ in range(n)])
        return (t, self.take(VT[t]))


def parse(data):
    """The file as (kv dict of key -> typed value, tensors [(name, type, shape, bytes)], alignment)."""
    p = Parser(data)
    assert p.take("<4s") == b"GGUF", "magic"
    assert p.take("<I") == 3, "version"
    ntensors, nkv = p.take("<Q"), p.take("<Q")
    kv = {}
    for _ in range(nkv):
        key = p.string()
        assert key not in kv, "duplicate key " + key
        kv[key] = p.value(p.take("<I"))
    align = kv.get("general.alignment", (4, 32))
    assert align[0] == 4, "general.alignment is a u32"
    align = align[1]
    infos = []
    for _ in range(ntensors):
        name = p.string()
        nd = p.take("<I")
        assert 1 <= nd <= 4, "n_dims"
        ne = [p.take("<Q") for _ in range(nd)]
        infos.append((name, p.take("<I"), tuple(reversed(ne)), p.take("<Q")))
    start = (p.at + align - 1) // align * align
    assert not any(data[p.at:start]), "the padding before the data is zeros"
    tensors, end = [], start
    for name, gt, shape, off in sorted(infos, key=lambda i: i[3]):
        assert off % align == 0 and start + off >= end, "offset %d of %s aligned, after the previous tensor" % (off, name)
        assert not any(data[end:start + off]), "padding between tensors is zeros"
        count = int(np.prod(shape))
        if len(GGML[gt]) == 2:
            nbytes = count * np.dtype(GGML[gt][1]).itemsize
        else:
            bs, bb = quant_ref.TYPES[GGML[gt][0]]
            assert shape[-1] % bs == 0, "whole blocks"
            nbytes = count // bs * bb
        raw = data[start + off: start + off + nbytes]
        assert len(raw) == nbytes, "tensor %s inside the file" % name
        tensors.append((name, gt, shape, raw))
        end = start + off + nbytes
    assert end <= len(data) and not any(data[end:]), "nothing but padding after the last tensor"
    return kv, sorted(tensors, key=lambda t: [i[0] for i in infos].index(t[0])), align


SCRIPT = """
d = load(argv[0] + "/in.npz")
out = {}
for k in keys(d) {
    if k != "x" { out[k] = d[k] }
}
out["bf16"] = bf16(d["f32"])
for t in ("q4_0", "q4_1", "q5_0", "q5_1", "q8_0", "q2_k", "q3_k", "q4_k", "q5_k", "q6_k") {
    out["blk.0." + t] = quantize(d["x"], t)
}
m = {"general.architecture": "llama", "general.name": "h" + chr(233) + "llo", "n": 3, "big": 2**40, "neg": -5,
     "u8": u8(255), "i8": i8(-3), "u16": u16(65535), "i16": i16(-300), "u32": u32(4000000000), "u64": u64(2**63),
     "i64": i64(-2**62), "f": 0.5, "f64": f64(0.1), "yes": true, "no": false, "ints": (1, 2, 3),
     "floats": (1.5, 2.5), "names": ("a", "bc", ""), "nested": ((1, 2), (3, 4, 5)), "u16s": u16([1, 2, 3]),
     "empty": ""}
save(argv[0] + "/a.gguf", out, meta=m)
g = load(argv[0] + "/a.gguf")
save(argv[0] + "/b.gguf", g, meta=meta(g))
m["general.alignment"] = u32(64)
save(argv[0] + "/c.gguf", out, meta=m)
print(g["blk.0.q4_k"].qtype, g["bf16"].dtype, g["blk.0.q8_0"].shape)
"""

META = {"general.architecture": ("str", "llama"), "general.name": ("str", "h\u00e9llo"), "n": (5, 3),
        "big": (11, 2 ** 40), "neg": (5, -5), "u8": (0, 255), "i8": (1, -3), "u16": (2, 65535), "i16": (3, -300),
        "u32": (4, 4000000000), "u64": (10, 2 ** 63), "i64": (11, -2 ** 62), "f": (6, 0.5), "f64": (12, 0.1),
        "yes": (7, True), "no": (7, False), "ints": ("array", 5, [(5, 1), (5, 2), (5, 3)]),
        "floats": ("array", 6, [(6, 1.5), (6, 2.5)]),
        "names": ("array", 8, [("str", "a"), ("str", "bc"), ("str", "")]),
        "nested": ("array", 9, [("array", 5, [(5, 1), (5, 2)]), ("array", 5, [(5, 3), (5, 4), (5, 5)])]),
        "u16s": ("array", 2, [(2, 1), (2, 2), (2, 3)]), "empty": ("str", "")}


def bf16_bits(x):
    u = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def main():
    tl, work = os.path.abspath(sys.argv[1]), sys.argv[2]
    os.makedirs(work, exist_ok=True)
    rng = np.random.default_rng(6)
    arrays = {"f32": rng.standard_normal((3, 5)).astype(np.float32), "f16": rng.standard_normal(7).astype(np.float16),
              "f64": rng.standard_normal((2, 2, 2)), "i8": rng.integers(-128, 128, 4).astype(np.int8),
              "i16": rng.integers(-30000, 30000, (3, 2)).astype(np.int16), "i32": rng.integers(-2**31, 2**31, 5).astype(np.int32),
              "i64": rng.integers(-2**62, 2**62, (2, 3)), "four": rng.standard_normal((2, 1, 3, 2)).astype(np.float32),
              "x": rng.standard_normal((4, 512)).astype(np.float32)}
    np.savez(os.path.join(work, "in.npz"), **arrays)
    with open(os.path.join(work, "w.tl"), "w") as f:
        f.write(SCRIPT)
    r = subprocess.run([tl, os.path.join(work, "w.tl"), work], capture_output=True, text=True, timeout=300)
    check(r.returncode == 0 and r.stdout == "q4_k bf16 (4, 512)\n", "tl ran: %r %r" % (r.stdout, r.stderr[-2000:]))
    if r.returncode:
        return finish()
    a = open(os.path.join(work, "a.gguf"), "rb").read()
    kv, tensors, align = parse(a)
    check(align == 32 and "general.alignment" not in kv, "alignment 32 by default, no key written")
    check(kv == META, "metadata values and types: %r" % {k: v for k, v in kv.items() if META.get(k) != v})
    want = {k: v for k, v in arrays.items() if k != "x"}
    got = {t[0]: t for t in tensors}
    check(sorted(got) == sorted(list(want) + ["bf16"] + ["blk.0." + t for t in quant_ref.TYPES]),
          "tensor names: %s" % sorted(got))
    for k, v in want.items():
        name, gt, shape, raw = got[k]
        check(GGML[gt][0] == (k if k != "four" else "f32") and shape == v.shape, "%s: type %d, shape %s" % (k, gt, shape))
        check(raw == v.astype(GGML[gt][1]).tobytes(), "%s: bytes" % k)
    check(got["bf16"][1] == 30 and got["bf16"][3] == bf16_bits(arrays["f32"]).tobytes(), "bf16 tensor: type and bytes")
    for t in quant_ref.TYPES:
        name, gt, shape, raw = got["blk.0." + t]
        check(GGML[gt][0] == t and shape == (4, 512), "%s: type %d, shape %s" % (t, gt, shape))
        check(raw == quant_ref.quantize(arrays["x"], t).tobytes(), "%s: the blocks quant_ref makes" % t)
    b = open(os.path.join(work, "b.gguf"), "rb").read()
    check(a == b, "a loaded file saved again is the same file (%d and %d bytes)" % (len(a), len(b)))
    kv_c, tensors_c, align_c = parse(open(os.path.join(work, "c.gguf"), "rb").read())
    check(align_c == 64 and kv_c["general.alignment"] == (4, 64), "general.alignment = u32(64) is used")
    check([t[3] for t in tensors_c] == [t[3] for t in tensors], "the same tensor bytes at alignment 64")
    # a failing save leaves the old file whole and no temporary beside it
    r = subprocess.run([tl, "-e", 'save(argv[0], {"a": ones(2), "b": zeros(2, dtype=u16)})', os.path.join(work, "a.gguf")],
                       capture_output=True, text=True)
    check(r.returncode == 1 and "u16" in r.stderr, "a u16 tensor is refused: %r" % r.stderr)
    check(open(os.path.join(work, "a.gguf"), "rb").read() == a, "the refused save left the file as it was")
    check(not [f for f in os.listdir(work) if ".tmp-" in f], "no temporary file left")
    for code, phrase in (
        ('save("x.gguf", {"w": quantize(ones(2, 64), "q8_0")[:, :16]})', "whole blocks"),
        ('w = quantize(ones(2, 64), "q8_0"); w[0, 0] = 3; save("x.gguf", {"w": w})', "was written to"),
        ('save("x.gguf", {"w": ones(2)}, meta={"general.alignment": u32(48)})', "power of two"),
        ('save("x.gguf", {"": ones(2)})', "GGUF names hold 1 to 63"),
        ('save("x.gguf", {"w": ones(1, 1, 1, 1, 1)})', "at most 4"),
    ):
        r = subprocess.run([tl, "-e", code], capture_output=True, text=True, cwd=work)
        check(r.returncode == 1 and phrase in r.stderr, "%s: expected %r, got %r" % (code, phrase, r.stderr.strip()))
    return finish()


def finish():
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
