#!/usr/bin/env python3
"""check_grammars.py — the editor grammars against tl's own lexer, byte by byte.

  check_grammars.py TL_TOKENS --vim RTP_DIR PATH...
  check_grammars.py TL_TOKENS --textmate GRAMMAR NPM_DIR PATH...

For every .tl file under the PATHs (files or folders), tl_tokens (tests/editors/tl_tokens.c)
says what each byte is to tl's lexer: in a string, a comment, a number, a keyword, other code,
or no opinion (white space, an invalid token, an f-string field's braces and spec). The grammar
under test says the same through its engine: Vim itself (headless, vim_categories.vim) or
vscode-textmate with vscode-oniguruma (textmate_categories.js). Any byte where the two disagree
fails the file; the first few are shown with their line. Exit 1 on any failure, 77 (skipped)
when the engine is missing, unless CI is set (CI installs them: .ci/deps, npm_install.sh).
"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
NAMES = {"s": "string", "c": "comment", "n": "number", "k": "keyword", "o": "code", ".": "nothing"}


def tl_files(paths):
    out = []
    for p in paths:
        if os.path.isdir(p):
            for root, dirs, files in os.walk(p):
                dirs.sort()
                out += [os.path.join(root, f) for f in sorted(files) if f.endswith(".tl")]
        elif p.endswith(".tl"):
            out.append(p)
    return out


def skip(msg):
    print(msg)
    sys.exit(1 if os.environ.get("CI") else 77)


def vim_categories(rtp, files):
    vim = shutil.which("vim")
    if not vim:
        skip("vim is not installed (Debian: vim-nox)")
    with tempfile.TemporaryDirectory() as d:
        lst = os.path.join(d, "list")
        with open(lst, "w") as f:
            f.write("".join(p + "\n" for p in files))
        env = dict(os.environ, TL_VIM_RTP=rtp, TL_VIM_LIST=lst, TL_VIM_OUT=d)
        subprocess.run([vim, "-u", "NONE", "-i", "NONE", "-N", "-n", "-es", "-S", os.path.join(HERE, "vim_categories.vim")],
                       env=env, check=False, stdin=subprocess.DEVNULL, timeout=1200)
        out = {}
        for i, p in enumerate(files):
            try:
                with open(os.path.join(d, str(i)), encoding="latin1") as f:
                    lines = f.read().split("\n")
            except FileNotFoundError:
                sys.exit(f"vim wrote nothing for {p}")
            if lines and lines[0].startswith("filetype "):
                out[p] = lines[0]
            else:
                out[p] = ".".join(lines[:-1]) if lines[-1] == "" else ".".join(lines)
        return out


def textmate_categories(grammar, npm, files):
    node = shutil.which("node")
    if not node or not os.path.isdir(os.path.join(npm, "node_modules", "vscode-textmate")):
        skip(f"node or vscode-textmate is missing (tests/editors/npm_install.sh {npm} installs them)")
    r = subprocess.run([node, os.path.join(HERE, "textmate_categories.js"), npm, grammar] + files,
                       capture_output=True, text=True, encoding="latin1", timeout=1200)
    if r.returncode != 0:
        sys.exit("textmate_categories.js failed:\n" + r.stderr)
    lines = r.stdout.split("\n")
    return {lines[i]: lines[i + 1] for i in range(0, len(lines) - 1, 2)}


def compare(path, oracle, got, shown=3):
    """The bytes where the grammar disagrees with the lexer: (count, report lines)."""
    text = open(path, "rb").read()
    if got.startswith("filetype "):
        return 1, [f"{path}: the editor did not take it for a tl file ({got})"]
    bad = [i for i, c in enumerate(oracle) if c != "." and text[i:i + 1] not in (b"\n", b"\r") and (i >= len(got) or got[i] != c)]
    report = []
    for i in bad[:shown]:
        line = text.count(b"\n", 0, i) + 1
        start = text.rfind(b"\n", 0, i) + 1
        end = text.find(b"\n", i)
        src = text[start:end if end >= 0 else len(text)].decode("utf-8", "replace")
        g = got[i] if i < len(got) else "?"
        report.append(f"{path}:{line}:{i - start + 1}: tl's lexer says {NAMES[oracle[i]]}, the grammar {NAMES.get(g, g)}\n  {src}\n  {' ' * (i - start)}^")
    return len(bad), report


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    tokens, mode = sys.argv[1], sys.argv[2]
    if mode == "--vim":
        files = tl_files(sys.argv[4:])
        got = vim_categories(sys.argv[3], files)
    elif mode == "--textmate":
        files = tl_files(sys.argv[5:])
        got = textmate_categories(sys.argv[3], sys.argv[4], files)
    else:
        sys.exit(__doc__)
    failed = checked = 0
    oracles = subprocess.run([tokens] + files, capture_output=True, text=True, encoding="latin1", check=True).stdout.split("\n")
    if len(oracles) != len(files) + 1:   # one line a file, then the end
        sys.exit(f"tl_tokens printed {len(oracles) - 1} lines for {len(files)} files")
    for p, oracle in zip(files, oracles):
        n, report = compare(p, oracle, got.get(p, ""))
        checked += sum(c != "." for c in oracle)
        if n:
            failed += 1
            print(f"{p}: {n} bytes mis-scoped")
            print("\n".join(report))
    print(f"{mode[2:]}: {len(files)} files, {checked} bytes judged")
    print(f"{len(files) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
