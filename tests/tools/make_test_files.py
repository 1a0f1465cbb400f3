#!/usr/bin/python3
"""make_test_files.py — writes the files tests/tools/test_files.py checks tl against.

Usage: make_test_files.py OUTDIR

OUTDIR/good/   well-formed files: .npy (every dtype, fortran order, big-endian,
               0-d, empty, v2/v3 headers), .npz (stored, deflated), .safetensors,
               .gguf (plain and quantized tensors, every metadata type), text
OUTDIR/expect/ what tl must read from them, as numpy-written .npy files
               (bf16 as its u16 bit patterns; quantized GGUF as the reference
               dequantization, computed here in f32 from ggml's block layouts)
OUTDIR/bad/    malformed files, and bad.json: file -> a phrase its error must contain

Everything is deterministic (fixed seeds). Layouts: docs/files.md, "Byte layouts".
"""
import json
import os
import struct
import sys
import zipfile
import zlib

import numpy as np

OUT = sys.argv[1] if len(sys.argv) > 1 else "test_files"
GOOD, EXPECT, BAD = (os.path.join(OUT, d) for d in ("good", "expect", "bad"))
RNG = np.random.default_rng(20240611)
BAD_CASES = {}


def good(name):
    return os.path.join(GOOD, name)


def expect(name, arr):
    np.save(os.path.join(EXPECT, name + ".npy"), arr)


def bad(name, data, phrase):
    with open(os.path.join(BAD, name), "wb") as f:
        f.write(data)
    BAD_CASES[name] = phrase


# ---------------------------------------------------------------- npy / npz

NUMPY_DTYPES = ["bool", "u1", "u2", "u4", "u8", "i1", "i2", "i4", "i8", "f2", "f4", "f8", "c8", "c16"]


def sample(dt, shape):
    want = np.dtype(dt)
    dt = want.newbyteorder("=")
    n = int(np.prod(shape))
    if dt.kind == "b":
        a = RNG.integers(0, 2, n).astype(bool)
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        a = RNG.integers(info.min, info.max, n, dtype=dt, endpoint=True)
    elif dt.kind == "f":
        a = (RNG.standard_normal(n) * 100).astype(dt)
    else:
        a = (RNG.standard_normal(n) + 1j * RNG.standard_normal(n)).astype(dt)
    return a.astype(want).reshape(shape)


def npy_header(descr, fortran, shape, version=1, pad_to=64, extra=""):
    d = "{'descr': %r, 'fortran_order': %s, 'shape': %s, }%s" % (descr, fortran, repr(tuple(shape)), extra)
    pre = 10 if version == 1 else 12
    hl = len(d) + 1
    hl += (-(pre + hl)) % pad_to
    body = d.encode("latin1") + b" " * (hl - len(d) - 1) + b"\n"
    lenfield = struct.pack("<H", hl) if version == 1 else struct.pack("<I", hl)
    return b"\x93NUMPY" + bytes([version, 0]) + lenfield + body


def make_npy():
    for dt in NUMPY_DTYPES:
        a = sample(dt, (3, 4))
        np.save(good("dtype_%s.npy" % dt), a)
        expect("dtype_%s" % dt, a)
    # bf16 as ml_dtypes writes it: '<V2' holding bfloat16 bits
    bits = (sample("f4", (2, 5)).view(np.uint32) >> 16).astype(np.uint16)
    with open(good("bf16.npy"), "wb") as f:
        f.write(npy_header("<V2", False, (2, 5)) + bits.tobytes())
    expect("bf16_bits", bits)
    a = sample("f8", (3, 4, 5))
    np.save(good("fortran.npy"), np.asfortranarray(a))
    expect("fortran", a)
    a = sample("i2", (2, 3))
    np.save(good("fortran_i2.npy"), np.asfortranarray(a))
    expect("fortran_i2", a)
    for dt in [">f8", ">i4", ">c8", ">u2", ">f2"]:
        a = sample(dt, (4, 3))
        np.save(good("big_%s.npy" % dt[1:]), a)
        expect("big_%s" % dt[1:], a.astype(a.dtype.newbyteorder("<")))
    np.save(good("scalar.npy"), np.float64(2.5))
    expect("scalar", np.float64(2.5))
    np.save(good("scalar_i4.npy"), np.int32(-7))
    expect("scalar_i4", np.int32(-7))
    np.save(good("empty.npy"), np.zeros((0, 3), np.float32))
    expect("empty", np.zeros((0, 3), np.float32))
    np.save(good("empty1.npy"), np.zeros((0,), np.int64))
    expect("empty1", np.zeros((0,), np.int64))
    a = sample("f4", (5,))
    np.save(good("vec.npy"), a)
    expect("vec", a)
    # v2 and v3 headers, an old-style 16-byte padded v1 header, and Python 2's 5L
    a = sample("f4", (2, 3))
    for v in (2, 3):
        with open(good("v%d.npy" % v), "wb") as f:
            f.write(npy_header("<f4", False, (2, 3), version=v) + a.tobytes())
        expect("v%d" % v, a)
    with open(good("pad16.npy"), "wb") as f:
        f.write(npy_header("<f4", False, (2, 3), pad_to=16) + a.tobytes())
    expect("pad16", a)
    with open(good("long_dims.npy"), "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", 118) +
                b"{'descr': '<f4', 'fortran_order': False, 'shape': (2L, 3L), }".ljust(117) + b"\n" + a.tobytes())
    expect("long_dims", a)
    big = sample("f8", (300, 7))   # large enough for several chunks in npz members
    np.savez(good("stored.npz"), a=sample("i4", (3, 3)), b=big, scalar=np.float32(1.5), c=np.asfortranarray(big[:6]))
    np.savez_compressed(good("deflated.npz"), a=sample("i4", (3, 3)), b=big, e=np.zeros((0, 2)))
    with np.load(good("stored.npz")) as z:
        for k in z.files:
            expect("stored_" + k, z[k])
    with np.load(good("deflated.npz")) as z:
        for k in z.files:
            expect("deflated_" + k, z[k])
    np.savez(good("positional.npz"), sample("u1", (4,)), sample("f2", (2, 2)))
    # a stored member whose data lands 64-aligned, so tl maps it instead of copying
    with zipfile.ZipFile(good("aligned.npz"), "w", zipfile.ZIP_STORED) as z:
        hdr = npy_header("<f8", False, (16,))
        arr = np.arange(16, dtype=np.float64)
        name = "x" * 30 + ".npy"   # data at 30 + len(name) + 128 == 192
        z.writestr(zipfile.ZipInfo(name), hdr + arr.tobytes())
    expect("aligned", np.arange(16, dtype=np.float64))


def make_bad_npy():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    hdr = npy_header("<f4", False, (2, 3))
    bad("npy_truncated.npy", hdr + a.tobytes()[:-3], "is truncated")
    bad("npy_trailing.npy", hdr + a.tobytes() + b"xx", "does not match its header")
    bad("npy_empty_file.npy", b"", "too short")
    bad("npy_bad_magic.npy", b"\x93NUMPX" + hdr[6:] + a.tobytes(), "bad magic")
    bad("npy_version.npy", hdr[:6] + b"\x04\x00" + hdr[8:] + a.tobytes(), "unsupported .npy version")
    bad("npy_header_past_end.npy", hdr[:8] + struct.pack("<H", 60000) + hdr[10:], "header claims")
    bad("npy_absurd_header.npy", b"\x93NUMPY\x02\x00" + struct.pack("<I", 0xFFFFFFF0) + b"{}", "header claims")
    huge = b"\x93NUMPY\x02\x00" + struct.pack("<I", 2 << 20) + b" " * (2 << 20)
    bad("npy_huge_header.npy", huge, "too large")
    bad("npy_negative_dim.npy", npy_header_raw("{'descr': '<f4', 'fortran_order': False, 'shape': (2, -3), }"),
        "negative dimension")
    bad("npy_overflow_dims.npy", npy_header("<f4", False, (2**62, 2**62)), "too big")
    bad("npy_dim_too_big.npy", npy_header_raw("{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }"),
        "too big for 64 bits")
    bad("npy_bytes_overflow.npy", npy_header("<c16", False, (2**61,)), "too big")
    bad("npy_too_many_dims.npy", npy_header("<f4", False, (1,) * 33), "more than 32 dimensions")
    bad("npy_unicode.npy", npy_header("<U3", False, (2,)) + b"\0" * 24, "strings are not supported")
    bad("npy_object.npy", npy_header("|O", False, (2,)) + b"\0" * 16, "object arrays")
    bad("npy_unknown_dtype.npy", npy_header("<x4", False, (2,)) + b"\0" * 8, "no such dtype")
    bad("npy_longdouble.npy", npy_header("<f16", False, (1,)) + b"\0" * 16, "long double")
    bad("npy_structured.npy", npy_header_raw("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }") + b"\0" * 8,
        "structured dtype")
    bad("npy_missing_key.npy", npy_header_raw("{'descr': '<f4', 'fortran_order': False, }"), "has no 'shape'")
    bad("npy_extra_key.npy", npy_header_raw("{'descr': '<f4', 'fortran_order': False, 'shape': (), 'x': 1, }"), "unexpected key")
    bad("npy_dup_key.npy", npy_header_raw("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (), }"), "repeats the key")
    bad("npy_malformed.npy", npy_header_raw("{'descr': '<f4', 'fortran_order': maybe, 'shape': (), }"), "malformed header")
    bad("npy_not_dict.npy", npy_header_raw("['descr', '<f4']"), "malformed header")
    bad("npy_shape_not_tuple.npy", npy_header_raw("{'descr': '<f4', 'fortran_order': False, 'shape': (3), }") + b"\0" * 12,
        "malformed header")


def npy_header_raw(text):
    hl = len(text) + 1
    hl += (-(10 + hl)) % 64
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", hl) + text.encode() + b" " * (hl - len(text) - 1) + b"\n"


def zip_bytes(members, method=zipfile.ZIP_STORED):
    path = os.path.join(BAD, "_tmp.zip")
    with zipfile.ZipFile(path, "w", method) as z:
        for name, data in members:
            z.writestr(name, data)
    with open(path, "rb") as f:
        data = bytearray(f.read())
    os.remove(path)
    return data


def central(data):
    """Offsets of central directory entries."""
    out, i = [], 0
    while True:
        i = data.find(b"PK\x01\x02", i)
        if i < 0:
            return out
        out.append(i)
        i += 4


def make_bad_npz():
    a = np.arange(6, dtype=np.float64)
    npy = npy_header("<f8", False, (6,)) + a.tobytes()
    good_zip = zip_bytes([("a.npy", npy), ("b.npy", npy)])
    bad("npz_truncated.npz", bytes(good_zip[: len(good_zip) // 2]), "no zip end-of-directory")
    bad("npz_not_zip.npz", b"hello, this is not a zip file at all, definitely not" * 2, "no zip end-of-directory")
    d = bytearray(good_zip)
    c = central(d)
    struct.pack_into("<I", d, c[1] + 42, 10 ** 7)
    bad("npz_bad_offset.npz", bytes(d), "bad local header offset")
    d = bytearray(good_zip)
    struct.pack_into("<I", d, c[1] + 42, struct.unpack_from("<I", d, c[0] + 42)[0])
    bad("npz_shared_member.npz", bytes(d), "names a different file")
    # the first member claims more bytes, running into the second one
    d = bytearray(good_zip)
    for off in (c[0] + 20, c[0] + 24):
        struct.pack_into("<I", d, off, len(npy) + 40)
    bad("npz_overlap.npz", bytes(d), "overlap")
    d = bytearray(good_zip)
    struct.pack_into("<H", d, c[0] + 8, 1)
    bad("npz_encrypted.npz", bytes(d), "encrypted")
    d = bytearray(good_zip)
    struct.pack_into("<H", d, c[0] + 10, 12)
    bad("npz_bzip2.npz", bytes(d), "compression method 12")
    bad("npz_not_npy_member.npz", bytes(zip_bytes([("readme.txt", b"hi")])), "is not a .npy file")
    d = zip_bytes([("a.npy", npy)], zipfile.ZIP_DEFLATED)
    c = central(d)
    struct.pack_into("<I", d, c[0] + 24, 0x7FFFFFFF)
    bad("npz_bomb_claim.npz", bytes(d), "deflate cannot do that")
    d = zip_bytes([("a.npy", npy)], zipfile.ZIP_DEFLATED)
    local_len = 30 + 5 + struct.unpack_from("<H", d, 28)[0]
    d[local_len + 3] ^= 0xFF
    bad("npz_corrupt_deflate.npz", bytes(d), "member 'a.npy'")
    d = bytearray(good_zip)
    d[30 + 5 + 128 + 3] ^= 0x01   # a data byte of a stored, unaligned (copied) member
    bad("npz_bad_crc.npz", bytes(d), "CRC-32")
    d = zip_bytes([("a.npy", npy[:-8])])
    bad("npz_member_truncated.npz", bytes(d), "member 'a.npy' is truncated")
    d = zip_bytes([("a.npy", npy), ("a.npy", npy)])
    bad("npz_duplicate.npz", bytes(d), "appears twice")
    d = bytearray(good_zip)
    e = d.rfind(b"PK\x05\x06")
    struct.pack_into("<I", d, e + 16, len(d))
    bad("npz_bad_directory.npz", bytes(d), "central directory")
    d = bytearray(good_zip)
    struct.pack_into("<H", d, e + 10, 60000)
    struct.pack_into("<H", d, e + 8, 60000)
    bad("npz_absurd_count.npz", bytes(d), "claims 60000 entries")
    # names of control bytes quote as \xNN (four bytes each): the quoted form must stay within its buffer
    bad("npz_long_control_name.npz", bytes(zip_bytes([("\x01" * 60 + ".txt", b"hi")])), "is not a .npy file")


# ---------------------------------------------------------------- safetensors

ST_NAMES = {"bool": "BOOL", "u1": "U8", "i1": "I8", "i2": "I16", "u2": "U16", "f2": "F16", "i4": "I32",
            "u4": "U32", "f4": "F32", "c8": "C64", "f8": "F64", "i8": "I64", "u8": "U64"}
ST_ORDER = ["BOOL", "F4", "F6_E2M3", "F6_E3M2", "U8", "I8", "F8_E5M2", "F8_E4M3", "F8_E8M0", "F8_E4M3FNUZ",
            "F8_E5M2FNUZ", "I16", "U16", "F16", "BF16", "I32", "U32", "F32", "C64", "F64", "I64", "U64"]


def safetensors_bytes(tensors, metadata=None):
    """The reference writer's layout: dtype descending then name, compact JSON, 8-byte padding."""
    order = sorted(tensors, key=lambda kv: (-ST_ORDER.index(kv[1][0]), kv[0]))
    hdr, data, off = {}, b"", 0
    if metadata is not None:
        hdr["__metadata__"] = metadata
    for name, (dt, shape, raw) in order:
        hdr[name] = {"dtype": dt, "shape": list(shape), "data_offsets": [off, off + len(raw)]}
        data += raw
        off += len(raw)
    text = json.dumps(hdr, separators=(",", ":"), ensure_ascii=False).encode()
    text += b" " * ((-len(text)) % 8)
    return struct.pack("<Q", len(text)) + text + data


def raw_safetensors(header, data):
    text = json.dumps(header, separators=(",", ":")).encode() if not isinstance(header, bytes) else header
    return struct.pack("<Q", len(text)) + text + data


def make_safetensors():
    tensors = {}
    for dt, st in ST_NAMES.items():
        a = sample(dt, (2, 3))
        tensors["t_" + dt] = (st, a.shape, a.tobytes())
        expect("st_" + dt, a)
    bits = (sample("f4", (3, 2)).view(np.uint32) >> 16).astype(np.uint16)
    tensors["t_bf16"] = ("BF16", (3, 2), bits.tobytes())
    expect("st_bf16_bits", bits)
    tensors["t_scalar"] = ("F32", (), np.float32(4.25).tobytes())
    tensors["t_empty"] = ("F32", (0, 4), b"")
    big = sample("f4", (64, 33))
    tensors["t_big"] = ("F32", big.shape, big.tobytes())
    expect("st_big", big)
    meta = {"format": "pt", "note": "caf\u00e9 \"quoted\"\n"}
    with open(good("model.safetensors"), "wb") as f:
        f.write(safetensors_bytes(list(tensors.items()), meta))
    with open(good("nometa.safetensors"), "wb") as f:
        f.write(safetensors_bytes([("w", ("F32", (2,), np.float32([1, 2]).tobytes()))]))
    with open(good("empty.safetensors"), "wb") as f:
        f.write(safetensors_bytes([]))
    # whitespace around the JSON is accepted (reference tests do so); offsets unaligned for F32
    hdr = b'  {"a":{"dtype":"U8","shape":[3],"data_offsets":[0,3]},"b":{"dtype":"F32","shape":[2],"data_offsets":[3,11]}}\n '
    with open(good("unaligned.safetensors"), "wb") as f:
        f.write(raw_safetensors(hdr, b"\1\2\3" + np.float32([1.5, -2]).tobytes()))
    expect("st_unaligned_b", np.float32([1.5, -2]))


def make_bad_safetensors():
    t = {"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 8]}}
    d8 = b"\0" * 8
    bad("st_tiny.safetensors", b"\1\2\3", "too small")
    bad("st_huge_header.safetensors", struct.pack("<Q", 200_000_000) + b"{}", "too large")
    bad("st_header_past_end.safetensors", struct.pack("<Q", 5000) + b"{}", "runs past the end")
    bad("st_not_json.safetensors", raw_safetensors(b"{nope}", b""), "malformed JSON")
    bad("st_not_object.safetensors", raw_safetensors(b"[1,2]", b""), "not a JSON object")
    bad("st_bad_utf8.safetensors", raw_safetensors(b'{"\xff":{}}', b""), "invalid UTF-8")
    bad("st_deep.safetensors", raw_safetensors(b"[" * 5000 + b"]" * 5000, b""), "nested too deeply")
    bad("st_unknown_dtype.safetensors", raw_safetensors({"a": {"dtype": "F7", "shape": [2], "data_offsets": [0, 8]}}, d8),
        "unknown dtype")
    bad("st_fp8.safetensors", raw_safetensors({"a": {"dtype": "F8_E4M3", "shape": [8], "data_offsets": [0, 8]}}, d8),
        "does not support")
    bad("st_negative_dim.safetensors", raw_safetensors({"a": {"dtype": "F32", "shape": [-2], "data_offsets": [0, 8]}}, d8),
        "negative dimension")
    bad("st_float_dim.safetensors", raw_safetensors({"a": {"dtype": "F32", "shape": [2.0], "data_offsets": [0, 8]}}, d8),
        "must hold integers")
    bad("st_overflow_dims.safetensors",
        raw_safetensors({"a": {"dtype": "F32", "shape": [2**40, 2**40], "data_offsets": [0, 8]}}, d8), "too big")
    bad("st_bytes_overflow.safetensors",
        raw_safetensors({"a": {"dtype": "F64", "shape": [2**61], "data_offsets": [0, 8]}}, d8), "too big")
    bad("st_huge_offset.safetensors",
        raw_safetensors({"a": {"dtype": "F32", "shape": [2], "data_offsets": [0, 2**64 + 5]}}, d8), "data_offsets")
    two = lambda a, b: {"a": {"dtype": "F32", "shape": [2], "data_offsets": a},
                        "b": {"dtype": "F32", "shape": [2], "data_offsets": b}}
    bad("st_overlap.safetensors", raw_safetensors(two([0, 8], [4, 12]), b"\0" * 12), "overlaps another tensor")
    bad("st_shared.safetensors", raw_safetensors(two([0, 8], [0, 8]), d8), "overlaps another tensor")
    bad("st_gap.safetensors", raw_safetensors(two([0, 8], [12, 20]), b"\0" * 20), "leaves a gap")
    bad("st_backwards.safetensors", raw_safetensors({"a": {"dtype": "F32", "shape": [0], "data_offsets": [8, 0]}}, d8),
        "end before begin")
    bad("st_wrong_size.safetensors", raw_safetensors({"a": {"dtype": "F32", "shape": [3], "data_offsets": [0, 8]}}, d8),
        "needs 12 bytes")
    bad("st_truncated.safetensors", raw_safetensors(t, b"\0" * 5), "truncated")
    bad("st_trailing.safetensors", raw_safetensors(t, b"\0" * 9), "does not match the header")
    bad("st_meta_not_string.safetensors", raw_safetensors({"__metadata__": {"n": 1}, **t}, d8), "is not a string")
    bad("st_missing_field.safetensors", raw_safetensors({"a": {"dtype": "F32", "shape": [2]}}, d8), "lacks 'data_offsets'")
    dup = b'{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"a":{"dtype":"F32","shape":[2],"data_offsets":[8,16]}}'
    bad("st_duplicate.safetensors", raw_safetensors(dup, b"\0" * 16), "appears twice")
    bad("st_long_control_name.safetensors",
        raw_safetensors({"\u0001" * 60: {"dtype": "F7", "shape": [2], "data_offsets": [0, 8]}}, d8), "unknown dtype 'F7'")
    bad("st_too_many_dims.safetensors",
        raw_safetensors({"a": {"dtype": "F32", "shape": [1] * 40, "data_offsets": [0, 4]}}, b"\0" * 4), "dimensions")


# ---------------------------------------------------------------- GGUF and ggml quantization

GT = dict(U8=0, I8=1, U16=2, I16=3, U32=4, I32=5, F32=6, BOOL=7, STRING=8, ARRAY=9, U64=10, I64=11, F64=12)
SCALAR_FMT = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<B", 10: "<Q", 11: "<q", 12: "<d"}
GGML = dict(F32=0, F16=1, Q4_0=2, Q4_1=3, Q5_0=6, Q5_1=7, Q8_0=8, Q2_K=10, Q3_K=11, Q4_K=12, Q5_K=13, Q6_K=14,
            Q8_K=15, IQ2_XXS=16, I8=24, I16=25, I32=26, I64=27, F64=28, BF16=30)
BLOCK = dict(Q4_0=(32, 18), Q4_1=(32, 20), Q5_0=(32, 22), Q5_1=(32, 24), Q8_0=(32, 34), Q2_K=(256, 84),
             Q3_K=(256, 110), Q4_K=(256, 144), Q5_K=(256, 176), Q6_K=(256, 210), Q8_K=(256, 292), IQ2_XXS=(256, 66))


def gstr(s):
    b = s.encode() if isinstance(s, str) else s
    return struct.pack("<Q", len(b)) + b


def gvalue(t, v):
    if t == GT["STRING"]:
        return gstr(v)
    if t == GT["ARRAY"]:
        et, items = v
        return struct.pack("<IQ", et, len(items)) + b"".join(gvalue(et, x) for x in items)
    return struct.pack(SCALAR_FMT[t], v)


def gguf_bytes(kvs, tensors, alignment=32, version=3):
    """kvs: [(key, type, value)]; tensors: [(name, ggml_type, ne list, raw bytes)] laid out as ggml does."""
    out = b"GGUF" + struct.pack("<IQQ", version, len(tensors), len(kvs))
    for k, t, v in kvs:
        out += gstr(k) + struct.pack("<I", t) + gvalue(t, v)
    off, blobs = 0, []
    for name, gt, ne, raw in tensors:
        out += gstr(name) + struct.pack("<I", len(ne)) + b"".join(struct.pack("<Q", x) for x in ne)
        out += struct.pack("<IQ", gt, off)
        blobs.append(raw + b"\0" * ((-len(raw)) % alignment))
        off += len(blobs[-1])
    out += b"\0" * ((-len(out)) % alignment)
    return out + b"".join(blobs)


def f16(x):
    return np.float32(x).astype(np.float16)


def f32(x):
    return np.asarray(x, dtype=np.float32)


def deq_q8_0(b):
    d = b[:, 0:2].copy().view(np.float16).astype(np.float32)
    q = b[:, 2:34].view(np.int8).astype(np.float32)
    return q * d


def deq_q4_0(b):
    d = b[:, 0:2].copy().view(np.float16).astype(np.float32)
    qs = b[:, 2:18]
    lo = ((qs & 0xF).astype(np.int32) - 8).astype(np.float32)
    hi = ((qs >> 4).astype(np.int32) - 8).astype(np.float32)
    return np.concatenate([lo * d, hi * d], axis=1)


def deq_q4_1(b):
    d = b[:, 0:2].copy().view(np.float16).astype(np.float32)
    m = b[:, 2:4].copy().view(np.float16).astype(np.float32)
    qs = b[:, 4:20]
    lo, hi = (qs & 0xF).astype(np.float32), (qs >> 4).astype(np.float32)
    return np.concatenate([lo * d + m, hi * d + m], axis=1)


def q5_values(qh, qs):
    h = qh.copy().view("<u4").astype(np.uint64)   # (n, 1)
    j = np.arange(16, dtype=np.uint64)
    lo = (qs & 0xF).astype(np.int32) | (((h >> j) & 1) << 4).astype(np.int32)
    hi = (qs >> 4).astype(np.int32) | (((h >> (j + 16)) & 1) << 4).astype(np.int32)
    return lo, hi


def deq_q5_0(b):
    d = b[:, 0:2].copy().view(np.float16).astype(np.float32)
    lo, hi = q5_values(b[:, 2:6], b[:, 6:22])
    return np.concatenate([(lo - 16).astype(np.float32) * d, (hi - 16).astype(np.float32) * d], axis=1)


def deq_q5_1(b):
    d = b[:, 0:2].copy().view(np.float16).astype(np.float32)
    m = b[:, 2:4].copy().view(np.float16).astype(np.float32)
    lo, hi = q5_values(b[:, 4:8], b[:, 8:24])
    return np.concatenate([lo.astype(np.float32) * d + m, hi.astype(np.float32) * d + m], axis=1)


def deq_q8_k(b):
    d = b[:, 0:4].copy().view(np.float32)
    return d * b[:, 4:260].view(np.int8).astype(np.float32)


def deq_q2_k(b):
    out = np.zeros((b.shape[0], 256), np.float32)
    sc, qs = b[:, 0:16], b[:, 16:80]
    d = b[:, 80:82].copy().view(np.float16).astype(np.float32)[:, 0]
    mn = b[:, 82:84].copy().view(np.float16).astype(np.float32)[:, 0]
    y, is_ = 0, 0
    for half in range(2):
        q = qs[:, 32 * half: 32 * half + 32]
        for shift in (0, 2, 4, 6):
            for g in range(2):
                s = sc[:, is_]
                is_ += 1
                dl = d * (s & 0xF).astype(np.float32)
                ml = mn * (s >> 4).astype(np.float32)
                v = ((q[:, 16 * g: 16 * g + 16] >> shift) & 3).astype(np.float32)
                out[:, y:y + 16] = dl[:, None] * v - ml[:, None]
                y += 16
    return out


def deq_q3_k(b):
    out = np.zeros((b.shape[0], 256), np.float32)
    hm, qs, s = b[:, 0:32], b[:, 32:96], b[:, 96:108].astype(np.int32)
    d = b[:, 108:110].copy().view(np.float16).astype(np.float32)[:, 0]
    scales = []
    for i in range(16):
        lo = s[:, i] & 0xF if i < 8 else s[:, i - 8] >> 4
        hi = (s[:, 8 + i % 4] >> (2 * (i // 4))) & 3
        scales.append((lo | hi << 4) - 32)
    y, is_, m = 0, 0, 1
    for half in range(2):
        q = qs[:, 32 * half: 32 * half + 32]
        for shift in (0, 2, 4, 6):
            for g in range(2):
                dl = d * scales[is_].astype(np.float32)
                is_ += 1
                qq = ((q[:, 16 * g: 16 * g + 16] >> shift) & 3).astype(np.int32)
                hb = (hm[:, 16 * g: 16 * g + 16] & m) != 0
                v = (qq - np.where(hb, 0, 4)).astype(np.float32)
                out[:, y:y + 16] = dl[:, None] * v
                y += 16
            m <<= 1
    return out


def scale_min_k4(j, s):
    s = s.astype(np.int32)
    if j < 4:
        return s[:, j] & 63, s[:, j + 4] & 63
    return (s[:, j + 4] & 0xF) | ((s[:, j - 4] >> 6) << 4), (s[:, j + 4] >> 4) | ((s[:, j] >> 6) << 4)


def deq_q45_k(b, five):
    out = np.zeros((b.shape[0], 256), np.float32)
    d = b[:, 0:2].copy().view(np.float16).astype(np.float32)[:, 0]
    mn = b[:, 2:4].copy().view(np.float16).astype(np.float32)[:, 0]
    sc = b[:, 4:16]
    qh = b[:, 16:48] if five else None
    ql = b[:, 48:176] if five else b[:, 16:144]
    for c in range(4):
        q = ql[:, 32 * c: 32 * c + 32].astype(np.int32)
        for half, vals in ((0, q & 0xF), (1, q >> 4)):
            s, m = scale_min_k4(2 * c + half, sc)
            if five:
                bit = 1 << (2 * c + half)
                vals = vals + np.where(qh & bit, 16, 0)
            d1, m1 = d * s.astype(np.float32), mn * m.astype(np.float32)
            out[:, 64 * c + 32 * half: 64 * c + 32 * half + 32] = d1[:, None] * vals.astype(np.float32) - m1[:, None]
    return out


def deq_q6_k(b):
    out = np.zeros((b.shape[0], 256), np.float32)
    d = b[:, 208:210].copy().view(np.float16).astype(np.float32)[:, 0]
    for half in range(2):
        ql = b[:, 64 * half: 64 * half + 64].astype(np.int32)
        qh = b[:, 128 + 32 * half: 128 + 32 * half + 32].astype(np.int32)
        sc = b[:, 192 + 8 * half: 192 + 8 * half + 8].view(np.int8).astype(np.float32)
        for l in range(32):
            is_ = l // 16
            q1 = ((ql[:, l] & 0xF) | ((qh[:, l] >> 0 & 3) << 4)) - 32
            q2 = ((ql[:, l + 32] & 0xF) | ((qh[:, l] >> 2 & 3) << 4)) - 32
            q3 = ((ql[:, l] >> 4) | ((qh[:, l] >> 4 & 3) << 4)) - 32
            q4 = ((ql[:, l + 32] >> 4) | ((qh[:, l] >> 6 & 3) << 4)) - 32
            base = 128 * half
            out[:, base + l] = d * sc[:, is_] * q1.astype(np.float32)
            out[:, base + l + 32] = d * sc[:, is_ + 2] * q2.astype(np.float32)
            out[:, base + l + 64] = d * sc[:, is_ + 4] * q3.astype(np.float32)
            out[:, base + l + 96] = d * sc[:, is_ + 6] * q4.astype(np.float32)
    return out


DEQUANT = dict(Q8_0=deq_q8_0, Q4_0=deq_q4_0, Q4_1=deq_q4_1, Q5_0=deq_q5_0, Q5_1=deq_q5_1, Q8_K=deq_q8_k,
               Q2_K=deq_q2_k, Q3_K=deq_q3_k, Q4_K=lambda b: deq_q45_k(b, False), Q5_K=lambda b: deq_q45_k(b, True),
               Q6_K=deq_q6_k)


def blocks_of(x, n):
    return x.reshape(-1, n)


def half_bytes(v):
    return f16(v).reshape(-1, 1).view(np.uint8)


def quant_q8_0(x):
    x = blocks_of(x, 32)
    d = np.abs(x).max(1) / 127
    q = np.round(x / np.where(d == 0, 1, d)[:, None]).astype(np.int8)
    return np.concatenate([half_bytes(d), q.view(np.uint8)], 1)


def quant_q4_0(x):
    x = blocks_of(x, 32)
    mx = x[np.arange(len(x)), np.abs(x).argmax(1)]
    d = mx / -8
    q = np.clip(np.round(x / np.where(d == 0, 1, d)[:, None]) + 8, 0, 15).astype(np.uint8)
    return np.concatenate([half_bytes(d), q[:, :16] | (q[:, 16:] << 4)], 1)


def quant_q4_1(x):
    x = blocks_of(x, 32)
    mn, mx = x.min(1), x.max(1)
    d = (mx - mn) / 15
    q = np.clip(np.round((x - mn[:, None]) / np.where(d == 0, 1, d)[:, None]), 0, 15).astype(np.uint8)
    return np.concatenate([half_bytes(d), half_bytes(mn), q[:, :16] | (q[:, 16:] << 4)], 1)


def split5(q):
    qh = np.zeros(len(q), np.uint32)
    for j in range(32):
        qh |= ((q[:, j].astype(np.uint32) >> 4) & 1) << j
    lo = q & 0xF
    return qh.reshape(-1, 1).view(np.uint8), (lo[:, :16] | (lo[:, 16:] << 4)).astype(np.uint8)


def quant_q5_0(x):
    x = blocks_of(x, 32)
    mx = x[np.arange(len(x)), np.abs(x).argmax(1)]
    d = mx / -16
    q = np.clip(np.round(x / np.where(d == 0, 1, d)[:, None]) + 16, 0, 31).astype(np.uint8)
    qh, qs = split5(q)
    return np.concatenate([half_bytes(d), qh, qs], 1)


def quant_q5_1(x):
    x = blocks_of(x, 32)
    mn, mx = x.min(1), x.max(1)
    d = (mx - mn) / 31
    q = np.clip(np.round((x - mn[:, None]) / np.where(d == 0, 1, d)[:, None]), 0, 31).astype(np.uint8)
    qh, qs = split5(q)
    return np.concatenate([half_bytes(d), half_bytes(mn), qh, qs], 1)


def quant_q8_k(x):
    x = blocks_of(x, 256)
    d = (np.abs(x).max(1) / 127).astype(np.float32)
    q = np.round(x / np.where(d == 0, 1, d)[:, None]).astype(np.int8)
    bsums = q.astype(np.int16).reshape(-1, 16, 16).sum(2).astype("<i2")
    return np.concatenate([d.reshape(-1, 1).view(np.uint8), q.view(np.uint8), bsums.view(np.uint8)], 1)


def pack2(L):
    """ggml's 2-bit packing: per 128, byte l holds L[l], L[l+32], L[l+64], L[l+96]."""
    out = []
    for h in range(2):
        c = L[:, 128 * h: 128 * h + 128]
        out.append(c[:, 0:32] | (c[:, 32:64] << 2) | (c[:, 64:96] << 4) | (c[:, 96:128] << 6))
    return np.concatenate(out, 1).astype(np.uint8)


def quant_q2_k(x):
    x = blocks_of(x, 256).astype(np.float32)
    g = x.reshape(-1, 16, 16)
    gmin = np.minimum(g.min(2), 0)
    scale = (g.max(2) - gmin) / 3
    d = np.maximum(scale.max(1), 1e-8) / 15
    dmin = np.maximum((-gmin).max(1), 1e-8) / 15
    d16, dm16 = f16(d).astype(np.float32), f16(dmin).astype(np.float32)
    sc = np.clip(np.round(scale / d16[:, None]), 0, 15).astype(np.uint8)
    mn = np.clip(np.round(-gmin / dm16[:, None]), 0, 15).astype(np.uint8)
    step = np.where(sc == 0, 1, sc) * d16[:, None]
    L = np.clip(np.round((g + (mn * dm16[:, None])[:, :, None]) / step[:, :, None]), 0, 3).astype(np.uint8).reshape(-1, 256)
    return np.concatenate([sc | (mn << 4), pack2(L), half_bytes(d16), half_bytes(dm16)], 1)


def quant_q3_k(x):
    x = blocks_of(x, 256).astype(np.float32)
    g = x.reshape(-1, 16, 16)
    scale = np.abs(g).max(2) / 4
    d = np.maximum(scale.max(1), 1e-8) / 31
    d16 = f16(d).astype(np.float32)
    s6 = np.clip(np.round(scale / d16[:, None]), -32, 31).astype(np.int32) + 32
    step = np.where(s6 == 32, 1, s6 - 32) * d16[:, None]
    L = (np.clip(np.round(g / step[:, :, None]), -4, 3).astype(np.int32) + 4).reshape(-1, 256)
    scales = np.zeros((len(x), 12), np.uint8)
    for j in range(16):
        l = s6[:, j]
        if j < 8:
            scales[:, j] |= (l & 0xF).astype(np.uint8)
        else:
            scales[:, j - 8] |= ((l & 0xF) << 4).astype(np.uint8)
        scales[:, 8 + j % 4] |= ((l >> 4) << (2 * (j // 4))).astype(np.uint8)
    hmask = np.zeros((len(x), 32), np.uint8)
    for j in range(256):
        hmask[:, j % 32] |= np.where(L[:, j] > 3, 1 << (j // 32), 0).astype(np.uint8)
    low = (L & 3).astype(np.uint8)
    return np.concatenate([hmask, pack2(low), scales, half_bytes(d16)], 1)


def pack_scales_k4(ls, lm):
    s = np.zeros((len(ls), 12), np.uint8)
    for j in range(8):
        if j < 4:
            s[:, j] = ls[:, j]
            s[:, j + 4] = lm[:, j]
        else:
            s[:, j + 4] = (ls[:, j] & 0xF) | ((lm[:, j] & 0xF) << 4)
            s[:, j - 4] |= (ls[:, j] >> 4) << 6
            s[:, j] |= (lm[:, j] >> 4) << 6
    return s


def quant_q45_k(x, five):
    nmax = 31 if five else 15
    x = blocks_of(x, 256).astype(np.float32)
    g = x.reshape(-1, 8, 32)
    gmin = np.minimum(g.min(2), 0)
    scale = (g.max(2) - gmin) / nmax
    d = np.maximum(scale.max(1), 1e-8) / 63
    dmin = np.maximum((-gmin).max(1), 1e-8) / 63
    d16, dm16 = f16(d).astype(np.float32), f16(dmin).astype(np.float32)
    ls = np.clip(np.round(scale / d16[:, None]), 0, 63).astype(np.uint8)
    lm = np.clip(np.round(-gmin / dm16[:, None]), 0, 63).astype(np.uint8)
    step = np.where(ls == 0, 1, ls) * d16[:, None]
    L = np.clip(np.round((g + (lm * dm16[:, None])[:, :, None]) / step[:, :, None]), 0, nmax).astype(np.uint8).reshape(-1, 256)
    qs = np.concatenate([(L[:, 64 * c: 64 * c + 32] & 0xF) | ((L[:, 64 * c + 32: 64 * c + 64] & 0xF) << 4)
                         for c in range(4)], 1).astype(np.uint8)
    parts = [half_bytes(d16), half_bytes(dm16), pack_scales_k4(ls, lm)]
    if five:
        qh = np.zeros((len(x), 32), np.uint8)
        for c in range(4):
            qh |= np.where(L[:, 64 * c: 64 * c + 32] > 15, 1 << (2 * c), 0).astype(np.uint8)
            qh |= np.where(L[:, 64 * c + 32: 64 * c + 64] > 15, 2 << (2 * c), 0).astype(np.uint8)
        parts.append(qh)
    return np.concatenate(parts + [qs], 1)


def quant_q6_k(x):
    x = blocks_of(x, 256).astype(np.float32)
    g = x.reshape(-1, 16, 16)
    scale = np.abs(g).max(2) / 32
    d = np.maximum(scale.max(1), 1e-8) / 127
    d16 = f16(d).astype(np.float32)
    sc = np.clip(np.round(scale / d16[:, None]), -128, 127).astype(np.int8)
    step = np.where(sc == 0, 1, sc).astype(np.float32) * d16[:, None]
    L = (np.clip(np.round(g / step[:, :, None]), -32, 31).astype(np.int32) + 32).reshape(-1, 256).astype(np.uint8)
    ql = np.zeros((len(x), 128), np.uint8)
    qh = np.zeros((len(x), 64), np.uint8)
    for h in range(2):
        c = L[:, 128 * h: 128 * h + 128]
        ql[:, 64 * h: 64 * h + 32] = (c[:, 0:32] & 0xF) | ((c[:, 64:96] & 0xF) << 4)
        ql[:, 64 * h + 32: 64 * h + 64] = (c[:, 32:64] & 0xF) | ((c[:, 96:128] & 0xF) << 4)
        qh[:, 32 * h: 32 * h + 32] = (c[:, 0:32] >> 4) | ((c[:, 32:64] >> 4) << 2) | ((c[:, 64:96] >> 4) << 4) | ((c[:, 96:128] >> 4) << 6)
    return np.concatenate([ql, qh, sc.view(np.uint8), half_bytes(d16)], 1)


QUANT = dict(Q8_0=quant_q8_0, Q4_0=quant_q4_0, Q4_1=quant_q4_1, Q5_0=quant_q5_0, Q5_1=quant_q5_1, Q8_K=quant_q8_k,
             Q2_K=quant_q2_k, Q3_K=quant_q3_k, Q4_K=lambda x: quant_q45_k(x, False),
             Q5_K=lambda x: quant_q45_k(x, True), Q6_K=quant_q6_k)


def random_blocks(kind, n):
    """Random bytes (every bit pattern of the quants) with finite f16/f32 scales."""
    bs, nb = BLOCK[kind]
    b = RNG.integers(0, 256, (n, nb), dtype=np.uint8)
    scales = f16(RNG.standard_normal((n, 2)) * 0.1).view(np.uint8)
    at = {"Q4_0": [0], "Q4_1": [0, 2], "Q5_0": [0], "Q5_1": [0, 2], "Q8_0": [0], "Q2_K": [80, 82], "Q3_K": [108],
          "Q4_K": [0, 2], "Q5_K": [0, 2], "Q6_K": [208]}.get(kind)
    if kind == "Q8_K":
        b[:, 0:4] = (RNG.standard_normal((n, 1)) * 0.1).astype(np.float32).view(np.uint8)
    else:
        for k, pos in enumerate(at):
            b[:, pos:pos + 2] = scales[:, 2 * k: 2 * k + 2]
    return b


def make_gguf():
    kvs = [
        ("general.architecture", GT["STRING"], "tltest"),
        ("general.name", GT["STRING"], "caf\u00e9 model"),
        ("general.quantization_version", GT["U32"], 2),
        ("t.u8", GT["U8"], 200), ("t.i8", GT["I8"], -100), ("t.u16", GT["U16"], 60000), ("t.i16", GT["I16"], -30000),
        ("t.u32", GT["U32"], 4000000000), ("t.i32", GT["I32"], -2000000000), ("t.f32", GT["F32"], 0.25),
        ("t.bool", GT["BOOL"], 1), ("t.u64", GT["U64"], 2**64 - 1), ("t.i64", GT["I64"], -2**63), ("t.f64", GT["F64"], 1e300),
        ("t.empty", GT["STRING"], ""),
        ("t.tokens", GT["ARRAY"], (GT["STRING"], ["<s>", "</s>", "hello", ""])),
        ("t.scores", GT["ARRAY"], (GT["F32"], [0.5, -1.0, 2.25])),
        ("t.ids", GT["ARRAY"], (GT["I32"], [1, -2, 3])),
        ("t.flags", GT["ARRAY"], (GT["BOOL"], [1, 0, 1])),
        ("t.nested", GT["ARRAY"], (GT["ARRAY"], [(GT["U8"], [1, 2]), (GT["U8"], [3])])),
        ("t.none", GT["ARRAY"], (GT["U64"], [])),
    ]
    tensors = []
    plain = [("F32", "f4", (3, 4)), ("F16", "f2", (2, 5)), ("F64", "f8", (4,)), ("I8", "i1", (2, 2, 3)),
             ("I16", "i2", (6,)), ("I32", "i4", (2, 3)), ("I64", "i8", (1, 2, 2, 2))]
    for kind, dt, shape in plain:
        a = sample(dt, shape)
        tensors.append(("plain." + kind, GGML[kind], list(reversed(shape)), a.tobytes()))
        expect("gguf_plain_" + kind, a)
    bits = (sample("f4", (3, 4)).view(np.uint32) >> 16).astype(np.uint16)
    tensors.append(("plain.BF16", GGML["BF16"], [4, 3], bits.tobytes()))
    expect("gguf_plain_BF16_bits", bits)
    for kind in QUANT:
        bs = BLOCK[kind][0]
        shape = (3, 2 * bs)   # ne = [2*bs, 3]: rows of two blocks
        x = (RNG.standard_normal(shape) * 2).astype(np.float32)
        blocks = QUANT[kind](x.reshape(-1))
        assert blocks.shape[1] == BLOCK[kind][1], (kind, blocks.shape)
        ref = DEQUANT[kind](blocks).reshape(shape)
        tensors.append(("q." + kind, GGML[kind], [2 * bs, 3], blocks.tobytes()))
        expect("gguf_q_" + kind, ref)
        expect("gguf_orig_" + kind, x)
        rb = random_blocks(kind, 6)
        tensors.append(("r." + kind, GGML[kind], [3 * bs, 2], rb.tobytes()))
        expect("gguf_r_" + kind, DEQUANT[kind](rb).reshape(2, 3 * bs))
    with open(good("model.gguf"), "wb") as f:
        f.write(gguf_bytes(kvs, tensors))
    # the smallest useful GGUF: one F32 tensor with ggml dims ne = [3, 2] (loads as shape (2, 3))
    ex = gguf_bytes([("general.alignment", GT["U32"], 32)], [("w", 0, [3, 2], np.arange(6, dtype=np.float32).tobytes())])
    with open(good("example.gguf"), "wb") as f:
        f.write(ex)
    expect("gguf_example", np.arange(6, dtype=np.float32).reshape(2, 3))
    a = sample("f4", (5, 3))
    with open(good("align64.gguf"), "wb") as f:
        f.write(gguf_bytes([("general.alignment", GT["U32"], 64)],
                           [("a", 0, [3, 5], a.tobytes()), ("b", 0, [7], sample("f4", (7,)).tobytes())], alignment=64))
    expect("gguf_align64_a", a)
    with open(good("v2.gguf"), "wb") as f:
        f.write(gguf_bytes([], [("a", 0, [3, 5], a.tobytes())], version=2))
    with open(good("notensors.gguf"), "wb") as f:
        f.write(gguf_bytes([("general.name", GT["STRING"], "empty")], []))
    # a big quantized tensor to see that loading does not dequantize it: 64 MiB as f32
    rows, cols = 4096, 4096
    blocks = np.zeros((rows * cols // 32, 34), np.uint8)
    blocks[:, 0:2] = half_bytes(np.full(len(blocks), 0.5)).reshape(-1, 2)
    blocks[:, 2:] = (np.arange(32, dtype=np.int8) - 16).view(np.uint8)
    with open(good("big_q8.gguf"), "wb") as f:
        f.write(gguf_bytes([], [("w", GGML["Q8_0"], [cols, rows], blocks.tobytes())]))


def make_bad_gguf():
    w = ("w", 0, [4], np.zeros(4, np.float32).tobytes())
    base = gguf_bytes([("general.name", GT["STRING"], "x")], [w])
    bad("gguf_bad_magic.gguf", b"GGUX" + base[4:], "bad magic")
    bad("gguf_v1.gguf", base[:4] + struct.pack("<I", 1) + base[8:], "version 1")
    bad("gguf_v4.gguf", base[:4] + struct.pack("<I", 4) + base[8:], "unknown GGUF version")
    bad("gguf_big_endian.gguf", base[:4] + struct.pack(">I", 3) + base[8:], "big-endian")
    bad("gguf_tiny.gguf", b"GGUF\3\0", "truncated")
    bad("gguf_truncated_header.gguf", base[:40], "truncated")
    bad("gguf_truncated_data.gguf", base[:-20], "truncated")
    bad("gguf_absurd_kv_count.gguf", base[:16] + struct.pack("<Q", 2**60) + base[24:], "metadata entries")
    bad("gguf_absurd_tensor_count.gguf", base[:8] + struct.pack("<Q", 2**60) + base[16:], "tensors but only")
    bad("gguf_string_past_end.gguf", b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + gstr("k") + struct.pack("<IQ", 8, 2**40),
        "runs past the end")
    bad("gguf_unknown_value_type.gguf", b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + gstr("k") + struct.pack("<I", 13) + b"\0" * 8,
        "unknown value type")
    bad("gguf_long_control_key.gguf",
        b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + gstr(b"\x01" * 60) + struct.pack("<I", 99) + b"\0" * 8,
        "unknown value type 99")
    bad("gguf_absurd_array.gguf", b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + gstr("k") + struct.pack("<IIQ", 9, 4, 2**61),
        "cannot fit")
    bad("gguf_empty_key.gguf", b"GGUF" + struct.pack("<IQQ", 3, 0, 1) + gstr("") + struct.pack("<IB", 0, 1), "key length")
    bad("gguf_dup_key.gguf", gguf_bytes([("a", GT["U8"], 1), ("a", GT["U8"], 2)], []), "appears twice")
    bad("gguf_align_type.gguf", gguf_bytes([("general.alignment", GT["STRING"], "32")], []), "power of two")
    bad("gguf_align_3.gguf", gguf_bytes([("general.alignment", GT["U32"], 3)], []), "power of two")
    deep = (GT["U8"], [1])
    for _ in range(12):
        deep = (GT["ARRAY"], [deep])
    bad("gguf_deep_array.gguf", gguf_bytes([("k", GT["ARRAY"], deep)], []), "nested more than")

    def tinfo(name, dims, gtype, off):
        return gstr(name) + struct.pack("<I", len(dims)) + b"".join(struct.pack("<Q", d) for d in dims) + struct.pack("<IQ", gtype, off)

    def one(info, data=b"\0" * 64, version=3):
        h = b"GGUF" + struct.pack("<IQQ", version, 1, 0) + info
        return h + b"\0" * ((-len(h)) % 32) + data

    bad("gguf_five_dims.gguf", one(tinfo("t", [1, 1, 1, 1, 1], 0, 0)), "at most 4")
    bad("gguf_negative_dim.gguf", one(tinfo("t", [2**63 + 1], 0, 0)), "negative dimension")
    bad("gguf_overflow_dims.gguf", one(tinfo("t", [2**40, 2**40], 0, 0)), "too big")
    bad("gguf_bytes_overflow.gguf", one(tinfo("t", [2**62], 28, 0)), "too big")
    bad("gguf_unknown_type.gguf", one(tinfo("t", [4], 99, 0)), "unknown ggml type 99")
    bad("gguf_long_control_name.gguf", one(tinfo(b"\x01" * 60, [4], 99, 0)), "unknown ggml type 99")
    bad("gguf_removed_type.gguf", one(tinfo("t", [4], 4, 0)), "unknown ggml type 4")
    bad("gguf_iq2.gguf", one(tinfo("t", [256], 16, 0), b"\0" * 96), "cannot dequantize")
    bad("gguf_block_mismatch.gguf", one(tinfo("t", [33], 8, 0)), "not a multiple of the Q8_0 block size")
    bad("gguf_misaligned.gguf", one(tinfo("t", [4], 0, 4)), "not a multiple of the alignment")
    bad("gguf_data_past_end.gguf", one(tinfo("t", [64], 0, 0), b"\0" * 100), "truncated")
    bad("gguf_offset_past_end.gguf", one(tinfo("t", [4], 0, 2**63)), "truncated")
    bad("gguf_empty_name.gguf", one(tinfo("", [4], 0, 0)), "name length")
    two = b"GGUF" + struct.pack("<IQQ", 3, 2, 0) + tinfo("a", [16], 0, 0) + tinfo("b", [16], 0, 32)
    two += b"\0" * ((-len(two)) % 32)
    bad("gguf_overlap.gguf", two + b"\0" * 128, "overlap")
    dup = b"GGUF" + struct.pack("<IQQ", 3, 2, 0) + tinfo("a", [4], 0, 0) + tinfo("a", [4], 0, 32)
    dup += b"\0" * ((-len(dup)) % 32)
    bad("gguf_dup_tensor.gguf", dup + b"\0" * 64, "appears twice")


# ---------------------------------------------------------------- text

def make_text():
    a = sample("f8", (4, 3))
    np.savetxt(good("table.csv"), a, delimiter=",", header="a,b,c")
    expect("table_csv", np.loadtxt(good("table.csv"), delimiter=","))
    np.savetxt(good("table.txt"), a)
    expect("table_txt", np.loadtxt(good("table.txt"), ndmin=2))
    with open(good("messy.csv"), "w") as f:
        f.write("\ufeff# comment line\n1, 2.5 ,3e2\n\n  -4,nan,inf # trailing\r\n7,8,-inf\n")
    expect("messy", np.array([[1, 2.5, 300], [-4, np.nan, np.inf], [7, 8, -np.inf]]))
    bad("text_ragged.csv", b"1,2,3\n4,5\n", "line 2 has 2 values")
    bad("text_word.csv", b"1,2\n3,abc\n", "cannot read 'abc'")
    bad("text_empty_field.csv", b"1,,2\n", "empty field")


def main():
    for d in (GOOD, EXPECT, BAD):
        os.makedirs(d, exist_ok=True)
    make_npy()
    make_bad_npy()
    make_bad_npz()
    make_safetensors()
    make_bad_safetensors()
    make_gguf()
    make_bad_gguf()
    make_text()
    with open(os.path.join(BAD, "bad.json"), "w") as f:
        json.dump(BAD_CASES, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
