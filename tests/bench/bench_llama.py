#!/usr/bin/python3
"""bench_llama.py — tokens per second of examples/llama.tl (f32, bf16, Q8_0, Q4_K) and of numpy, same run.

Usage: bench_llama.py TL [WORKDIR] [STEPS] [ROUNDS] [--shape=110M]

Writes the random stories15M-shaped model (tests/tools/make_llama.py) into WORKDIR
(default /tmp/tl_bench_llama), and a Q4_K file of it (its 288-column matrices Q5_0, as
llama.cpp falls back when rows are not whole superblocks: only ffn_down is Q4_K); with
--shape=110M the stories110M-shaped one instead (every matrix Q4_K in its Q4_K file, 7x the
weights: 440 MB of f32, more than the caches hold). Decodes STEPS (200) greedy tokens with tl on each file and
with the plain numpy reference (tests/tools/llama_ref.py: matrix-vector products through
@, attention through einsum) on the f32 weights, and prints the ratios. For f32 it also
prints weight bytes per token x tokens/s / read bandwidth, the bandwidth being the best
of five tl sum() calls over a 256 MiB f32 tensor measured in the same run. Each figure is
the best of ROUNDS (3) rounds, each round running every case once in turn, so that a
burst of load elsewhere on a shared machine hits all of them alike. Timings on a shared
machine are still noisy: compare ratios, and run twice.
"""
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOOLS = os.path.join(HERE, "..", "tools")
sys.path.insert(0, TOOLS)
import llama_ref  # noqa: E402
import make_llama  # noqa: E402

BANDWIDTH_TL = """
x = ones(67108864, dtype=f32)
sum(x);
best = 1e9
for i in range(5) {
    t = time(fn() = sum(x))
    if t < best { best = t }
}
print(best)
"""


def tl_tokens_per_s(tl, path, steps):
    r = subprocess.run([tl, os.path.join(HERE, "..", "..", "examples", "llama.tl"), path, str(steps), "1", "450"],
                       capture_output=True, text=True, check=True)
    return float(re.search(r"([0-9.]+) tokens/s", r.stdout).group(1))


def main():
    argv = [a for a in sys.argv if not a.startswith("--")]
    tl = argv[1]
    work = argv[2] if len(argv) > 2 else "/tmp/tl_bench_llama"
    steps = int(argv[3]) if len(argv) > 3 else 200
    rounds = int(argv[4]) if len(argv) > 4 else 3
    shape = make_llama.shape_arg(sys.argv)
    c = make_llama.config(shape=shape)
    tag = make_llama.file_tag(c)
    if not os.path.exists(os.path.join(work, f"llama{tag}_q8_0.gguf")):
        sys.argv = ["make_llama.py", work, f"--shape={shape}"]
        make_llama.main()
    w = make_llama.weights(c)
    q4k = os.path.join(work, f"llama{tag}_q4_k.gguf")
    if not os.path.exists(q4k):
        make_llama.write(q4k, make_llama.gguf_file(w, c, "Q4_K"))
    f32_bytes = sum(a.nbytes for k, a in w.items() if a.ndim == 2 and k != "token_embd.weight")
    files = [("f32", f"llama{tag}_f32.safetensors"), ("bf16", f"llama{tag}_bf16.safetensors"),
             ("q8_0", f"llama{tag}_q8_0.gguf"), ("q4_k", f"llama{tag}_q4_k.gguf")]
    model = llama_ref.Llama(c, llama_ref.load_weights(c, "f32"))
    rates = {k: 0.0 for k, _ in files}
    np_rate = bw = 0.0
    for _ in range(rounds):
        for k, f in files:
            rates[k] = max(rates[k], tl_tokens_per_s(tl, os.path.join(work, f), steps))
        model.kc[:] = 0
        model.vc[:] = 0
        t0 = time.perf_counter()
        llama_ref.decode(model, [1, 450], steps)
        np_rate = max(np_rate, steps / (time.perf_counter() - t0))
        r = subprocess.run([tl, "-e", BANDWIDTH_TL], capture_output=True, text=True, check=True)
        bw = max(bw, 67108864 * 4 / float(r.stdout.split()[-1]))
    bound = bw / f32_bytes
    print(f"stories{shape}-shaped model, tokens/s for {steps} greedy tokens (best of {rounds} rounds): tl f32 {rates['f32']:.1f}, "
          f"tl bf16 {rates['bf16']:.1f}, tl Q8_0 {rates['q8_0']:.1f}, tl Q4_K {rates['q4_k']:.1f}, "
          f"numpy f32 {np_rate:.1f}")
    print(f"tl f32 / numpy        {rates['f32'] / np_rate:.2f}  (target >= 2)")
    print(f"tl bf16 / tl f32      {rates['bf16'] / rates['f32']:.2f}  (target >= 1.5)")
    print(f"tl Q8_0 / tl f32      {rates['q8_0'] / rates['f32']:.2f}  (target >= 2)")
    print(f"tl Q4_K / tl Q8_0     {rates['q4_k'] / rates['q8_0']:.2f}  (target >= 1.2)")
    print(f"f32 weights {f32_bytes / 1e6:.1f} MB per token; read bandwidth (tl sum) {bw / 1e9:.1f} GB/s "
          f"bounds f32 at {bound:.0f} tokens/s; tl f32 reaches {rates['f32'] / bound:.0%} (target >= 60%)")


if __name__ == "__main__":
    main()
