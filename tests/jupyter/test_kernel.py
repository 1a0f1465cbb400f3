#!/usr/bin/env python3
"""test_kernel.py — drives `tl --jupyter` with jupyter_client's KernelManager through every message
type: kernel_info, execute (streams, results with their HTML view, pictures, errors, user
expressions, silent cells, shell commands, the queue aborted after an error), complete, inspect,
is_complete, comm_info, history, an interrupt by signal in the middle of a long product, a message
with a bad signature and a replayed one, malformed and random messages, the heartbeat, restart and
shutdown; and the kernel's
resident memory over 1,000 cells.

usage: test_kernel.py TL WORKDIR [--memory]
Exits 77 (skipped) when jupyter_client is not installed, except under CI=true, where it fails."""
import base64
import hashlib
import hmac
import json
import os
import random
import shutil
import struct
import subprocess
import sys
import time

TL, WORK = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
CHECK_MEMORY = "--memory" in sys.argv[3:]

from checks import check, finish, fresh_work_with_kernel, skip

try:
    from jupyter_client import KernelManager
    from jupyter_client.session import Session
except ImportError as e:
    skip(f"jupyter_client is not installed ({e}): apt-get install python3-jupyter-client")


# ---- the kernel spec ---------------------------------------------------------------

jupyter_path, out = fresh_work_with_kernel(TL, WORK)
spec_dir = os.path.join(jupyter_path, "kernels", "tl")
check("install-kernel exits 0", out.returncode == 0, out.stderr)
with open(os.path.join(spec_dir, "kernel.json")) as f:
    spec = json.load(f)
check("kernel.json", spec["argv"] == [TL, "--jupyter", "{connection_file}"] and spec["language"] == "tl" and
      spec["interrupt_mode"] == "signal" and spec["display_name"] == "tl", spec)
for logo, size in (("logo-32x32.png", 32), ("logo-64x64.png", 64)):
    with open(os.path.join(spec_dir, logo), "rb") as f:
        png = f.read()
    check(f"{logo} is a {size}x{size} PNG", png[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">II", png[16:24]) == (size, size))
os.environ["JUPYTER_PATH"] = jupyter_path
if shutil.which("jupyter-kernelspec"):
    listed = subprocess.run(["jupyter", "kernelspec", "list", "--json"], capture_output=True, text=True)
    check("jupyter kernelspec list shows it", json.loads(listed.stdout)["kernelspecs"].get("tl", {}).get("resource_dir") == spec_dir,
          listed.stdout + listed.stderr)
out = subprocess.run([TL, "--install-kernel", "--bogus"], capture_output=True, text=True)
check("install-kernel refuses unknown words", out.returncode == 2 and "usage" in out.stderr, out.stderr)

# ---- a running kernel ------------------------------------------------------------------

log_path = os.path.join(WORK, "kernel.log")
km = KernelManager(kernel_name="tl")
km.start_kernel(stderr=open(log_path, "w"))
kc = km.client()
kc.start_channels()
kc.wait_for_ready(timeout=60)
TIMEOUT = 60


def collect(msg_id, reply_channel="shell"):
    """The reply to msg_id and the iopub messages it caused, through its idle status."""
    get = kc.get_shell_msg if reply_channel == "shell" else kc.get_control_msg
    while True:
        reply = get(timeout=TIMEOUT)
        if reply["parent_header"].get("msg_id") == msg_id:
            break
    pub = []
    while True:
        m = kc.get_iopub_msg(timeout=TIMEOUT)
        if m["parent_header"].get("msg_id") != msg_id:
            continue
        pub.append(m)
        if m["msg_type"] == "status" and m["content"]["execution_state"] == "idle":
            return reply, pub


def execute(code, **kw):
    return collect(kc.execute(code, **kw))


def of_type(pub, t):
    return [m["content"] for m in pub if m["msg_type"] == t]


def busy_idle(pub):
    states = [m["content"]["execution_state"] for m in pub if m["msg_type"] == "status"]
    return pub[0]["msg_type"] == "status" and states == ["busy", "idle"]


def stream_text(pub, name):
    return "".join(c["text"] for c in of_type(pub, "stream") if c["name"] == name)


# kernel_info
reply, pub = collect(kc.kernel_info())
c = reply["content"]
check("kernel_info", c["status"] == "ok" and c["protocol_version"] == "5.3" and c["language_info"]["name"] == "tl" and
      c["language_info"]["file_extension"] == ".tl" and c["implementation"] == "tl", c)
check("kernel_info: busy, then idle", busy_idle(pub), pub)

# execute: a stream, a value with its HTML view, the execution count
reply, pub = execute('x = arange(6).reshape(2, 3)\nprint("hello")\nx')
count = reply["content"]["execution_count"]
check("execute: reply ok", reply["content"]["status"] == "ok" and reply["content"]["user_expressions"] == {}, reply["content"])
check("execute: busy, then idle", busy_idle(pub), [m["msg_type"] for m in pub])
check("execute: execute_input", of_type(pub, "execute_input") == [{"code": 'x = arange(6).reshape(2, 3)\nprint("hello")\nx', "execution_count": count}])
check("execute: stdout as a stream", stream_text(pub, "stdout") == "hello\n", stream_text(pub, "stdout"))
results = of_type(pub, "execute_result")
data = results[0]["data"] if len(results) == 1 else {}
check("execute: text/plain as the shell echoes", data.get("text/plain") == "[[0 1 2]\n [3 4 5]]", data)
html = data.get("text/html", "")
check("execute: the HTML view's caption", "<caption style=\"white-space: nowrap\">shape (2, 3), dtype i64</caption>" in html, html)
check("execute: the HTML view's cells", "<th>1</th><td>3</td><td>4</td><td>5</td></tr>" in html, html)
check("execute: the result's execution count", results and results[0]["execution_count"] == count)
order = [m["msg_type"] for m in pub if m["msg_type"] in ("stream", "execute_result")]
check("execute: the stream before the value", order == ["stream", "execute_result"], order)
reply, pub = execute("x.shape")
check("execute: counts go up", reply["content"]["execution_count"] == count + 1)
check("execute: variables live across cells", of_type(pub, "execute_result")[0]["data"]["text/plain"] == "(2, 3)")
reply, pub = execute("2 * 21")
reply, pub = execute("_ + 0")
check("execute: _ is the last value", of_type(pub, "execute_result")[0]["data"] == {"text/plain": "42"}, pub)

# tensors: summarized as the printer does, complex values, 3-d as text, non-tensors without HTML
reply, pub = execute("arange(10000).reshape(100, 100)")
html = of_type(pub, "execute_result")[0]["data"]["text/html"]
check("HTML of a summarized tensor", "<th>&vellip;</th>" in html and "<th>99</th><td>9900</td><td>9901</td><td>9902</td><td>&hellip;</td>" in html, html)
reply, pub = execute("[1+2j, 3-1j, 0.5]")
html = of_type(pub, "execute_result")[0]["data"]["text/html"]
check("HTML of complex values", "<td>1. +2.j</td>".replace(" ", "") in html.replace(" ", "") and "dtype c128" in html, html)
reply, pub = execute("ones(2, 2, 2)")
html = of_type(pub, "execute_result")[0]["data"]["text/html"]
check("HTML of a 3-d tensor: the printed text", "<pre>[[[1. 1.]" in html and "shape (2, 2, 2), dtype f64" in html, html)
reply, pub = execute('"text"\n(1, "a")')
datas = [r["data"] for r in of_type(pub, "execute_result")]
check("values that are not tensors: text only", datas == [{"text/plain": "text"}, {"text/plain": "(1, 'a')"}], datas)

# streams: many lines, UTF-8 across reads, stderr
reply, pub = execute('for i in range(20000) { print(i, "é✓") }')
text = stream_text(pub, "stdout")
check("20,000 printed lines arrive whole", text == "".join(f"{i} é✓\n" for i in range(20000)), text[-80:])
reply, pub = execute(":help nosuchname")
check("stderr as a stream", "nosuchname" in stream_text(pub, "stderr"), pub)

# shell commands
reply, pub = execute(":time 1 + 1")
check("a shell command cell (:time)", "median" in stream_text(pub, "stdout") and reply["content"]["status"] == "ok", pub)

# errors
reply, pub = execute("x @ ones(4)")
errors = of_type(pub, "error")
c = reply["content"]
check("error: reply", c["status"] == "error" and c["ename"] == "ShapeError" and "matmul" in c["evalue"], c)
check("error: published", len(errors) == 1 and errors[0]["ename"] == "ShapeError", errors)
tb = errors[0]["traceback"] if errors else []
check("error: traceback has the place, the line and the caret", len(tb) >= 3 and tb[0].startswith("<cell ") and
      "error[ShapeError]" in tb[0] and tb[1] == "  x @ ones(4)" and tb[2] == "    ^", tb)
reply, pub = execute("y = [1, 2")
check("a syntax error", reply["content"]["status"] == "error" and reply["content"]["ename"] == "SyntaxError", reply["content"])
reply, pub = execute("x.sum()")
check("the kernel goes on after errors", of_type(pub, "execute_result")[0]["data"]["text/plain"] == "15")

# pictures
reply, pub = execute("heatmap(x)\nhist(arange(100), bins=10)")
shown = of_type(pub, "display_data")
pngs = [base64.b64decode(d["data"]["image/png"]) for d in shown]
check("pictures: two display_data", len(shown) == 2, [m["msg_type"] for m in pub])
check("pictures: valid 800x500 PNGs", len(pngs) == 2 and all(p[:8] == b"\x89PNG\r\n\x1a\n" and p[12:16] == b"IHDR" and
                                                             struct.unpack(">II", p[16:24]) == (800, 500) for p in pngs))
check("pictures: no text", stream_text(pub, "stdout") == "", stream_text(pub, "stdout")[:200])
png_path = os.path.join(WORK, "h.png")
reply, pub = execute(f'heatmap(x, to="{png_path}", width=300, height=200)')
check("pictures with to=: a file, nothing shown", not of_type(pub, "display_data") and os.path.getsize(png_path) > 0)
reply, pub = execute("spark(arange(10), width=400, height=60)")
p = base64.b64decode(of_type(pub, "display_data")[0]["data"]["image/png"])
check("spark: a picture of width x height pixels", struct.unpack(">II", p[16:24]) == (400, 60))

# user expressions and silent cells
reply, pub = execute("z = 1", user_expressions={"shape": "x.shape", "bad": "nosuch"})
ue = reply["content"]["user_expressions"]
check("user_expressions: a value", ue.get("shape") == {"status": "ok", "data": {"text/plain": "(2, 3)"}, "metadata": {}}, ue)
check("user_expressions: an error", ue.get("bad", {}).get("status") == "error" and ue["bad"].get("ename") == "Error", ue)
before = reply["content"]["execution_count"]
reply, pub = execute("z = 2\nz", silent=True)
check("silent: no input, no result, no count", not of_type(pub, "execute_input") and not of_type(pub, "execute_result") and
      reply["content"]["execution_count"] == before, pub)
reply, pub = execute("z")
check("silent: still runs", of_type(pub, "execute_result")[0]["data"]["text/plain"] == "2")

# the queue after an error: requests already waiting are aborted (the first cell runs long enough, 0.5 s by the
# clock whatever the machine's speed, for the other two to be waiting when it fails; a loop of 20,000,000 steps,
# 0.5 s on a slower machine, took 0.04 s on a faster one, and a client slowed by a parallel test sent them late)
ids = [kc.execute('spent = 0.0\nwhile spent < 0.5 { spent += time(fn() = sum(ones(100000))) }\nerror("boom")'),
       kc.execute("1"), kc.execute("2")]
statuses = []
for msg_id in ids:
    statuses.append(collect(msg_id)[0]["content"]["status"])
check("stop_on_error: the queue is aborted", statuses == ["error", "aborted", "aborted"], statuses)
reply, pub = execute("3")
check("after the abort: cells run", of_type(pub, "execute_result")[0]["data"]["text/plain"] == "3")
# a cell sent the moment the failed one's error shows is not aborted: the kernel reads what waits
# before it publishes the error (reading after its idle status let such a cell be aborted now and then)
statuses = []
for _ in range(300):
    failed = kc.execute('error("again")')
    while True:
        m = kc.get_iopub_msg(timeout=TIMEOUT)
        if m["parent_header"].get("msg_id") == failed and m["msg_type"] == "error":
            break
    statuses.append(execute("1")[0]["content"]["status"])
check("after an error: a cell sent when it shows runs, 300 times", statuses == ["ok"] * 300, [s for s in statuses if s != "ok"][:3])

# complete, inspect, is_complete, comm_info, history
reply, pub = collect(kc.complete("y = ara", 7))
c = reply["content"]
check("complete", c["status"] == "ok" and "arange" in c["matches"] and c["cursor_start"] == 4 and c["cursor_end"] == 7, c)
check("complete: busy, then idle", busy_idle(pub))
reply, pub = collect(kc.complete('"é✓" + x.sh', 11))
c = reply["content"]
check("complete counts code points", "shape" in c["matches"] and c["cursor_start"] == 9 and c["cursor_end"] == 11, c)
reply, pub = collect(kc.complete("for i in range(3) {\n  sof", 25))
check("complete on a later line", "softmax" in reply["content"]["matches"] and reply["content"]["cursor_start"] == 22, reply["content"])
reply, pub = collect(kc.inspect("sum(x, ", 7))
c = reply["content"]
check("inspect: help of the function called", c["found"] and c["data"]["text/plain"].startswith("sum(x, axis="), c)
reply, pub = collect(kc.inspect("x", 1))
check("inspect: a variable (help of its value)", reply["content"]["found"] and
      reply["content"]["data"]["text/plain"].startswith("a tensor of i64, shape (2, 3)"), reply["content"])
reply, pub = collect(kc.inspect("nosuchname", 3))
check("inspect: nothing", reply["content"] == {"status": "ok", "found": False, "data": {}, "metadata": {}}, reply["content"])
for code, want in (("for i in range(3) {", {"status": "incomplete", "indent": "    "}), ("f(1,\n  2", {"status": "incomplete", "indent": "  "}),
                   ("1 + )", {"status": "invalid"}), ("1 + 2", {"status": "complete"}), ('s = "abc', {"status": "incomplete", "indent": ""})):
    reply, pub = collect(kc.is_complete(code))
    check(f"is_complete {code!r}", reply["content"] == want, reply["content"])
reply, pub = collect(kc.comm_info())
check("comm_info", reply["content"] == {"status": "ok", "comms": {}}, reply["content"])
reply, pub = collect(kc.history())
check("history", reply["content"] == {"status": "ok", "history": []}, reply["content"])

# interrupt: a long product stops, what finished before it stays, the kernel answers
msg_id = kc.execute("a = 1\nb = ones(300, 300)\nfor i in range(100000000) { b = b @ b / 300 }\nc = 3")
time.sleep(1.0)
check("heartbeat while a cell runs", kc.hb_channel.is_beating())
t0 = time.time()
km.interrupt_kernel()
reply, pub = collect(msg_id)
took = time.time() - t0
check("interrupt: the cell stops", reply["content"]["status"] == "error" and reply["content"]["ename"] == "Interrupt", reply["content"])
check("interrupt: within 5 s", took < 5, took)
reply, pub = execute("print(a, b.shape, i > 0)")
check("interrupt: finished statements keep their variables", stream_text(pub, "stdout") == "1 (300, 300) true\n", pub)
reply, pub = execute("c")
check("interrupt: the statements after it did not run", reply["content"]["status"] == "error" and "'c'" in reply["content"]["evalue"])
# a storm of interrupts while cells print, publish and reply: every request is answered, the kernel lives
storm = [kc.execute('for i in range(3000) { print(i) }\n"done"', stop_on_error=False) for _ in range(10)]
for _ in range(300):
    km.interrupt_kernel()
    time.sleep(0.002)
statuses = [collect(msg_id)[0]["content"]["status"] for msg_id in storm]
check("an interrupt storm: every cell answered", len(statuses) == 10 and set(statuses) <= {"ok", "error"}, statuses)
reply, pub = execute("a")
check("an interrupt storm: the kernel lives", of_type(pub, "execute_result")[0]["data"]["text/plain"] == "1", pub)
km.interrupt_kernel()   # while idle: the next cell is not interrupted
time.sleep(0.2)
reply, pub = execute("for i in range(100000) { }\n5")
check("an interrupt while idle stops nothing", reply["content"]["status"] == "ok", reply["content"])

# bad signatures: dropped, logged, the kernel alive
conn = km.get_connection_info()
shell = km.connect_shell()
bad = Session(key=b"not the key")
bad.send(shell, "kernel_info_request", {})
time.sleep(0.5)
good = Session(key=conn["key"])
msg = good.msg("kernel_info_request", {})
frames = good.serialize(msg)
shell.send_multipart(frames)
got = shell.poll(10000) and shell.recv_multipart()
check("a good message on a second socket is answered", bool(got))
shell.send_multipart(frames)   # the same message again: a replay
time.sleep(1.0)
check("bad signature and replay: no reply", shell.poll(1500) == 0)
with open(log_path) as f:
    log = f.read()
check("bad signature: logged", "dropped a message on the shell channel: bad signature" in log, log)
check("replay: logged", log.count("dropped a message on the shell channel") == 2, log)
reply, pub = collect(kc.kernel_info())
check("bad signature: the kernel is alive", reply["content"]["status"] == "ok")
reply, pub = execute("x.shape")
check("bad signature: variables intact", of_type(pub, "execute_result")[0]["data"]["text/plain"] == "(2, 3)")

# malformed messages, correctly signed or not: each is dropped (and logged) or answered, and the kernel lives
key = conn["key"] if isinstance(conn["key"], bytes) else conn["key"].encode()


def signed(parts):
    """A message of these four raw parts, signed with the kernel's key."""
    h = hmac.new(key, digestmod=hashlib.sha256)
    for p in parts:
        h.update(p)
    return [b"prober", b"<IDS|MSG>", h.hexdigest().encode()] + parts


def header(msg_type):
    return json.dumps({"msg_id": f"probe-{random.random()}", "session": "probe", "username": "probe",
                       "msg_type": msg_type, "version": "5.3"}).encode()


malformed = [   # (frames, answered?)
    ([b"prober", b"<IDS|MSG>"], False),
    ([b"prober", b"no delimiter"], False),
    ([b"prober", b"<IDS|MSG>", b"00", b"{}", b"{}", b"{}", b"{}"], False),
    (signed([b"{", b"{}", b"{}", b"{}"]), False),
    (signed([json.dumps({"msg_type": 7}).encode(), b"{}", b"{}", b"{}"]), False),
    (signed([header("execute_request"), b"{}", b"{}", b"[1, 2"]), False),
    (signed([header("kernel_info_request"), b"\xff\xfe", b"\x00", b"{}"]), True),
    (signed([header("no_such_request"), b"{}", b"{}", b"{}"]), False),
    (signed([header("execute_request"), b"{}", b"{}", b"[]"]), True),
    (signed([header("execute_request"), b"{}", b"{}", b'{"code": 5, "silent": 1, "store_history": null}']), True),
    (signed([header("execute_request"), b"{}", b"{}",
             b'{"code": "1 +\\u0000+ 2", "user_expressions": {"a": 3, "b": "\\u0000"}, "stop_on_error": false}']), True),
    (signed([header("execute_request"), b"{}", b"{}", b'{"code": "print(\\"\\u0000\\u00ff\\")", "stop_on_error": false}']), True),
    # a lone surrogate is no Unicode text: the strict JSON reader refuses it and the message is dropped
    (signed([header("execute_request"), b"{}", b"{}", b'{"code": "print(\\"\\ud800\\")", "stop_on_error": false}']), False),
    (signed([header("execute_request"), b"{}", b"{}", b'{"code": ":help \\u0000", "stop_on_error": false}']), True),
    (signed([header("complete_request"), b"{}", b"{}", b'{"code": "a\\nb\\u0000\\ncdefg", "cursor_pos": 9}']), True),
    (signed([header("complete_request"), b"{}", b"{}", b'{"code": "abc", "cursor_pos": 99999999999999999999}']), True),
    (signed([header("complete_request"), b"{}", b"{}", b'{"code": "abc", "cursor_pos": -5}']), True),
    (signed([header("inspect_request"), b"{}", b"{}", b'{"code": "((((((", "cursor_pos": 3}']), True),
    (signed([header("inspect_request"), b"{}", b"{}", b'{"code": "ab\\u0000", "cursor_pos": 3}']), True),
    (signed([header("is_complete_request"), b"{}", b"{}", b'{"code": "\\u0000{"}']), True),
    (signed([header("is_complete_request"), b"{}", b"{}", b'{"code": "' + b" " * 300 + b'{"}']), True),
]
answered = 0
for frames, answers in malformed:
    shell.send_multipart(frames)
    if answers and shell.poll(TIMEOUT * 1000):
        answered += 1
        shell.recv_multipart()
random.seed(34)
for i in range(200):   # random frames, and random contents behind a good signature
    if i % 2:
        shell.send_multipart(signed([header(random.choice(["execute_request", "complete_request", "inspect_request", "is_complete_request"]))] +
                                    [random.choice([b"{}", b"[]", b"null", b'"x"', b"1e999", b'{"code": "(", "cursor_pos": 1}'])
                                     for _ in range(3)]))
    else:
        shell.send_multipart([b"prober"] + [random.randbytes(random.randint(0, 40)) for _ in range(random.randint(1, 8))])
time.sleep(2)
while shell.poll(500):
    shell.recv_multipart()
check("malformed messages: the well-formed ones are answered", answered == sum(a for _, a in malformed), answered)
reply, pub = execute("x.shape")
check("malformed messages: the kernel is alive, variables intact",
      km.is_alive() and of_type(pub, "execute_result")[0]["data"]["text/plain"] == "(2, 3)", pub)
shell.close(linger=0)

# resident memory after 1,000 cells within 5 MB of after 10 (release builds: sanitizers' shadow memory dwarfs it)
if CHECK_MEMORY:
    pid = km.provisioner.process.pid if km.provisioner else km.kernel.pid

    def rss_kb():
        with open(f"/proc/{pid}/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))

    for i in range(1010):
        if i == 10:
            after_10 = rss_kb()
        execute(f'w = rand(50, 50) * {i}\nprint(w.sum() > 0)\nw[:3, :3]')
    after_1000 = rss_kb()
    check("memory: 1,000 cells within 5 MB of 10", after_1000 - after_10 < 5 * 1024, f"{after_10} kB -> {after_1000} kB")
    print(f"resident memory after 10 cells {after_10} kB, after 1,010 cells {after_1000} kB")

# restart, then shutdown
km.restart_kernel(now=False)
kc.wait_for_ready(timeout=60)
reply, pub = execute("x")
check("restart: a fresh kernel", reply["content"]["status"] == "error" and reply["content"]["execution_count"] == 1, reply["content"])
msg_id = kc.shutdown()
reply = kc.get_control_msg(timeout=TIMEOUT)
check("shutdown: reply", reply["content"] == {"status": "ok", "restart": False}, reply["content"])
deadline = time.time() + 10
while km.is_alive() and time.time() < deadline:
    time.sleep(0.05)
check("shutdown: the kernel exits by itself", not km.is_alive())
code = km.provisioner.process.poll() if km.provisioner else km.kernel.poll()
check("shutdown: exit status 0", code == 0, code)
kc.stop_channels()
km.shutdown_kernel(now=True)
with open(log_path) as f:
    log = f.read()
check("the kernel's log holds only the dropped and ignored messages",
      all("dropped a message" in line or "ignored a message of unknown type no_such_request" in line for line in log.splitlines()), log)

finish()
