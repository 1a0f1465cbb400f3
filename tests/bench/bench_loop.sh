#!/usr/bin/env bash
# bench_loop.sh — interpreter speed: the SPEC loop `s = s + i` over range(N) in tl and in CPython,
# run alternately (ROUNDS times each) in one run; prints the best CPU time of each and the ratio.
# usage: bench_loop.sh PATH/TO/tl [N=1000000] [ROUNDS=7]
set -euo pipefail
tl="$1"; n="${2:-1000000}"; rounds="${3:-7}"
py=/usr/bin/python3
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
printf 's = 0.0; for i in range(%s) { s = s + i }\nprint(s)\n' "$n" > "$work/loop.tl"
printf 's = 0.0\nfor i in range(%s):\n    s = s + i\nprint(s)\n' "$n" > "$work/loop.py"
# CPU seconds (user+sys) of one run of a command
cpu() { /usr/bin/time -f "%U %S" "$@" 2>&1 >/dev/null | tail -1 | awk '{print $1 + $2}'; }
best_tl=999; best_py=999
for _ in $(seq "$rounds"); do
  t=$(cpu "$tl" "$work/loop.tl"); best_tl=$(echo "$t $best_tl" | awk '{print ($1 < $2) ? $1 : $2}')
  p=$(cpu "$py" "$work/loop.py"); best_py=$(echo "$p $best_py" | awk '{print ($1 < $2) ? $1 : $2}')
done
[ "$("$tl" "$work/loop.tl")" = "$("$py" "$work/loop.py")" ] || { echo "results differ"; exit 1; }
echo "loop of $n: tl ${best_tl}s  cpython ${best_py}s  ratio cpython/tl = $(echo "$best_py $best_tl" | awk '{printf "%.2f", $1 / ($2 > 0 ? $2 : 0.001)}')"
