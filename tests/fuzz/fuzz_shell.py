#!/usr/bin/env python3
"""fuzz_shell.py — fuzzes tl's interactive shell through a pseudo-terminal: random keys.

usage: fuzz_shell.py --tl TL [--seconds S] [--seed N] [--corpus DIR] [--artifacts DIR] [--work DIR]
       fuzz_shell.py --tl TL --replay FILE.json

Sessions of `tl` on a pty (tests/pty/pty_shell.py's Shell) get random key sequences: printable
text, UTF-8 (wide, combining, four-byte, invalid bytes), control keys, escape sequences (arrows,
Home/End, Delete, Alt- and Ctrl-words, Meta-digit counts), Tab, Enter, Ctrl-C, Ctrl-D, history
walks and searches, long pastes (up to 20,000 characters: the pty test types 100,000, which
under ASan takes up to a minute here), statements (graphs, try/catch,
multi-line entries, shell commands) and window resizes. A finding is: a session that ends with a
non-zero status (a crash, a sanitizer report, a leak at exit), a shell that does not give its
prompt back within 20 s of Ctrl-C, or a printed string that differs from the typed one (the
check statement, below). Each finding's keys are written to ARTIFACTS/finding-N.json, which
--replay runs again; committed ones live in tests/fuzz/corpus/fuzz_shell/ and are replayed first.

Keys that act outside tl are never sent: Ctrl-Z, Ctrl-\\ (SIGQUIT), Ctrl-S and Ctrl-Q (flow
control). Nor is what only makes libedit slow, which is not a hang: a Meta-digit count before
Ctrl-Y (a count of yanks of a long kill multiplies the line), and a long paste away from the end
of the line (libedit redraws the whole line for each key typed before its end, so such a paste
costs its length times the line's: 110 s under ASan here). Ctrl-R is tl's own search, sent
anywhere: libedit's had cost the square of each history entry's length per key, and a session
whose history held long lines froze for minutes on one (docs/fuzzing.md). A step never ends in
Ctrl-V: it quotes the next key, so a Ctrl-C after it is a character. Totals are printed in
libFuzzer's words so run.sh reads them as it reads the others'.
"""
import argparse
import fcntl
import json
import os
import random
import shutil
import signal
import struct
import sys
import tempfile
import termios
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "pty"))
import pty_shell  # noqa: E402  (the pty harness: Shell, Failure)
from pty_shell import PROMPT_END, Failure, Shell  # noqa: E402

PROMPT_BACK_S = 20.0           # Ctrl-C to the prompt, at most (a sanitizer build under load)

HISTORY_KEEP = 4 << 20         # the history file carries over between sessions until it is this big
CONTROL = [bytes([c]) for c in range(0x20) if c not in (0x03, 0x11, 0x13, 0x1A, 0x1C)] + [b"\x7f"]
ESCAPES = [b"\x1b[A", b"\x1b[B", b"\x1b[C", b"\x1b[D", b"\x1b[H", b"\x1b[F", b"\x1b[1~", b"\x1b[4~", b"\x1b[3~",
           b"\x1b[2~", b"\x1b[1;5C", b"\x1b[1;5D", b"\x1bb", b"\x1bf", b"\x1bd", b"\x1b\x7f", b"\x1b", b"\x1b[",
           b"\x1b[5~", b"\x1bO", b"\x1b[200~", b"\x1b[201~"]
UTF8 = ["é", "日本", "😀", "e\u0301", "שלום", "\u200b", "ß", "Ω", "한", "\ufeff", "\U0010fffd"]
BAD_BYTES = [b"\xff", b"\xc3", b"\x80", b"\xe6\x97", b"\xf0\x9f\x98", b"\xc0\xaf", b"\xed\xa0\x80"]
STATEMENTS = [
    "x = 1", "x + 1", "print(x)", "fn f(a) = a * 2", "f(3)", "g = graph(f, ones(3))", "g(ones(3))",
    "print(g)", "h = graph(fn(v) = sum(v * v), ones(4))", "h([1.0, 2, 3, 4])",
    'try { error("boom") } catch e { print(e.kind, e.message) }',
    "try { [1, 2] + [1, 2, 3] } catch e { print(e) }", "d = {\"alpha\": 1, \"beta\": 2}", "d[\"alpha\"]",
    's = "日本é"', "len(s)", "[1, 2, 3] @ [4, 5, 6]", "zeros(2, 3)", ":help len", ":vars", ":time 1 + 1",
    ":explain exp(ones(3)) * 2", "fn k() {", "return 1", "}", "for i in range(3) {", "print(i)",
    "[1,", "2]", '"open', 'string"', "#> 1", "#! x", "# tl-test: rtol=1e-3", "_", "undefined_name",
    "1 +* 2", "while false { }", "r = range(5)", "r[::-1]",
]
SAFE_TEXT = "abcxyz 0123456789_+-*/=()[]{},.:;<>!?" + "éüß日本語한Ω😀"


def not_ending_in_ctrl_v(data):
    """data never ending in Ctrl-V (quoted insert: the next key, Ctrl-C too, goes into the line)."""
    return data + b"v" if data.endswith(b"\x16") else data


def random_keys(rng):
    """One step's keys (bytes)."""
    kind = rng.random()
    if kind < 0.25:
        return "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789 _+-*/=()[]{},.:;\"'#") for _ in range(rng.randint(1, 30))).encode()
    if kind < 0.40:
        return rng.choice(CONTROL) * rng.choice((1, 1, 1, 2, 5))
    if kind < 0.52:
        return rng.choice(ESCAPES) * rng.choice((1, 1, 2, 10))
    if kind < 0.62:
        return rng.choice(UTF8).encode() * rng.randint(1, 4)
    if kind < 0.65:
        return rng.choice(BAD_BYTES)
    if kind < 0.78:
        return rng.choice(STATEMENTS).encode() + b"\r"
    if kind < 0.81:
        return b"\t" * rng.randint(1, 3)
    if kind < 0.84:   # a history search for part of an earlier statement, then a key that ends it or not
        st = rng.choice(STATEMENTS).encode()
        at = rng.randrange(len(st))
        return (b"\x12" + st[at:at + rng.randint(1, 8)] + rng.choice((b"", b"\x12", b"\x12\x12", b"\x7f", b"\x07", b"\r",
                                                                      b"\x1b[A", b"\x1b[B", b"\x1b[D", b"\x05", b"\x1b")))
    if kind < 0.90:
        return b"\r"
    if kind < 0.93:
        return b"\x1b" + str(rng.randint(1, 3000)).encode() + rng.choice((b"a", b"\x7f", b"\x1b[D", b"\x0b"))
    if kind < 0.97:
        n = rng.choice((1000, 1023, 1025, 4096, 8300, 20000) if rng.random() < 0.3 else (50, 300, 2000))
        return b"\x05" + ('"' + "a" * n + '"').encode()   # at the end of the line (see the docstring)
    return b"\x03"


class Session:
    """One tl on a pty, the keys it was sent (for the finding's file), and its checks."""

    def __init__(self, tl, work, rng, spec=None):
        self.spec = spec or {
            "rows": rng.choice((24, 24, 5, 50, 2)), "cols": rng.choice((80, 100, 20, 200, 8)),
            "locale": rng.choice(("C.UTF-8", "C.UTF-8", None, "POSIX", "en_US.ISO-8859-1")), "steps": [],
        }
        pty_shell.TL = tl
        self.step_began = time.monotonic()
        self.sh = Shell(work, env={"LC_ALL": self.spec["locale"]}, rows=self.spec["rows"], cols=self.spec["cols"])
        self.sh.prompt(30)

    def record(self, step):
        now = time.monotonic()
        if self.spec["steps"] and now - self.step_began > 5:   # what makes a run overstay its time
            print(f"slow step ({now - self.step_began:.1f} s): {str(self.spec['steps'][-1])[:120]}", flush=True)
        self.step_began = now
        self.spec["steps"].append(step)

    def ended(self):
        """The exit status once tl has ended (None while it runs); a non-zero one is a finding."""
        if self.sh.status is None:
            pid, st = os.waitpid(self.sh.pid, os.WNOHANG)
            if not pid:
                return None
            self.sh.status = os.waitstatus_to_exitcode(st)
            while self.sh._pump(0.05):
                pass
            os.close(self.sh.fd)
        if self.sh.status != 0:
            raise Failure(f"tl ended with status {self.sh.status}:\n{self.sh.text[-3000:]}")
        return self.sh.status

    def send(self, data, timeout=60):
        """Types data; a pty that closed means tl ended (a finding unless with status 0)."""
        try:
            self.sh.paste(data, timeout=timeout)
        except OSError:
            # tl ended (Ctrl-D on an empty line, say): its pty closes as it exits, so its status
            # may come a moment later; one that never comes is a finding (wait_exit raises)
            if self.ended() is None:
                self.sh.wait_exit(5)
                self.ended()

    def keys(self, data):
        self.record({"keys": data.decode("latin-1")})
        self.send(data)
        if self.sh.status is None:   # (once tl has ended, its pty is closed)
            self.sh.settle(0.01)

    def resize(self, rows, cols):
        self.record({"resize": [rows, cols]})
        fcntl.ioctl(self.sh.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

    def wait_prompt(self, start, what):
        """Waits until the output after text offset start ends with a fresh tl> prompt; returns that output."""
        deadline = time.monotonic() + PROMPT_BACK_S * pty_shell.SLOW
        while not PROMPT_END.search(self.sh.text[start:][-64:]):
            if self.ended() is not None:
                return self.sh.text[start:]
            if time.monotonic() > deadline:
                raise Failure(f"no tl> prompt {what} within {PROMPT_BACK_S * pty_shell.SLOW:.0f} s; output:\n"
                              + self.sh.text[-1500:])
            self.sh._pump(0.05)
        return self.sh.text[start:]

    def prompt_back(self):
        """Ctrl-C, then the prompt must come back."""
        self.record({"check": "prompt"})
        start = len(self.sh.text)
        self.send(b"\x03")
        self.wait_prompt(start, "after Ctrl-C")

    def echo_check(self, text):
        """Types print("TEXT") on a clean line: the program must print TEXT as typed."""
        self.prompt_back()
        if self.ended() is not None:
            return
        self.record({"check": "echo", "text": text})
        start = len(self.sh.text)
        self.send(f'print("{text}")\r'.encode())
        out = self.wait_prompt(start, "after the echo check")
        if "\n" + text + "\n" not in out:   # a whole line (the terminal wraps it, tl does not)
            raise Failure(f"typed print(\"{text[:80]}...\") ({len(text)} characters), got {out[-300:]!r}")

    def finish(self):
        """Ctrl-C, Ctrl-D on the empty line: tl must end with status 0 (no leak under ASan)."""
        if self.ended() is not None:
            return
        self.prompt_back()
        if self.ended() is not None:
            return
        self.record({"check": "exit"})
        self.send(b"\x04")
        st = self.ended()
        st = self.sh.wait_exit(30) if st is None else st
        if st != 0:
            raise Failure(f"tl ended with status {st} after Ctrl-D:\n{self.sh.text[-3000:]}")


def replay(tl, work, spec):
    """Runs a recorded session again; raises Failure as the original did."""
    s = Session(tl, work, None, {**spec, "steps": []})
    try:
        for step in spec["steps"]:
            if s.ended() is not None:
                return
            if "keys" in step:
                s.keys(step["keys"].encode("latin-1"))
            elif "resize" in step:
                s.resize(*step["resize"])
            elif step.get("check") == "prompt":
                s.prompt_back()
            elif step.get("check") == "echo":
                s.echo_check(step["text"])
        s.finish()
    finally:
        s.sh.kill()


def fuzz_session(tl, work, rng, deadline):
    """One random session; returns (keys sent, its spec); raises Failure with the spec attached."""
    s = Session(tl, work, rng)
    sent = 0
    try:
        for i in range(rng.randint(20, 300)):
            if time.monotonic() > deadline or s.ended() is not None:
                break
            r = rng.random()
            if r < 0.02:
                rows = rng.randint(1, 60)   # in one row narrower than "tl> " libedit scrolls the prompt out of sight
                s.resize(rows, rng.randint(5 if rows == 1 else 1, 220))
            elif r < 0.05:
                n = rng.choice((5, 40, 1100, 9000))
                s.echo_check("".join(rng.choice(SAFE_TEXT) for _ in range(n)))
            else:
                data = not_ending_in_ctrl_v(random_keys(rng))
                sent += len(data)
                s.keys(data)
            if i % 25 == 24:
                s.prompt_back()
        s.finish()
        return sent, s.spec
    except Failure as e:
        e.spec = s.spec
        raise
    finally:
        s.sh.kill()


def clean(work):
    """Empties the scratch folder between sessions, but for a history file that is not too big."""
    for entry in os.listdir(work):
        p = os.path.join(work, entry)
        if entry == "history" and os.path.getsize(p) < HISTORY_KEEP:
            continue
        if os.path.isdir(p) and not os.path.islink(p):
            shutil.rmtree(p, ignore_errors=True)
        else:
            os.unlink(p)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tl", required=True)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--seed", type=int)
    ap.add_argument("--corpus", help="folder of committed sessions (*.json), replayed first")
    ap.add_argument("--artifacts", default=".")
    ap.add_argument("--work", help="scratch folder (default: a new temporary one)")
    ap.add_argument("--replay", help="run one recorded session and stop")
    ap.add_argument("--slow", type=float, default=4.0, help="scales the time limits (default 4: ASan and UBSan)")
    a = ap.parse_args()
    tl = os.path.abspath(a.tl)
    pty_shell.SLOW = a.slow
    work = tempfile.mkdtemp(prefix="tl-fuzz-shell-", dir=a.work)
    findings = 0

    def finding(spec, err):
        nonlocal findings
        findings += 1
        os.makedirs(a.artifacts, exist_ok=True)
        path = os.path.join(a.artifacts, f"finding-{findings}.json")
        with open(path, "w") as f:
            json.dump(spec, f)
        print(f"ERROR: fuzz_shell finding: {str(err)[:4000]}\nTest unit written to {path}", flush=True)

    try:
        if a.replay:
            with open(a.replay) as f:
                spec = json.load(f)
            try:
                replay(tl, work, spec)
                print(f"{a.replay}: passed")
            except Failure as e:
                print(f"{a.replay}: {e}")
                return 1
            return 0
        for name in sorted(os.listdir(a.corpus)) if a.corpus and os.path.isdir(a.corpus) else []:
            with open(os.path.join(a.corpus, name)) as f:
                spec = json.load(f)
            try:
                replay(tl, work, spec)
            except Failure as e:
                finding(spec, f"{name}: {e}")
        seed = a.seed if a.seed is not None else random.randrange(1 << 31)
        print(f"INFO: Seed: {seed}", flush=True)
        rng = random.Random(seed)
        start = time.monotonic()
        deadline = start + a.seconds
        sessions = keys = 0
        while time.monotonic() < deadline:
            began = time.monotonic()
            try:
                sent, spec = fuzz_session(tl, work, rng, deadline)
                keys += sent
                print(f"session {sessions}: {len(spec['steps'])} steps, {time.monotonic() - began:.1f} s", flush=True)
            except Failure as e:
                finding(e.spec, e)
            sessions += 1
            clean(work)
        secs = int(time.monotonic() - start)
        print(f"stat::number_of_executed_units: {sessions}\nDone {sessions} runs in {secs} second(s); {keys} bytes of keys",
              flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if findings else 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main())
