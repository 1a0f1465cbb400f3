#!/usr/bin/python3
"""make_llama.py — writes a random llama with the shapes of "stories15M" in three formats.

Usage: make_llama.py OUTDIR [--small | --shape=110M]

OUTDIR/llama_f32.safetensors   every tensor f32
OUTDIR/llama_bf16.safetensors  every tensor bf16 (f32 rounded to nearest even)
OUTDIR/llama_q8_0.gguf         matrices Q8_0, norm weights F32 (as llama.cpp's Q8_0 files)

The three files hold the same tensors under llama.cpp's names (token_embd.weight,
blk.N.attn_q.weight, ..., output.weight), each matrix (out, in) as PyTorch stores it;
GGUF writes ggml's dim order (ne = [in, out]), which tl loads back as (out, in).
Weights are seeded normal * 0.02 (norm weights 1 + normal * 0.02), so the files are the
same on every run. --small writes a 2-layer, vocab-512 model for quick tests (files
llama_small_*), --shape=110M one with the shapes of llama2.c's "stories110M" (dim 768, 12
layers of 12 heads, hidden 2048; files llama_110M_*), whose every matrix has rows of whole
256-weight superblocks, so that its Q4_K file is Q4_K throughout.
The hyperparameters are in each file's metadata (GGUF keys llama.*; safetensors
__metadata__ strings) and in config() below, which llama_ref.py shares.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_test_files as mtf  # noqa: E402  (the GGUF/safetensors writers and the Q8_0 quantizer)


def config(small=False, shape="15M"):
    """stories15M's shapes (llama2.c): head size 48, rotary base 10000, RMSNorm eps 1e-5; or
    stories110M's (head size 64, the same base and eps)."""
    c = dict(dim=288, hidden=768, layers=6, heads=6, kv_heads=6, vocab=32000, seq=256, eps=1e-5, theta=10000.0)
    if shape == "110M":
        c.update(dim=768, hidden=2048, layers=12, heads=12, kv_heads=12, seq=1024)
    elif shape != "15M":
        raise ValueError(f"no shape {shape!r}: 15M or 110M")
    if small:
        c.update(layers=2, vocab=512)
    c["shape"] = shape
    return c


def shape_arg(argv):
    """The --shape=S argument's S (15M when absent)."""
    return next((a.split("=", 1)[1] for a in argv if a.startswith("--shape=")), "15M")


def file_tag(c, small=False):
    """The part of the file names that tells the models apart: '', '_small', '_110M'."""
    return ("_small" if small else "") + ("" if c["shape"] == "15M" else "_" + c["shape"])


def weights(c, seed=15):
    """name -> f32 array, in llama.cpp's names; matrices are (out, in)."""
    rng = np.random.default_rng(seed)
    hd = c["dim"] // c["heads"]
    kv = c["kv_heads"] * hd

    def mat(rows, cols):
        return (rng.standard_normal((rows, cols)) * 0.02).astype(np.float32)

    def norm(n):
        return (1 + rng.standard_normal(n) * 0.02).astype(np.float32)

    w = {"token_embd.weight": mat(c["vocab"], c["dim"])}
    for i in range(c["layers"]):
        p = f"blk.{i}."
        w[p + "attn_norm.weight"] = norm(c["dim"])
        w[p + "attn_q.weight"] = mat(c["dim"], c["dim"])
        w[p + "attn_k.weight"] = mat(kv, c["dim"])
        w[p + "attn_v.weight"] = mat(kv, c["dim"])
        w[p + "attn_output.weight"] = mat(c["dim"], c["dim"])
        w[p + "ffn_norm.weight"] = norm(c["dim"])
        w[p + "ffn_gate.weight"] = mat(c["hidden"], c["dim"])
        w[p + "ffn_up.weight"] = mat(c["hidden"], c["dim"])
        w[p + "ffn_down.weight"] = mat(c["dim"], c["hidden"])
    w["output_norm.weight"] = norm(c["dim"])
    w["output.weight"] = mat(c["vocab"], c["dim"])
    return w


def bf16_bits(a):
    """f32 -> bf16 bit patterns, rounding to nearest even (the weights are finite)."""
    u = a.view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def safetensors_file(w, c, bf16):
    meta = {k: str(v) for k, v in c.items() if k != "shape"}   # the files of 15M as before
    if bf16:
        ts = {k: ("BF16", a.shape, bf16_bits(a).tobytes()) for k, a in w.items()}
    else:
        ts = {k: ("F32", a.shape, a.tobytes()) for k, a in w.items()}
    return mtf.safetensors_bytes(list(ts.items()), meta)


# GGUF's general.file_type of the files written (llama.cpp's LLAMA_FTYPE_MOSTLY_*)
FILE_TYPE = {"Q8_0": 7, "Q4_K": 15}


def matrix_type(kind, cols):
    """The type of a matrix of `cols` columns in a `kind` file: a K type needs rows of whole
    256-weight superblocks, so otherwise llama.cpp's fallback (Q4_K -> Q5_0)."""
    return kind if not kind.endswith("_K") or cols % 256 == 0 else {"Q4_K": "Q5_0"}[kind]


def gguf_file(w, c, kind="Q8_0"):
    """The GGUF file of w with its matrices of type `kind` (Q8_0 or Q4_K), vectors F32."""
    GT = mtf.GT
    kvs = [("general.architecture", GT["STRING"], "llama"),
           ("general.name", GT["STRING"], "random stories" + c["shape"]),
           ("general.alignment", GT["U32"], 32), ("general.quantization_version", GT["U32"], 2),
           ("general.file_type", GT["U32"], FILE_TYPE[kind]),
           ("llama.context_length", GT["U32"], c["seq"]), ("llama.embedding_length", GT["U32"], c["dim"]),
           ("llama.feed_forward_length", GT["U32"], c["hidden"]), ("llama.block_count", GT["U32"], c["layers"]),
           ("llama.attention.head_count", GT["U32"], c["heads"]),
           ("llama.attention.head_count_kv", GT["U32"], c["kv_heads"]),
           ("llama.rope.dimension_count", GT["U32"], c["dim"] // c["heads"]),
           ("llama.rope.freq_base", GT["F32"], c["theta"]),
           ("llama.attention.layer_norm_rms_epsilon", GT["F32"], c["eps"]),
           ("llama.vocab_size", GT["U32"], c["vocab"])]
    tensors = []
    for name, a in w.items():
        ne = list(reversed(a.shape))
        if a.ndim == 2:
            t = matrix_type(kind, a.shape[1])
            tensors.append((name, mtf.GGML[t], ne, mtf.QUANT[t](a.reshape(-1)).tobytes()))
        else:
            tensors.append((name, mtf.GGML["F32"], ne, a.tobytes()))
    return mtf.gguf_bytes(kvs, tensors)


def write(path, data):
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    small = "--small" in sys.argv
    out = args[0] if args else "."
    os.makedirs(out, exist_ok=True)
    c = config(small, shape_arg(sys.argv))
    w = weights(c)
    tag = file_tag(c, small)
    write(os.path.join(out, f"llama{tag}_f32.safetensors"), safetensors_file(w, c, False))
    write(os.path.join(out, f"llama{tag}_bf16.safetensors"), safetensors_file(w, c, True))
    write(os.path.join(out, f"llama{tag}_q8_0.gguf"), gguf_file(w, c))


if __name__ == "__main__":
    main()
