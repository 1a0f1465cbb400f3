import numpy as np
from tlfmt import p, show
import bf16
show_b = lambda a: print(bf16.echo(a))
x = [1.0, 1.00390625, 1.01171875, 1.0078125, -2.5]
show_b(x)
show(bf16.bits(x))
show(bf16.bits(-0.0))
d = 1 + 2 ** -8 + 2 ** -40
p(bf16.bits([d])[0], bf16.bits([np.float32(d)])[0])
show_b([0.1, 0.2, 1.0 / 3.0, 100.0, 257.0, 65504.0])
show_b([3.4e38, -3.4e38, 3.3e38, np.nan, np.inf])
with np.errstate(invalid="ignore"):
    nan = np.float64(0.0) / np.float64(0.0)   # x86's default NaN has the sign bit set, in numpy as in C
show(bf16.bits([nan, 3.4e38]))
# f32 sNaN 0x7F800001 and qNaN 0x7FC00000: the quiet bit is forced, so both give 0x7FC0 (not inf)
show(np.array([0x7F800001 >> 16 | 0x40, 0x7FC00000 >> 16 | 0x40], np.uint16))
show_b(0.1)
show_b(3.0)
show_b(1.0 / 3.0)
show(np.float32(bf16.to_bf16(0.1)))
show(bf16.to_bf16([0.1, 1.0 / 3.0]))
show(bf16.to_bf16([2.5, -3.75, 300.0]).astype(np.int32))
with np.errstate(over="ignore"):
    show(bf16.to_bf16([0.1, 65504.0]).astype(np.float16))
show_b(np.array([0.1, 6e-05], np.float16).astype(np.float64))
show_b([1, 255, 257, 16777217])
show_b(np.array([2.0, 3.0]))
show_b(bf16.to_bf16([256.0]) + 1)
show_b(bf16.to_bf16([1.5]) * 2.5)
show("f32")
show(bf16.to_bf16([1.5]).astype(np.float32) * np.array([2.0], np.float32))
show(bf16.to_bf16([1.5]) + np.array([0.25]))
show_b(bf16.to_bf16([2.0]) + 1)
show_b(np.sum(np.ones(1000, np.float32)))      # accumulated in f32, then rounded once to bf16
show_b(np.mean(np.array([1.0, 2.0], np.float32)))
show_b([1.5, 2.25])
