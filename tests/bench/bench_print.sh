#!/usr/bin/env bash
# bench_print.sh — str() of a summarized (1000, 1000) f64 tensor, tl against numpy in one run;
# each side reports its best time per call over several rounds; prints the ratio numpy/tl.
# usage: bench_print.sh PATH/TO/tl
set -euo pipefail
tl="$1"
tl_us=$("$tl" -e '
x = randn(1000, 1000)
fn many(n) { for i in range(n) { s = str(x) } }
best = 1e9
for r in range(7) { best = minimum(best, time(fn() = many(2000)) / 2000) }
print(best * 1e6)')
np_us=$(/usr/bin/python3 -c '
import numpy as np, timeit
x = np.random.randn(1000, 1000)
print(min(timeit.repeat(lambda: str(x), number=200, repeat=7)) / 200 * 1e6)')
echo "str of summarized (1000, 1000) f64: tl ${tl_us} us  numpy ${np_us} us  ratio numpy/tl = $(echo "$np_us $tl_us" | awk '{printf "%.1f", $1 / $2}')"
