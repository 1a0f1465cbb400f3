#!/usr/bin/env python3
"""test_golden.py — tl --test as a tool (docs/testing.md): -j, --filter, --junit, --durations, --timeout,
the tolerance directive, inline #> / #! expectations and --update. usage: test_golden.py PATH/TO/tl"""
import os
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

tl = os.path.abspath(sys.argv[1])
work = tempfile.mkdtemp(prefix="tl_golden_")
failures = []


def check(name, cond, detail=""):
    if not cond:
        failures.append(name)
        print(f"FAIL {name}\n{detail}")


def run(*args, cwd=None, timeout=300):
    r = subprocess.run([tl, "--test", *args], capture_output=True, text=True, errors="replace", cwd=cwd or work,
                       timeout=timeout)
    return r.returncode, r.stdout, r.stderr


def write(path, text):
    full = os.path.join(work, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "wb" if isinstance(text, bytes) else "w") as f:
        f.write(text)
    return full


try:
    # a suite: passing inline, passing .out, failing inline, failing .out, a hang
    write("s/a_ok.tl", "x = [1, 2, 3]\nx * 2\n#> [2 4 6]\nprint(\"hi\")\n#> hi\n")
    write("s/b_file.tl", "print(1 + 1)\n")
    write("s/b_file.out", "2\n")
    write("s/c_bad.tl", "x = 1\nprint(x + 1)\n#> 3\nprint(x)\n#> 1\n")
    write("s/d_badfile.tl", "print(1)\nprint(2)\nprint(3)\n")
    write("s/d_badfile.out", "1\n5\n3\n")
    write("s/e_hang.tl", "print(1)\nwhile true {}\n")
    st, out, err = run("-j", "2", "--timeout", "2", "--junit", "report.xml", "--durations", "s")
    lines = out.splitlines()
    check("summary_last_line", lines and lines[-1] == "2 passed, 3 failed", out)
    check("exit_1_on_failure", st == 1, f"status {st}")
    fails = [l for l in lines if l.startswith("FAIL ")]
    check("stable_order", [l.split()[1].rstrip(":") for l in fails] == ["s/c_bad.tl", "s/d_badfile.tl", "s/e_hang.tl"], out)
    check("inline_diff_names_statement", "s/c_bad.tl:2: print(x + 1)  expected (#>)" in out and "-3\n+2\n" in out, out)
    check("file_diff_names_statement", "@@ -1,3 +1,3 @@ s/d_badfile.tl:2: print(2)" in out, out)
    check("timeout_reported", "FAIL s/e_hang.tl: timed out after" in out, out)
    check("durations_listed", "slowest 5 tests:" in out and "s/e_hang.tl" in out.split("slowest")[1], out)

    # the JUnit report: required elements, attributes and counts
    root = ET.parse(os.path.join(work, "report.xml")).getroot()
    check("junit_root", root.tag == "testsuites", root.tag)
    suites = root.findall("testsuite")
    check("junit_one_suite", len(suites) == 1)
    suite = suites[0]
    for attr in ("name", "tests", "failures", "errors", "skipped", "time", "timestamp", "hostname"):
        check(f"junit_suite_has_{attr}", attr in suite.attrib, str(suite.attrib))
    cases = suite.findall("testcase")
    check("junit_counts", (suite.get("tests"), suite.get("failures"), suite.get("errors"), suite.get("skipped"))
          == ("5", "2", "1", "0") and len(cases) == 5, str(suite.attrib))
    for c in cases:
        for attr in ("classname", "name", "time"):
            check(f"junit_case_{attr}", attr in c.attrib, str(c.attrib))
    by_name = {c.get("name"): c for c in cases}
    bad = by_name["c_bad.tl"].find("failure")
    check("junit_failure", bad is not None and "message" in bad.attrib and "type" in bad.attrib and "-3" in (bad.text or ""))
    check("junit_timeout_is_error", by_name["e_hang.tl"].find("error") is not None)
    check("junit_pass_is_bare", len(list(by_name["a_ok.tl"])) == 0)
    check("junit_classname", by_name["a_ok.tl"].get("classname") == "s")

    # --filter
    st, out, _ = run("--filter", "a_ok", "s")
    check("filter", st == 0 and out.splitlines()[-1] == "1 passed, 0 failed", out)
    st, _, err = run("--filter", "nothing-matches", "s")
    check("filter_none_is_usage", st == 2 and "no tests found" in err, err)
    st, _, err = run("--bogus", "s")
    check("bad_option", st == 2 and "unknown option" in err, err)
    st, _, err = run("-j", "0", "s")
    check("bad_jobs", st == 2, err)
    st, _, err = run("--timeout", "s")
    check("missing_value_is_usage", st == 2, err)
    st, _, err = run("--review", "s")   # (its dialogue is tested on a pty: tests/pty/pty_shell.py)
    check("review_needs_terminal", st == 2 and "--review asks on a terminal" in err, err)
    st, _, err = run("--review", "--update", "s")
    check("review_not_with_update", st == 2 and "choose one" in err, err)

    # -j 1 and -j 2 print the same thing
    write("p/x.tl", "print(1)\n#> 2\n")
    for i in range(20):
        write(f"p/t{i:02}.tl", f"print({i})\n#> {i}\n")
    o1 = run("-j", "1", "p")[1]
    o2 = run("-j", "2", "p")[1]
    check("j_same_output", o1 == o2 and o1.endswith("20 passed, 1 failed\n"), o1 + o2)

    # tolerance: passes within, fails outside; nan == nan; inf only equals the same inf; text stays exact
    tol = "# tl-test: rtol=1e-3 atol=1e-9\n"
    write("t/within.tl", tol + "print(1.0001)\n#> 1.0002\nprint([0.0, 1, -1] / 0)\n#> [ nan  inf -inf]\n"
          "print(1 + 2.0001j)\n#> (1+2j)\nprint([1.5e-01, 2])\n#> [0.15003 2.  ]\n")
    write("t/outside.tl", tol + "print(1.01)\n#> 1.02\n")
    write("t/infsign.tl", tol + "print([1.0] / 0)\n#> [-inf]\n")
    write("t/text.tl", tol + "print(\"a 1\")\n#> b 1\n")
    write("t/exact.tl", "print(1.0001)\n#> 1.0002\n")
    write("t/baddirective.tl", "# tl-test: rtol=abc\nprint(1)\n#> 1\n")
    for name, want in (("within", 0), ("outside", 1), ("infsign", 1), ("text", 1), ("exact", 1), ("baddirective", 1)):
        st, out, _ = run(f"t/{name}.tl")
        check(f"tolerance_{name}", st == want, out)

    # inline --update round trip on a copy: only #> / #! lines change; error line numbers settle
    src = ("# header comment\nx = 2\nx * 3\n#> 5\n\nfn f(a) {\n  print(a)\n  return a\n}\n"
           "if true {\n  f(4);\n}\nprint(x); print(x + 1)\nnope + 1\nprint(\"never\")\n")
    p = write("u/round.tl", src)
    st, out, _ = run("u/round.tl")
    check("update_before_fails", st == 1, out)
    st, out, _ = run("--update", "u/round.tl")
    check("update_reports", st == 0 and "updated u/round.tl" in out, out)
    new = open(p).read()
    want = ("# header comment\nx = 2\nx * 3\n#> 6\n\nfn f(a) {\n  print(a)\n  return a\n}\n"
            "if true {\n  f(4);\n}\n#> 4\nprint(x); print(x + 1)\n#> 2\n#> 3\nnope + 1\n"
            "#! round.tl:17:1: error[Error]: name 'nope' is not defined\n#!   nope + 1\n#!   ^\nprint(\"never\")\n")
    check("update_rewrites_in_place", new == want, new)
    st, out, _ = run("u/round.tl")
    check("update_then_passes", st == 0, out)
    stripped = "".join(l for l in new.splitlines(True) if not l.startswith(("#>", "#!")))
    check("update_keeps_other_lines", stripped == "".join(l for l in src.splitlines(True) if not l.startswith("#>")))
    # whatever --update writes passes on the next run: output lines ending in the suffixes it
    # writes (" (no-eol)" read back as "no newline"), or in a carriage return
    printed = ["abc (no-eol)", "x (eol)", "y (no-eol) (eol)", " (no-eol)", "z\r", "(no-eol)"]
    p = write("r/suffix.tl", "".join(f'print("{l}")\n' for l in printed))
    st, out, _ = run("--update", "r/suffix.tl")
    check("suffix_update_reports", st == 0 and "updated r/suffix.tl" in out, out)
    st, out, _ = run("r/suffix.tl")
    check("suffix_update_round_trip", st == 0, out + open(p, newline="").read())
    # a test file with CRLF line ends (which the language accepts) compares as an LF one, and
    # --update writes its expectation lines with CRLF
    crlf = (b"x = 1\r\nprint(x)\r\n#> 1\r\n\r\nprint(x + 1)\r\n#>\r\nnope\r\n"
            b"#! crlf.tl:7:1: error[Error]: name 'nope' is not defined\r\n#!   nope\r\n#!   ^\r\n")
    write("r/crlf.tl", crlf.replace(b"#>\r\n", b"#> 2\r\n"))
    st, out, _ = run("r/crlf.tl")
    check("crlf_expectations_pass", st == 0, out)
    p = write("r/crlf_up.tl", b'print(5)\r\n#> 4\r\nprint("q\r")\r\nprint("")\r\nprint(6)')
    st, out, _ = run("--update", "r/crlf_up.tl")
    new = open(p, "rb").read()
    check("crlf_update_keeps_crlf", new == b'print(5)\r\n#> 5\r\nprint("q\r")\r\n#> q\r\r\nprint("")\r\n#>\r\nprint(6)\r\n#> 6\r\n',
          repr(new))
    st, out, _ = run("r/crlf_up.tl")
    check("crlf_update_round_trip", st == 0, out)

    # a file form test is rewritten as a file
    write("u/f.tl", "print(7)\n")
    write("u/f.out", "8\n")
    run("--update", "u/f.tl")
    check("update_out_file", open(os.path.join(work, "u/f.out")).read() == "7\n")
    # both forms at once is an error
    write("u/both.tl", "print(7)\n#> 7\n")
    write("u/both.out", "7\n")
    st, out, _ = run("u/both.tl")
    check("both_forms_refused", st == 1 and "keep one form" in out, out)

    # one worker runs the tests of -j 1 one after another: what a test changes in the process
    # (threads, seed, print options, storage numbers) must not reach the next test, and a test
    # after one that timed out (its worker killed) runs in a new worker
    write("w/a_changes.tl", "threads(1)\nseed(7)\nprintopts(precision=2)\nx = [1.0, 2.0]\ny = x + 1\n")
    fresh = "print(threads())\nprint(rand(2))\nprint([1.0 / 3])\nx = [1, 2]\ninfo(x)\n"
    write("w/b_fresh.tl", fresh)
    alone = subprocess.run([tl, os.path.join(work, "w/b_fresh.tl")], capture_output=True, text=True, cwd=work,
                           env={**os.environ, "TL_SEED": "0"})   # tl --test's fixed seed; a plain run draws a fresh one
    write("w/b_fresh.out", alone.stdout)
    write("w/c_hang.tl", "while true {}\n")
    write("w/d_after.tl", fresh)
    write("w/d_after.out", alone.stdout)
    st, out, _ = run("-j", "1", "--timeout", "1", "w")
    check("fresh_process_state_per_test", alone.returncode == 0 and "heap#" in alone.stdout and out.endswith("3 passed, 1 failed\n")
          and "FAIL w/c_hang.tl: timed out" in out and "w/b_fresh" not in out and "w/d_after" not in out, out + alone.stdout)

    # a marker line forged by a test's own output: a number that is not a line number (one past
    # INT_MAX overflowed `atoi(args) + 1`; too long, signed, empty) is output like any other bytes
    forged = ["\x1etl-stmt 2147483647\x1f", "\x1etl-stmt 99999999999\x1f", "\x1etl-stmt -5\x1f",
              "\x1etl-stmt \x1f", "\x1etl-stmt 12x\x1f"]
    write("m/forged.tl", "".join(f'print("{f}")\n' for f in forged) + "print(2)\n")
    write("m/forged.out", "".join(f + "\n" for f in forged) + "2\n")
    st, out, _ = run("m/forged.tl")
    check("forged_marker_is_output", st == 0 and out.endswith("1 passed, 0 failed\n"), out)

    # a failing test whose output and statement hold characters XML 1.0 forbids (U+FFFE, U+FFFF,
    # C0 controls but tab, newline and return) or bytes that are not UTF-8: the report still parses
    bad_chars = "a\uffff b\ufffe c\x01 d\x1b e\x0b f\x7f g\u0085 h\U0010ffff i"
    write("x/ctl.tl", f'print("{bad_chars}")\nprint("\\t<&>\\"")\n'.encode() + b'print("\xff\xc3")\n')
    write("x/ctl.out", "other\n")
    st, out, _ = run("--junit", "ctl.xml", "x")
    try:
        case = ET.parse(os.path.join(work, "ctl.xml")).getroot().find("testsuite/testcase")
        fail = case.find("failure")
        text, message = fail.text or "", fail.get("message")
        check("junit_forbidden_chars_replaced", "a? b? c? d? e? f? g\u0085 h\U0010ffff i" in text
              and "\t<&>\"" in text and "+??" in text and "\ufffe" not in message, text + message)
    except ET.ParseError as e:
        check("junit_forbidden_chars_replaced", False, f"the report is not XML: {e}")

    # symlinked folders are followed, each folder once (by device and inode): `self -> .` ran its
    # one test 41 times (until ELOOP), and with `up -> ..` beside it there were 2^40 paths
    write("loops/inner/one.tl", "print(1)\n#> 1\n")
    os.symlink(".", os.path.join(work, "loops/inner/self"))
    try:
        st, out, _ = run("loops/inner")
        check("symlink_self_loop_once", st == 0 and out == "1 passed, 0 failed\n", out[-300:])
        os.symlink("..", os.path.join(work, "loops/inner/up"))
        write("loops/two.tl", "print(2)\n#> 2\n")
        st, out, _ = run("loops/inner", timeout=30)
        check("symlink_up_loop_once", st == 0 and out == "2 passed, 0 failed\n", out[-300:])
        st, out, _ = run("loops", "loops/inner/self/up", "./loops")
        check("symlink_same_folder_twice", st == 0 and out == "2 passed, 0 failed\n", out[-300:])
    except subprocess.TimeoutExpired:
        check("symlink_up_loop_once", False, "tl --test did not finish in 30 s")

    # an expectation that is there but cannot be read is an error, never an endless read or an
    # empty expectation: a FIFO (open would block), a link to /dev/zero, a folder, a link loop
    write("unread/fifo.tl", "print(1)\n")
    os.mkfifo(os.path.join(work, "unread/fifo.out"))
    write("unread/zero.tl", "print(1)\n")
    os.symlink("/dev/zero", os.path.join(work, "unread/zero.out"))
    write("unread/dir.tl", "print(1)\n")
    os.mkdir(os.path.join(work, "unread/dir.out"))
    write("unread/loop.tl", "print(1)\n")
    os.symlink("loop.out", os.path.join(work, "unread/loop.out"))
    try:
        st, out, _ = run("unread", timeout=60)
        check("unreadable_expectations", st == 1 and out.count("cannot read the expected output") == 4
              and "unread/fifo.out: not a regular file" in out and "unread/zero.out: not a regular file" in out
              and "unread/dir.out: a directory" in out and "unread/loop.out: Too many levels of symbolic links" in out
              and out.endswith("0 passed, 4 failed\n"), out)
    except subprocess.TimeoutExpired:
        check("unreadable_expectations", False, "tl --test did not finish in 60 s")

    # orphans: an expectation file without its test fails the run, named; --prune deletes it
    write("o/kept.tl", "print(1)\n")
    write("o/kept.out", "1\n")
    write("o/gone.out", "1\n")
    write("o/gone.err", "oops\n")
    write("o/_helper.out", "not an orphan: names starting with _ are not looked at\n")
    st, out, _ = run("o")
    check("orphan_fails", st == 1 and "FAIL o/gone.err: orphan" in out and "FAIL o/gone.out: orphan" in out
          and "_helper" not in out and out.endswith("1 passed, 2 failed\n"), out)
    st, out, _ = run("--filter", "kept", "o")
    check("orphan_filtered_out", st == 0 and out == "1 passed, 0 failed\n", out)
    st, out, _ = run("--prune", "o")
    check("prune_deletes", st == 0 and "pruned o/gone.out" in out and "pruned o/gone.err" in out
          and not os.path.exists(os.path.join(work, "o/gone.out")) and os.path.exists(os.path.join(work, "o/kept.out"))
          and out.endswith("1 passed, 0 failed\n"), out)
    write("o2/only.out", "1\n")
    st, out, _ = run("--prune", "o2")
    check("prune_only_orphans", st == 0 and out == "pruned o2/only.out\n0 passed, 0 failed\n", out)

    # skip, xfail, requires: counted in the last line and in the JUnit report (pass, failure, error,
    # skip, xfail and an xfail that passed, each once), which must hold the required elements and counts
    write("k/a_pass.tl", "print(1)\n#> 1\n")
    write("k/b_fail.tl", "print(1)\n#> 2\n")
    write("k/c_crash.tl", "print(1)\nwhile true {}\n")
    write("k/d_skip.tl", "# tl-test: skip \"slow on CI\"\nwhile true {}\n")
    write("k/e_xfail.tl", "# tl-test: xfail \"issue 7\"\nprint(1)\n#> 2\n")
    write("k/f_xpass.tl", "# tl-test: xfail\nprint(1)\n#> 1\n")
    write("k/g_requires.tl", "# tl-test: requires cairo\nprint(1)\n#> 1\n")
    write("k/h_badreq.tl", "# tl-test: requires warp_drive\nprint(1)\n")
    write("k/i_xcrash.tl", "# tl-test: xfail \"a crash is no expected failure\"\nwhile true {}\n")
    st, out, _ = run("--timeout", "1", "--junit", "k.xml", "k")
    has_cairo = "SKIP k/g_requires.tl" not in out
    lines = out.splitlines()
    want_last = f"{2 if has_cairo else 1} passed, 5 failed, {1 if has_cairo else 2} skipped, 1 xfailed"
    check("skip_counts", st == 1 and lines[-1] == want_last, out)
    check("skip_reason_shown", "SKIP k/d_skip.tl: slow on CI" in out and "XFAIL k/e_xfail.tl: issue 7" in out, out)
    check("xfail_unexpected_pass", "FAIL k/f_xpass.tl: unexpectedly passed" in out, out)
    check("requires_unknown_feature", "FAIL k/h_badreq.tl: tl-test: requires names no feature 'warp_drive'" in out, out)
    check("xfail_crash_is_error", "FAIL k/i_xcrash.tl: timed out" in out, out)
    root = ET.parse(os.path.join(work, "k.xml")).getroot()
    suite = root.find("testsuite")
    cases = suite.findall("testcase")
    for el in (root, suite):
        for attr in ("name", "tests", "failures", "errors", "skipped", "time"):
            check(f"junit_k_{el.tag}_{attr}", attr in el.attrib, str(el.attrib))
    check("junit_k_suite_attrs", all(a in suite.attrib for a in ("timestamp", "hostname")), str(suite.attrib))
    by_name = {c.get("name"): c for c in cases}
    kinds = {name: [e.tag for e in c] for name, c in by_name.items()}
    counted = {tag: sum(1 for k in kinds.values() if k == [tag]) for tag in ("failure", "error", "skipped")}
    check("junit_k_counts", suite.get("tests") == str(len(cases)) == "9" and suite.get("failures") == str(counted["failure"]) == "2"
          and suite.get("errors") == str(counted["error"]) == "3" and suite.get("skipped") == str(counted["skipped"])
          and counted["skipped"] == (2 if has_cairo else 3) and root.get("skipped") == suite.get("skipped"), str(kinds))
    check("junit_k_elements", kinds["a_pass.tl"] == [] and kinds["b_fail.tl"] == ["failure"] and kinds["c_crash.tl"] == ["error"]
          and kinds["d_skip.tl"] == ["skipped"] and kinds["e_xfail.tl"] == ["skipped"] and kinds["f_xpass.tl"] == ["failure"],
          str(kinds))
    for c in cases:
        for child in c:
            check(f"junit_k_{child.tag}_attrs", "message" in child.attrib and "type" in child.attrib, str(child.attrib))
    check("junit_k_types", by_name["e_xfail.tl"].find("skipped").get("type") == "xfail"
          and by_name["d_skip.tl"].find("skipped").get("message") == "slow on CI"
          and by_name["f_xpass.tl"].find("failure").get("type") == "unexpected pass", str(kinds))
    st, out, _ = run("--update", "k/e_xfail.tl")
    check("xfail_not_updated", st == 0 and "2" in open(os.path.join(work, "k/e_xfail.tl")).read().splitlines()[-1]
          and out.endswith("0 passed, 0 failed, 1 xfailed, 0 updated\n"), out)

    # patterns: #~ REGEX matches one whole line (POSIX extended), a bare `#> ...` any lines;
    # `#> ... (eol)` is the text "..."; --update keeps the lines of statements whose output holds
    write("pt/ok.tl", 'print("at 0x7ffd1234 in 0.25 s")\n#~ at 0x[0-9a-f]+ in [0-9.]+ s\n'
          'for i in range(6) { print(i) }\n#> 0\n#> ...\n#> 4\n#> ...\nprint("...")\n#> ... (eol)\n'
          'print(1)\n#> ...\nprint("a")\n#> ...\n#> a\n#> ...\n')
    st, out, _ = run("pt/ok.tl")
    check("patterns_pass", st == 0, out)
    write("pt/partial.tl", 'print("abc")\n#~ ab\n')
    write("pt/wrong.tl", 'for i in range(4) { print(i) }\n#> 0\n#> ...\n#> 2\n')
    write("pt/dots.tl", 'print("x")\n#> ... (eol)\n')
    write("pt/badre.tl", 'print("x")\n#~ (x\n')
    for name, want in (("partial", "-ab\n+abc"), ("wrong", " 2\n+3\n"), ("dots", "-...\n+x"), ("badre", "bad regular expression")):
        st, out, _ = run(f"pt/{name}.tl")
        check(f"patterns_{name}_fails", st == 1 and want in out, out)
    # patterns regcomp would take exponential time or memory over are refused, at their line and
    # with the reason (golden_regex.c); a ')' without its '(' is itself, not the end of the anchoring
    refused = {"nullable": ("#~ x(a*)*" * 1 + "(b?)?" * 40, "repeats a part that can match empty text"),
               "counts": ("#~ (a{1,40}){1,40}", "make 1599 copies (at most 1000 a line"),
               "count": ("#~ a{0,256}", "'{0,256}' counts past 255"),
               "backref": ("#~ (a)\\1", "back-reference"),
               "nothing": ("#~ *a", "'*' follows nothing it could repeat"),
               "deep": ("#~ " + "(" * 101 + "a" + ")" * 101, "nested more than 100 deep")}
    for name, (line, want) in refused.items():
        write(f"pt/re_{name}.tl", f'print("a")\n#> a\nprint("x")\n{line}\n')
        st, out, _ = run(f"pt/re_{name}.tl")
        check(f"patterns_refused_{name}", st == 1 and f"re_{name}.tl: line 4: bad regular expression" in out and want in out, out)
    write("pt/re_total.tl", 'print(1)\n' + "#~ (1{1,30}){1,30}\n" * 12)
    st, out, _ = run("pt/re_total.tl")
    check("patterns_refused_test_total", st == 1 and "line 7: bad regular expression" in out
          and "make 5394 copies up to here (at most 5000 a test)" in out, out)
    write("pt/re_paren.tl", 'print("a)")\n#~ a)\nprint("bc")\n#~ b)|x\n')
    st, out, _ = run("pt/re_paren.tl")
    check("patterns_unmatched_paren_is_itself", st == 1 and "-b)|x\n+bc" in out and "print(\"a)\")" not in out, out)
    p = write("pt/up.tl", 'print("t=17:02")\n#~ t=[0-9:]+\nprint(2)\n#> 3\n')
    st, out, _ = run("--update", "pt/up.tl")
    check("patterns_update_keeps_holding", open(p).read() == 'print("t=17:02")\n#~ t=[0-9:]+\nprint(2)\n#> 2\n'
          and out.endswith("0 passed, 0 failed, 1 updated\n"), out + open(p).read())

    # a number outside the tolerance: the diff says which numbers, by how much, and the tolerance
    write("n/off.tl", "# tl-test: rtol=1e-3 atol=1e-9\nprint([1.0, 2.5, 3.0])\n#> [1.  2.4 3. ]\n")
    st, out, _ = run("n/off.tl")
    check("numbers_explained", st == 1 and "# expected 2.4, actual 2.5: they differ by 0.1 (0.0417 relative); "
          "tolerance 0.0024 (atol=1e-09 + rtol=0.001 * |expected|)" in out, out)

    # --update says how many tests it rewrote; the rewritten ones are not counted as passed
    write("c/a.tl", "print(1)\n#> 2\n")
    write("c/b.tl", "print(1)\n#> 1\n")
    write("c/c.tl", "print(3)\n")
    write("c/c.out", "4\n")
    st, out, _ = run("--update", "c")
    check("update_counts", st == 0 and out.endswith("updated c/a.tl\nupdated c/c.tl\n1 passed, 0 failed, 2 updated\n"), out)
    st, out, _ = run("--update", "c")
    check("update_counts_none", st == 0 and out == "3 passed, 0 failed, 0 updated\n", out)

    # ulp=N: each number within N units in the last place of the dtype its tensor printed in
    # (the values 2 and 3 ulps above 1/3 in each dtype, from numpy's spacing; bf16's is f32's * 2^16);
    # a number in text (an f-string) has no dtype and compares as f64
    ulp = "# tl-test: ulp=2\nx = [1.0 / 3]\nprint(x.astype(\"f16\")[0], x.astype(\"bf16\"), x.astype(\"f32\")[0], x[0])\n"
    write("ul/two.tl", ulp + "#> 0.333740234375 [0.337890625] 0.33333340287208557 0.3333333333333334\n")
    st, out, _ = run("ul/two.tl")
    check("ulp_within", st == 0, out)
    three = ["0.333984375", "[0.33984375]", "0.33333343267440796", "0.3333333333333335"]
    two = ["0.333740234375", "[0.337890625]", "0.33333340287208557", "0.3333333333333334"]
    for k, name in enumerate(("f16", "bf16", "f32", "f64")):
        write(f"ul/three_{name}.tl", ulp + "#> " + " ".join(three[i] if i == k else two[i] for i in range(4)) + "\n")
        st, out, _ = run(f"ul/three_{name}.tl")
        check(f"ulp_outside_{name}", st == 1 and f"3 ulp of {name}; tolerance 2 ulp of {name}" in out, out)
    write("ul/text.tl", "# tl-test: ulp=2\ny = [1.0 / 3].astype(\"f32\")[0]\nprint(f\"{y}\")\n#> 0.33333340287208557\n")
    st, out, _ = run("ul/text.tl")
    check("ulp_text_is_f64", st == 1 and "ulp of f64" in out, out)
    write("ul/bad.tl", "# tl-test: ulp=1.5\nprint(1)\n#> 1\n")
    st, out, _ = run("ul/bad.tl")
    check("ulp_must_be_integer", st == 1 and "bad tl-test directive at 'ulp=1.5'" in out, out)

    # expect_close(x, "name"): x against X.name.npy beside the test; --update writes a missing or
    # different one (and counts the test as updated), and numpy reads what it wrote
    ec = write("ec/arr.tl", 'x = linspace(0, 1, 5)\nexpect_close(x * 2, "twice", rtol=1e-6)\nprint("ok")\n#> ok\n')
    npy = os.path.join(work, "ec/arr.twice.npy")
    st, out, _ = run("ec/arr.tl")
    check("expect_close_missing", st == 1 and "expect_close(): there is no arr.twice.npy to compare x with "
          "(tl --test --update writes it)" in out, out)
    st, out, _ = run("--update", "ec/arr.tl")
    check("expect_close_update_writes", st == 0 and out == "updated ec/arr.tl\n0 passed, 0 failed, 1 updated\n"
          and open(ec).read().endswith("#> ok\n") and os.path.exists(npy), out)
    got = subprocess.run(["/usr/bin/python3", "-c", "import numpy, sys; a = numpy.load(sys.argv[1]); print(a.dtype, a.tolist())", npy],
                         capture_output=True, text=True)
    check("expect_close_numpy_reads", got.stdout == "float64 [0.0, 0.5, 1.0, 1.5, 2.0]\n", got.stdout + got.stderr)
    st, out, _ = run("ec/arr.tl")
    check("expect_close_then_passes", st == 0, out)
    write("ec/arr.tl", 'x = linspace(0, 1, 5)\nx[3] += 1e-3\nexpect_close(x * 2, "twice", rtol=1e-6)\nprint("ok")\n#> ok\n')
    st, out, _ = run("ec/arr.tl")
    check("expect_close_differs", st == 1 and "x differs from arr.twice.npy: 1 of 5 elements are outside rtol=1e-06, atol=0; "
          "the largest difference is 0.002 at [3] (actual 1.502" in out and "expected 1.5)" in out, out)
    plain = subprocess.run([tl, "arr.tl"], capture_output=True, text=True, cwd=os.path.join(work, "ec"))
    check("expect_close_plain_run_compares", plain.returncode == 1 and "x differs from arr.twice.npy" in plain.stderr, plain.stderr)
    write("ec/shape.tl", 'expect_close([1.0, 2.0], "twice")\n')
    shutil.copy(npy, os.path.join(work, "ec/shape.twice.npy"))
    st, out, _ = run("ec/shape.tl")
    check("expect_close_shape", st == 1 and "x has shape (2,), shape.twice.npy holds (5,)" in out, out)
    write("ec/badname.tl", 'expect_close([1.0], "../up")\n')
    st, out, _ = run("ec/badname.tl")
    check("expect_close_bad_name", st == 1 and "name must be letters, digits" in out, out)
    st, out, _ = run("--update", "ec")
    check("expect_close_update_again", st == 0 and "updated ec/arr.tl" in out, out)
    st, out, _ = run("ec/arr.tl")
    check("expect_close_after_second_update", st == 0, out)

    # `# tl-test: shell` runs a test as the shell runs it (what :record writes: tests/pty/pty_shell.py):
    # a failing statement's error is printed and the next one runs; `_` is the value last echoed
    write("sh/s.tl", "# tl-test: shell\nx = 2\nx * 3\n#> 6\nnope\n#! s.tl:5:1: error[Error]: name 'nope' is not defined\n"
          "#!   nope\n#!   ^\n_ + 1\n#> 7\n")
    st, out, _ = run("sh/s.tl")
    check("shell_directive_goes_on", st == 0, out)
    plain = subprocess.run([tl, "s.tl"], capture_output=True, text=True, cwd=os.path.join(work, "sh"))
    check("shell_directive_only_under_test", plain.returncode == 1 and plain.stdout == "6\n", plain.stdout + plain.stderr)

    # a synthetic 1,000-test suite runs and passes (its speed is measured by tests/bench/bench_golden.sh)
    for i in range(1000):
        write(f"big/t{i:04}.tl", f"x = {i}\nx * 2\n#> {2 * i}\n")
    st, out, _ = run("-j", "2", "big")
    check("thousand_tests", st == 0 and out == "1000 passed, 0 failed\n", out[-500:])
finally:
    shutil.rmtree(work, ignore_errors=True)

print(f"{'FAILED: ' + ', '.join(failures) if failures else 'all passed'}")
sys.exit(1 if failures else 0)
