#!/usr/bin/python3
"""llama_ref.py — the forward pass of examples/llama.tl in plain numpy, for tests and benchmarks.

Usage: llama_ref.py [--small] [--weights f32|bf16|q8_0|q4_k] [--steps N] [--prompt 1,2,3]
                    [--logits OUT.npy] [--bench]

It rebuilds the weights make_llama.py writes (same seed), as the file of --weights holds
them: f32 as they are, bf16 rounded, q8_0 and q4_k quantized and dequantized (norms stay
f32; q4_k's matrices of 288 columns are Q5_0, make_llama.matrix_type),
then decodes greedily: the prompt ids first, then the argmax of each step's logits.
Prints the ids on one line; --logits saves the (steps, vocab) f32 logits; --bench also
prints "tokens/s X". Matrix-vector products go through @, attention through einsum.
"""
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_llama  # noqa: E402
import make_test_files as mtf  # noqa: E402


def load_weights(c, kind):
    w = make_llama.weights(c)
    if kind == "bf16":
        w = {k: (make_llama.bf16_bits(a).astype(np.uint32) << 16).view(np.float32) for k, a in w.items()}
    elif kind in ("q8_0", "q4_k"):
        w = {k: quantized(a, make_llama.matrix_type(kind.upper(), a.shape[1])) if a.ndim == 2 else a
             for k, a in w.items()}
    return w


def quantized(a, t):
    """Matrix a quantized to ggml type t and dequantized, as a file of that type holds it."""
    return mtf.DEQUANT[t](mtf.QUANT[t](a.reshape(-1))).reshape(a.shape).astype(np.float32)


def rms_norm(x, w, eps):
    return (x / np.sqrt(np.mean(x * x) + np.float32(eps)) * w).astype(np.float32)


class Llama:
    def __init__(self, c, w):
        self.c, self.w = c, w
        self.hd = c["dim"] // c["heads"]
        kvd = c["kv_heads"] * self.hd
        self.kc = np.zeros((c["layers"], c["seq"], kvd), np.float32)
        self.vc = np.zeros((c["layers"], c["seq"], kvd), np.float32)
        freqs = c["theta"] ** (-np.arange(0, self.hd, 2, dtype=np.float64) / self.hd)
        ang = np.outer(np.arange(c["seq"]), freqs)
        self.cos, self.sin = np.cos(ang).astype(np.float32), np.sin(ang).astype(np.float32)

    def rope(self, v, pos):
        """Rotates each pair (2i, 2i + 1) of every head by pos * theta^(-2i / head size)."""
        r = v.reshape(-1, self.hd // 2, 2)
        a, b = r[..., 0], r[..., 1]
        cs, sn = self.cos[pos], self.sin[pos]
        return np.stack([a * cs - b * sn, a * sn + b * cs], -1).reshape(-1)

    def forward(self, tok, pos):
        c, w, hd = self.c, self.w, self.hd
        H, KV = c["heads"], c["kv_heads"]
        x = w["token_embd.weight"][tok].copy()
        for i in range(c["layers"]):
            p = f"blk.{i}."
            xb = rms_norm(x, w[p + "attn_norm.weight"], c["eps"])
            q = self.rope(w[p + "attn_q.weight"] @ xb, pos)
            self.kc[i, pos] = self.rope(w[p + "attn_k.weight"] @ xb, pos)
            self.vc[i, pos] = w[p + "attn_v.weight"] @ xb
            k = self.kc[i, :pos + 1].reshape(pos + 1, KV, hd).repeat(H // KV, 1)
            v = self.vc[i, :pos + 1].reshape(pos + 1, KV, hd).repeat(H // KV, 1)
            s = np.einsum("hd,thd->ht", q.reshape(H, hd), k) / np.float32(np.sqrt(hd))
            s = np.exp(s - s.max(-1, keepdims=True))
            s /= s.sum(-1, keepdims=True)
            o = np.einsum("ht,thd->hd", s, v).reshape(-1)
            x += w[p + "attn_output.weight"] @ o
            xb = rms_norm(x, w[p + "ffn_norm.weight"], c["eps"])
            g = w[p + "ffn_gate.weight"] @ xb
            u = w[p + "ffn_up.weight"] @ xb
            x += w[p + "ffn_down.weight"] @ (g / (1 + np.exp(-g)) * u)
        return w["output.weight"] @ rms_norm(x, w["output_norm.weight"], c["eps"])


def decode(model, prompt, steps):
    """Ids of positions 0..steps and the logits of each step."""
    ids, logits = list(prompt[:1]), []
    for pos in range(steps):
        lg = model.forward(ids[pos], pos)
        logits.append(lg)
        ids.append(prompt[pos + 1] if pos + 1 < len(prompt) else int(np.argmax(lg)))
    return ids, np.array(logits, np.float32)


def main():
    a = sys.argv[1:]

    def opt(name, default):
        return a[a.index(name) + 1] if name in a else default

    c = make_llama.config("--small" in a)
    steps = int(opt("--steps", "32"))
    prompt = [int(t) for t in opt("--prompt", "1").split(",")]
    model = Llama(c, load_weights(c, opt("--weights", "f32")))
    t0 = time.perf_counter()
    ids, logits = decode(model, prompt, steps)
    dt = time.perf_counter() - t0
    print(" ".join(str(i) for i in ids))
    if "--logits" in a:
        np.save(opt("--logits", ""), logits)
    if "--bench" in a:
        print(f"tokens/s {steps / dt:.1f}")


if __name__ == "__main__":
    main()
