#!/usr/bin/env bash
# test_cli.sh — the command line (docs/language.md, "Running tl"): exit codes, -e, stdin, argv, --test, and inputs that must not crash.
# usage: test_cli.sh PATH/TO/tl SOURCE_ROOT
set -u
tl="$1"
src="$2"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
pass=0 fail=0

# check NAME EXPECTED_STATUS EXPECTED_STDOUT_SUBSTRING EXPECTED_STDERR_SUBSTRING -- command...
check() {
  local name="$1" want_status="$2" want_out="$3" want_err="$4"; shift 5
  "$@" >"$work/out" 2>"$work/err" </dev/null
  local st=$?
  local ok=1
  [ "$st" -eq "$want_status" ] || ok=0
  [ -z "$want_out" ] || grep -qF -- "$want_out" "$work/out" || ok=0
  [ -z "$want_err" ] || grep -qF -- "$want_err" "$work/err" || ok=0
  if [ "$ok" -eq 0 ]; then
    echo "FAIL $name: status $st (want $want_status)"; echo "--- stdout:"; head -c 2000 "$work/out"; echo "--- stderr:"; head -c 2000 "$work/err"
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
}

check version 0 "tl " "" -- "$tl" --version
check help 0 "usage:" "" -- "$tl" --help

# --help names every environment variable the sources read, found here by grep so that a new
# getenv without a line in the help fails this test
env_names=$(grep -rhoE --include='*.[ch]' --include='*.re' '(secure_)?getenv\("[A-Za-z_][A-Za-z0-9_]*"\)' \
              "$src/src" "$src/runtime" "$src/stdlib" "$src/lexer" | sed -E 's/.*\("([^"]*)"\)/\1/' | sort -u)
check env_names_found 0 "" "" -- test "$(printf '%s\n' $env_names | wc -l)" -ge 5
"$tl" --help > "$work/help.txt" 2>&1
for name in $env_names; do
  check "help_names_$name" 0 "" "" -- grep -qE "^ +$name( |=)" "$work/help.txt"
done
check bad_option 2 "" "unknown option" -- "$tl" --bogus
check e_runs 0 "3" "" -- "$tl" -e 'print(1 + 2)'
check e_error_status 1 "" "<-e>:1:7: error[Error]: name 'nope' is not defined" -- "$tl" -e 'print(nope)'
check e_missing_code 2 "" "usage" -- "$tl" -e
check e_argv 0 "('a', 'b c')" "" -- "$tl" -e 'print(argv)' a "b c"
printf 'print(argv)\n' > "$work/args.tl"
check script_argv 0 "('x', '--y')" "" -- "$tl" "$work/args.tl" x --y
check missing_file 1 "" "cannot open" -- "$tl" "$work/nope.tl"
# BLAS, LAPACKE and cairo are opened on first use: a program that needs none runs without them,
# and one that needs a missing one gets a catchable FileError naming the variable to set
check lazy_blas_unused 0 "6" "" -- env TL_BLAS_LIBRARY=/nonexistent/libblas.so TL_LAPACKE_LIBRARY=/nonexistent/liblapacke.so \
  TL_CAIRO_LIBRARY=/nonexistent/libcairo.so "$tl" -e 'print(sum(ones(2, 3)))'
check lazy_blas_missing 1 "" "<-e>:1:20: error[FileError]: BLAS is needed here, but /nonexistent/libblas.so cannot be loaded" -- \
  env TL_BLAS_LIBRARY=/nonexistent/libblas.so "$tl" -e 'y = ones(300, 300) @ ones(300, 300)'
check lazy_blas_catch 0 "FileError BLAS is needed here" "" -- env TL_BLAS_LIBRARY=/nonexistent/libblas.so "$tl" -e \
  'try { ones(300, 300) @ ones(300, 300) } catch e { print(e.kind, e.message) }'
check lazy_lapacke_missing 1 "" "LAPACKE is needed here, but libm.so.6 has no LAPACKE_" -- \
  env TL_LAPACKE_LIBRARY=libm.so.6 "$tl" -e 'print(det([[1.0, 2], [3, 4]]))'
check lazy_sleef_missing 0 "[1.        2.7182817 7.389056 ]" "" -- env TL_SLEEF_LIBRARY=/nonexistent/libsleef.so \
  "$tl" -e 'print(exp(f32([0, 1, 2])))'
check lazy_blas_present 0 "-2.0" "" -- "$tl" -e 'print(det([[1.0, 2], [3, 4]]))'
# randomness: a fresh seed per run (as numpy), TL_SEED=N for a whole run, seed(n) inside one,
# and tl --test's fixed seed 0 whatever TL_SEED says
draw='print(randn(4)); print(randint(0, 1000000, size=3))'
a=$("$tl" -e "$draw"); b=$("$tl" -e "$draw")
check seed_fresh_each_run 0 "" "" -- test "$a" != "$b"
a=$(env TL_SEED=12345 "$tl" -e "$draw"); b=$(env TL_SEED=12345 "$tl" -e "$draw"); c=$(env TL_SEED=12346 "$tl" -e "$draw")
check seed_env_repeats 0 "" "" -- test "$a" = "$b" -a "$a" != "$c"
a=$("$tl" -e "seed(7); $draw"); b=$("$tl" -e "seed(7); $draw")
check seed_call_repeats 0 "" "" -- test "$a" = "$b"
check seed_env_bad 2 "" "TL_SEED must be a non-negative integer" -- env TL_SEED=-1 "$tl" -e '1'
printf 'print(rand(3))
' > "$work/seeded.tl"
env TL_SEED=0 "$tl" "$work/seeded.tl" > "$work/seeded.out"
check seed_test_fixed 0 "1 passed" "" -- env TL_SEED=999 "$tl" --test "$work/seeded.tl"
check stdin_program 0 "42" "" -- bash -c "printf 'x = 40\nx + 2\n' | '$tl'"
check stdin_error 1 "" "<stdin>:1:1: error" -- bash -c "printf '\$\n' | '$tl'"

# hostile inputs: each must end with a clean error (status 1) or success, never a signal
python3 -c "print('(' * 100000 + '1' + ')' * 100000)" > "$work/parens.tl"
check nesting_100k 1 "" "nesting too deep" -- "$tl" "$work/parens.tl"
python3 -c "print('s = \"' + 'a' * 1000000 + '\"'); print('print(len(s))'); print('x = [' + '1,' * 200000 + '1]'); print('print(x.size)')" > "$work/long.tl"
check line_1mb 0 "1000000" "" -- "$tl" "$work/long.tl"
printf 'x = 1\x00\n' > "$work/nul.tl"
check nul_byte 1 "" "invalid character" -- "$tl" "$work/nul.tl"
printf 'x = "ok \xff"\ny = \xc3\x28\n' > "$work/utf8.tl"
check invalid_utf8 1 "" "invalid character" -- "$tl" "$work/utf8.tl"
# an error's source line shows each byte of invalid UTF-8 as '?' (here an encoded surrogate), valid characters as they are
printf 'x = "\xed\xa0\x80\xc3\xa9" + 1\n' > "$work/utf8_line.tl"
check invalid_utf8_shown 1 "" "$(printf '  x = "???\xc3\xa9" + 1')" -- "$tl" "$work/utf8_line.tl"
printf 's = "never closed\n' > "$work/unterminated.tl"
check unterminated_string 1 "" "unterminated string" -- "$tl" "$work/unterminated.tl"
printf 'x = ((([1, 2)\n' > "$work/unbalanced.tl"
check unbalanced 1 "" "error" -- "$tl" "$work/unbalanced.tl"
printf 'fn f(n) = f(n + 1)\nf(0)\n' > "$work/rec.tl"
check infinite_recursion 1 "" "recursion too deep" -- "$tl" "$work/rec.tl"
printf 'fn f(n) { return g(n) }\nfn g(n) { return f(n) }\nf(1)\n' > "$work/mutual.tl"
check mutual_recursion 1 "" "recursion too deep" -- "$tl" "$work/mutual.tl"
head -c 20000 /dev/urandom > "$work/random.tl"
"$tl" "$work/random.tl" >/dev/null 2>&1 </dev/null; st=$?
if [ $st -ge 128 ]; then echo "FAIL random_bytes: signal $((st - 128))"; fail=$((fail + 1)); else pass=$((pass + 1)); fi

# deep nesting on the ordinary 8 MB stack (under ulimit -v tl cannot map its 1 GiB stack):
# releasing a tuple or dict nested 1,000,000 deep nests no calls (it overflowed the stack), and
# printing one is a RecursionError. A sanitizer build cannot start under ulimit -v (its shadow
# memory is reserved up front), so there these checks are skipped.
if (ulimit -v 800000; "$tl" -e 'print(1)') >/dev/null 2>&1; then
  small_stack() { bash -c 'ulimit -v 800000; ulimit -s 8192; "$0" -e "$1"' "$tl" "$1"; }
  check deep_tuple_release 0 "released" "" -- small_stack 't = (); for i in range(1000000) { t = (t, i) }; t = 0; print("released")'
  check deep_dict_release 0 "released" "" -- small_stack 'd = {}; for i in range(1000000) { e = {}; e["d"] = d; d = e }; d = 0; e = 0; print("released")'
  check deep_tuple_print 1 "" "a value nested too deeply to print (more than 1000 levels)" -- small_stack 't = (); for i in range(1000000) { t = (t,) }; print(t)'

  # BLAS under a memory limit: OpenBLAS retried its 128 MiB buffer forever (150 MB: the product
  # never returned) and its exit joined a worker stuck so (250 MB: the product, then a hang).
  # Each run must end by itself with a MemoryError or a result, whatever the limit.
  limited() { bash -c 'ulimit -v "$1"; timeout 60 "$0" -e "$2"' "$tl" "$1" "$2"; }
  check blas_limit_error 0 "MemoryError out of memory" "" -- limited 150000 \
    'try { x = ones(100, 100) @ ones(100, 100) } catch e { print(e.kind, e.message) }'
  check blas_limit_product 0 "1000000.0" "" -- limited 250000 'print(sum(ones(100, 100) @ ones(100, 100)))'
  blas_program='threads(2); for t in range(2) { for f in (fn() = ones(600, 600) @ ones(600, 600), fn() = inv(eye(300) * 2.0),
    fn() = eigh(eye(200))[0], fn() = ones(3000, 100) @ ones(100, 50)) { try { f() } catch e { assert(e.kind == "MemoryError") } } }
    print("end")'
  for kb in 60000 140000 220000 300000 380000 460000 540000 620000 700000 780000 860000; do
    check "blas_limit_$kb" 0 "end" "" -- limited "$kb" "$blas_program"
  done
else
  echo "skipped deep nesting on a small stack and BLAS under a memory limit: this build cannot start under ulimit -v"
fi

# a 0-d value has no axis to sort along: numpy's axis error, and the value is not read after it is released
check sort_0d 1 "" "sort(): axis 0 is out of bounds for tensor of dimension 0" -- "$tl" -e 'sort(0, 0)'
check argsort_0d 1 "" "argsort(): axis -1 is out of bounds for tensor of dimension 0" -- "$tl" -e 'argsort(0.5)'
check topk_0d 1 "" "topk(): axis -1 is out of bounds for tensor of dimension 0" -- "$tl" -e 'topk(0.5, 1)'

# a builtin's parameter given positionally and by keyword is refused, as for user functions
check norm_multiple_values 1 "" "norm() got multiple values for argument 'axis'" -- "$tl" -e 'x = ones(2, 2); print(norm(x, 1, 0, axis=1))'
check sort_multiple_values 1 "" "sort() got multiple values for argument 'axis'" -- "$tl" -e 'print(sort([3, 1], 0, axis=0))'
check topk_multiple_values 1 "" "topk() got multiple values for argument 'k'" -- "$tl" -e 'print(topk([3, 1], 1, k=1))'
check concat_axis_twice 1 "" "concat() got multiple values for argument 'axis'" -- "$tl" -e 'x = ones(2); print(concat((x, x), 0, axis=0))'
check varargs_axis_keyword 0 "[1. 1. 1. 1.]" "" -- "$tl" -e 'x = ones(2); print(concat(x, x, axis=0))'

# include() in a loop: each run's parsed program is dropped once it ran cleanly
# (a function defined in it keeps its own), so memory stays flat: 20000 includes
# peaked at 166 MB when every source was kept. ASan's quarantine is capped so
# freed memory is not counted as live.
printf 'x = 1\nfn f(a) = a * 2\n' > "$work/part.tl"
printf 'for i in range(20000) { include("part.tl") }\nprint(f(21))\n' > "$work/loop_include.tl"
peak_kb=$(ASAN_OPTIONS="${ASAN_OPTIONS:-}:quarantine_size_mb=8" python3 -c '
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], capture_output=True, text=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if r.stdout.strip() == "42" else -1)' "$tl" "$work/loop_include.tl")
check include_loop_memory_flat 0 "" "" -- test "$peak_kb" -gt 0 -a "$peak_kb" -lt 60000

# --test itself: a passing and a failing golden test, a diff, the summary line and exit status
mkdir -p "$work/g"
printf 'print(1)\n' > "$work/g/ok.tl"; printf '1\n' > "$work/g/ok.out"
printf 'print(2)\n' > "$work/g/bad.tl"; printf '3\n' > "$work/g/bad.out"
check golden_fail 1 "1 passed, 1 failed" "" -- "$tl" --test "$work/g"
check golden_diff 1 "+2" "" -- "$tl" --test "$work/g"
check golden_diff_minus 1 "-3" "" -- "$tl" --test "$work/g"
check golden_update 0 "1 passed, 0 failed, 1 updated" "" -- "$tl" --test --update "$work/g"
check golden_after_update 0 "2 passed, 0 failed" "" -- "$tl" --test "$work/g"
printf 'print(undefined)\n' > "$work/g/err.tl"; printf '' > "$work/g/err.out"
check golden_stderr_must_match 1 "2 passed, 1 failed" "" -- "$tl" --test "$work/g"
check golden_no_args 2 "" "usage" -- "$tl" --test
check golden_missing_path 2 "" "no tests found" -- "$tl" --test "$work/no/such/folder"
mkdir -p "$work/empty"
check golden_empty_folder 2 "" "no tests found" -- "$tl" --test "$work/empty"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
