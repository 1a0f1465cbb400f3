#!/usr/bin/env bash
# run.sh — builds tl's libFuzzer targets with clang and runs each for a bounded time, then the shell
# fuzzer (fuzz_shell.py: random keys on a pty) on that build's tl; fails on any finding.
#
# usage: tests/fuzz/run.sh [TARGET...]          (default: every target; names as in tests/fuzz/meson.build,
#                                               and fuzz_shell)
# env:   TL_FUZZ_SECONDS  seconds of fuzzing per target (default 60; 0 only replays the corpora)
#        TL_FUZZ_SEED     libFuzzer's -seed, fuzz_shell's random seed (default: random, printed,
#                         so a run can be repeated)
#        TL_FUZZ_BUILD    the clang build folder (default build-fuzz)
#        TL_FUZZ_ARGS     more libFuzzer options, e.g. "-jobs=2 -workers=2"
#        TL_FUZZ_WORK     the scratch folder, emptied first (default BUILD/fuzz-work)
# Each target first replays its committed regression inputs (tests/fuzz/corpus/TARGET/), then
# fuzzes from those plus seeds made from the test suite. A crash, leak, sanitizer report, timeout
# or out-of-memory is a finding: the input is kept as WORK/TARGET/artifacts/* and the run fails.
# docs/fuzzing.md says how a finding becomes a regression input.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
seconds="${TL_FUZZ_SECONDS:-60}"
build="${TL_FUZZ_BUILD:-$root/build-fuzz}"
case "$build" in /*) ;; *) build="$root/$build" ;; esac
work="${TL_FUZZ_WORK:-$build/fuzz-work}"

# ---- build: a separate clang build with libFuzzer, ASan and UBSan (every UBSan report is fatal)
if [ ! -d "$build" ]; then
  CC=clang meson setup "$build" "$root" -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false \
    -Dc_args=-fno-sanitize-recover=all --buildtype=debugoptimized >/dev/null
fi
# every target: the language's three and one loader per file format (the fuzz_load_* that
# tests/fuzz/meson.build makes from the format list; build.ninja first reconfigures if it changed)
ninja -C "$build" build.ninja >/dev/null
mapfile -t all < <(meson introspect --targets "$build" | /usr/bin/python3 -c '
import json, sys
for t in json.load(sys.stdin):
    if t["name"].startswith("fuzz_") and t["type"] == "executable": print(t["name"])')
all+=(fuzz_shell)   # a Python program driving the build's tl on a pty, not a libFuzzer executable
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
libfuzzer=()
for t in "${targets[@]}"; do [ "$t" = fuzz_shell ] || libfuzzer+=("$t"); done
meson compile -C "$build" "${libfuzzer[@]}" src/tl:executable >/dev/null   # (libtl is a target named tl too)

# ---- seeds, made fresh: the golden and example programs, the test-file generator's files
rm -rf "$work"
mkdir -p "$work/seeds/program" "$work/seeds/files"
find "$root/tests/golden" "$root/examples" -name '*.tl' -size -8k -print0 |
  while IFS= read -r -d '' f; do rel="${f#"$root"/}"; cp "$f" "$work/seeds/program/${rel//\//_}"; done
/usr/bin/python3 "$root/tests/tools/make_test_files.py" "$work/files" >/dev/null 2>&1
# golden runner inputs (SOURCE \0 STDOUT \0 STDERR): the golden tests with their .out/.err, and
# some with the statement markers tl --mark-statements prints (each in its folder, as --test runs it)
mkdir -p "$work/seeds/golden"
find "$root/tests/golden" -name '*.tl' -size -8k -print0 | sort -z |
  while IFS= read -r -d '' f; do
    rel="${f#"$root"/}"; base="${f%.tl}"; seed="$work/seeds/golden/${rel//\//_}"
    { cat "$f"; printf '\0'; cat "$base.out" 2>/dev/null || true; printf '\0'; cat "$base.err" 2>/dev/null || true; } > "$seed"
  done
find "$root/tests/golden/lang" -name '*.tl' -size -2k -print0 | sort -z | {
  n=0   # the first 40 (no `head`: under pipefail its early exit would fail the run)
  while IFS= read -r -d '' f; do
    n=$((n + 1)); [ "$n" -le 40 ] || continue
    seed="$work/seeds/golden/marked_$(basename "$f")"
    ( cd "$(dirname "$f")"; cat "$f"; printf '\0'; timeout 10 "$build/src/tl" --mark-statements "$(basename "$f")" 2>"$seed.err" || true
      printf '\0'; cat "$seed.err" ) > "$seed" 2>/dev/null < /dev/null
    rm -f "$seed.err"
  done
}
# the builtin names, for the program dictionary
{ cat "$here/dict/tl.dict"
  "$build/src/tl" -e 'help()' | tail -n +2 | tr ' ' '\n' | grep -E '^[a-z_0-9]+$' | sed 's/.*/"&("/'
} > "$work/tl.dict"

# seeds_for TARGET FOLDER: fills FOLDER with the target's seed inputs
seeds_for() {
  case "$1" in
    fuzz_parse|fuzz_program) cp -r "$work/seeds/program/." "$2" ;;
    fuzz_golden) cp -r "$work/seeds/golden/." "$2" ;;
    fuzz_load_*)
      local ext="${1#fuzz_load_}"
      find "$work/files/good" "$work/files/bad" -name "*.$ext" -size -64k -exec cp -t "$2" {} + ;;
    fuzz_print) ;;   # the printer reads its whole input as parameters: random bytes are as good
  esac
}
# dict_for TARGET: the dictionary file
dict_for() {
  case "$1" in
    fuzz_parse|fuzz_program|fuzz_golden) echo "$work/tl.dict" ;;
    fuzz_load_csv|fuzz_load_txt) echo "$here/dict/text.dict" ;;
    fuzz_load_*) local d="$here/dict/${1#fuzz_load_}.dict"; [ ! -e "$d" ] || echo "$d" ;;   # a format may have none
    *) echo "" ;;
  esac
}
# max_len_for TARGET: the largest input libFuzzer makes
max_len_for() {
  case "$1" in
    fuzz_load_*) echo 65536 ;;
    fuzz_print) echo 4096 ;;
    *) echo 8192 ;;
  esac
}

export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:${UBSAN_OPTIONS:-}"
export LSAN_OPTIONS="suppressions=$here/lsan.supp:${LSAN_OPTIONS:-}"   # libraries' own caches, not tl's leaks
# run_libfuzzer TARGET DIR REGRESS LOG: replays the regression inputs, then fuzzes for $seconds
run_libfuzzer() {
  local t="$1" dir="$2" regress="$3" log="$4"
  seeds_for "$t" "$dir/seeds"
  local dict opts seed
  dict="$(dict_for "$t")"
  opts=(-max_len="$(max_len_for "$t")" -timeout=30 -rss_limit_mb=2560 -malloc_limit_mb=512
        -artifact_prefix="$dir/artifacts/" -print_final_stats=1)
  [ -n "$dict" ] && opts+=(-dict="$dict")
  # the target runs in its own folder: programs may save() there (and only there, see fuzz_common.c)
  (
    cd "$dir"
    export TMPDIR="$dir/tmp"
    if [ -d "$regress" ] && [ -n "$(ls -A "$regress")" ]; then
      "$build/tests/fuzz/$t" "${opts[@]}" -runs=0 "$regress" > "$log" 2>&1 || exit 1
    fi
    [ "$seconds" -gt 0 ] || exit 0
    seed=()
    [ -n "${TL_FUZZ_SEED:-}" ] && seed=(-seed="$TL_FUZZ_SEED")
    # new inputs go to corpus/ (the first folder); the seeds and regression inputs are only read
    # shellcheck disable=SC2086
    "$build/tests/fuzz/$t" "${opts[@]}" "${seed[@]}" -max_total_time="$seconds" ${TL_FUZZ_ARGS:-} \
      corpus seeds $( [ -d "$regress" ] && echo "$regress" ) >> "$log" 2>&1
  ) < /dev/null   # a program reading /dev/stdin (include, load) must not wait
}

# run_shell_fuzzer DIR REGRESS LOG: replays corpus/fuzz_shell/*.json, then types random keys into
# the build's tl on a pty for $seconds (it prints its totals as libFuzzer does)
run_shell_fuzzer() {
  local dir="$1" regress="$2" log="$3"
  ( cd "$dir"
    /usr/bin/python3 "$here/fuzz_shell.py" --tl "$build/src/tl" --seconds "$seconds" --corpus "$regress" \
      --artifacts "$dir/artifacts" --work "$dir/tmp" ${TL_FUZZ_SEED:+--seed "$TL_FUZZ_SEED"}
  ) > "$log" 2>&1 < /dev/null
}

failed=()
summary=()
for t in "${targets[@]}"; do
  dir="$work/$t"
  mkdir -p "$dir/corpus" "$dir/seeds" "$dir/artifacts" "$dir/tmp"
  regress="$here/corpus/$t"
  log="$dir/log.txt"
  status=0
  if [ "$t" = fuzz_shell ]; then
    run_shell_fuzzer "$dir" "$regress" "$log" || status=$?
  else
    run_libfuzzer "$t" "$dir" "$regress" "$log" || status=$?
  fi
  runs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)"
  secs="$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | tail -1 | grep -o 'in [0-9]*' | grep -o '[0-9]*' || true)"
  used_seed="$(grep -o 'INFO: Seed: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)"
  found="$(ls "$dir/artifacts" | wc -l)"
  if [ "$status" -ne 0 ] || [ "$found" -ne 0 ]; then
    failed+=("$t")
    echo "== $t: FINDING (exit $status); log: $log" >&2
    grep -E 'ERROR: |runtime error:|SUMMARY:|Test unit written to' "$log" | head -20 >&2 || true
  fi
  summary+=("$(printf '%-24s %10s runs %5s s  seed %-11s findings %s' "$t" "${runs:-?}" "${secs:-?}" "${used_seed:-?}" "$found")")
done
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzzing found something in: ${failed[*]} (inputs under $work/TARGET/artifacts; docs/fuzzing.md)" >&2
  exit 1
fi
