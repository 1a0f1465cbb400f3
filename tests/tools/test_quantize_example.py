#!/usr/bin/python3
"""test_quantize_example.py — examples/quantize.tl on make_llama.py's small f32 model.

Usage: test_quantize_example.py TL WORKDIR

The example must write three GGUF files that test_gguf_write.py's parser reads, with llama.cpp's
types (matrices in the file's type, or its fallback where rows are not whole 256-element blocks;
norm vectors F32) and metadata keys (u32 hyperparameters, f32 epsilon and rope base, the file
type), print a comparison per file, run llama.tl on every file, and print the logits' distance:
Q8_0's logits within 5% of the f32 model's (relative error) with the same greedy tokens.
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_gguf_write as gw  # noqa: E402  (its GGUF parser)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def main():
    tl, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    os.makedirs(work, exist_ok=True)
    subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "tests/tools/make_llama.py"), work, "--small"], check=True,
                   capture_output=True)
    r = subprocess.run([tl, os.path.join(ROOT, "examples/quantize.tl"), os.path.join(work, "llama_small_f32.safetensors"),
                        work, "6"], capture_output=True, text=True, timeout=600)
    check(r.returncode == 0 and not r.stderr, "the example ran: %s" % r.stderr[-2000:])
    types = {"q8_0": (8, 8), "q4_k": (12, 6), "q6_k": (14, 8)}   # ggml ids: the type, its fallback
    for q, (full, fall) in types.items():
        kv, tensors, _ = gw.parse(open(os.path.join(work, "model_%s.gguf" % q), "rb").read())
        for name, gt, shape, _ in tensors:
            want = 0 if len(shape) == 1 else full if shape[-1] % 256 == 0 else fall
            check(gt == want, "%s: %s %s is ggml type %d, not %d" % (q, name, shape, gt, want))
        check(kv.get("general.architecture") == ("str", "llama") and kv.get("llama.block_count") == (4, 2)
              and kv.get("llama.attention.layer_norm_rms_epsilon", (0,))[0] == 6
              and kv.get("general.file_type") == (4, {"q8_0": 7, "q4_k": 15, "q6_k": 18}[q]),
              "%s: llama.cpp's metadata keys and types: %r" % (q, kv))
        check(("---- %s:" % q) in r.stdout and "lowest SNR:" in r.stdout, "%s: compare printed" % q)
    m = re.search(r"q8_0: max \|diff\| \S+, rel error (\S+), cosine (\S+), same greedy token at (\d+) of 6", r.stdout)
    check(m and float(m.group(1)) < 0.05 and float(m.group(2)) > 0.999 and m.group(3) == "6",
          "Q8_0's logits close to f32's: %s" % (m.group(0) if m else r.stdout[-800:]))
    for q in ("q4_k", "q6_k"):
        check(re.search(r"^%s: max \|diff\| .* of 6 positions$" % q, r.stdout, re.M), "%s: logits line" % q)
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
