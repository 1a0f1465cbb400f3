#!/usr/bin/python3
"""test_llama.py — examples/llama.tl against the numpy reference (tests/tools/llama_ref.py).

Usage: test_llama.py TL WORKDIR

Writes the stories15M-shaped random model in three files (make_llama.py) into WORKDIR,
runs the example on each for 32 greedy steps from a two-token prompt, and checks:
f32 and bf16: the logits of the first 16 positions within 1e-4 of numpy's (computed from
the same f32 or bf16-rounded weights) and the same 33 ids; Q8_0: the logits within 5e-2
of numpy's on the dequantized weights and the same first 17 ids (tl multiplies Q8_0
blocks by a Q8_0-quantized activation, as ggml does, so its logits differ from exact ones
by that rounding: about 2e-2 over six layers, and a near tie may later pick another id).
"""
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import llama_ref  # noqa: E402
import make_llama  # noqa: E402

STEPS, PROMPT, CHECKED = 32, [1, 450], 16
FILES = {"f32": "llama_f32.safetensors", "bf16": "llama_bf16.safetensors", "q8_0": "llama_q8_0.gguf"}
TOL = {"f32": 1e-4, "bf16": 1e-4, "q8_0": 5e-2}


def run_tl(tl, path, out):
    args = [tl, os.path.join(HERE, "..", "..", "examples", "llama.tl"), path, str(STEPS)]
    r = subprocess.run(args + [str(p) for p in PROMPT] + ["--logits", out], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"tl failed on {path}:\n{r.stdout}{r.stderr}")
    text = r.stdout.split("]")[0].strip(" [\n")
    return [int(t) for t in text.split()], r.stdout


def main():
    tl, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    sys.argv = ["make_llama.py", work]
    make_llama.main()
    c = make_llama.config()
    failed = 0
    for kind, name in FILES.items():
        ids, out = run_tl(tl, os.path.join(work, name), os.path.join(work, f"logits_{kind}.npy"))
        got = np.load(os.path.join(work, f"logits_{kind}.npy"))
        ref_ids, ref = llama_ref.decode(llama_ref.Llama(c, llama_ref.load_weights(c, kind)), PROMPT, STEPS)
        err = float(np.abs(got[:CHECKED] - ref[:CHECKED]).max())
        ok = err <= TOL[kind] and got.shape == ref.shape
        if ids[:CHECKED + 1] != ref_ids[:CHECKED + 1] or (kind != "q8_0" and ids != ref_ids):
            ok = False
        print(f"{kind}: max |logit difference| over {CHECKED} positions {err:.3g} (limit {TOL[kind]:g}); "
              f"ids {'equal' if ids == ref_ids else 'differ'}: {'ok' if ok else 'FAILED'}")
        if not ok:
            print("tl:   ", ids, "\nnumpy:", ref_ids, "\n" + out)
            failed += 1
    print(f"{3 - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
