#!/usr/bin/env python3
"""test_browser.py — the notebook in a browser: starts a live notebook server (Debian's jupyter-notebook) with
tl's kernel, and browser.js opens examples/tour.ipynb in headless Chromium (Debian's chromium, driven by
puppeteer-core from npm), clears the stored outputs, runs a tensor cell and the heatmap's cell by clicking them
and pressing Shift-Enter, and takes a screenshot. Checks that the tensor's table (its caption, its values) and
the inline picture (800 x 500) are on the page.

usage: test_browser.py TL NOTEBOOK WORKDIR [SCREENSHOT]
SCREENSHOT (default WORKDIR/notebook.png) is where the page's picture goes (docs/notebooks.png is one).
Exits 77 (skipped) when chromium, jupyter-notebook, node or puppeteer-core is missing, except under CI=true,
where it fails (.ci/deps installs them)."""
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

from checks import check, finish, fresh_work_with_kernel, skip

TL, NOTEBOOK, WORK = (os.path.abspath(a) for a in sys.argv[1:4])
SCREENSHOT = os.path.abspath(sys.argv[4]) if len(sys.argv) > 4 else os.path.join(WORK, "notebook.png")
HERE = os.path.dirname(os.path.abspath(__file__))


chromium = shutil.which("chromium") or shutil.which("chromium-browser")
if not chromium:
    skip("no chromium: apt-get install chromium")
if not shutil.which("jupyter-notebook"):
    skip("no jupyter-notebook: apt-get install jupyter-notebook")
if not shutil.which("node"):
    skip("no node: apt-get install nodejs")
if subprocess.run(["node", "-e", "require('puppeteer-core')"], cwd=HERE, capture_output=True).returncode != 0:
    skip("no puppeteer-core: npm install --prefix tests/jupyter (bash .ci/deps does)")

jupyter_path, installed = fresh_work_with_kernel(TL, WORK)
if installed.returncode != 0:
    check("tl --install-kernel", False, installed.stderr)
    finish()
notebooks = os.path.join(WORK, "notebooks")
os.makedirs(notebooks)
shutil.copy(NOTEBOOK, os.path.join(notebooks, "tour.ipynb"))
env = dict(os.environ, JUPYTER_PATH=jupyter_path, HOME=WORK,
           JUPYTER_CONFIG_DIR=os.path.join(WORK, "config"), JUPYTER_DATA_DIR=os.path.join(WORK, "data"),
           JUPYTER_RUNTIME_DIR=os.path.join(WORK, "runtime"))

with socket.socket() as s:   # a free port
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
token = secrets.token_hex(16)
server_log = open(os.path.join(WORK, "server.log"), "w")
server = subprocess.Popen(["jupyter-notebook", "--no-browser", f"--port={port}", "--ip=127.0.0.1",
                           f"--NotebookApp.token={token}", f"--notebook-dir={notebooks}", "--allow-root"],
                          env=env, stdout=server_log, stderr=subprocess.STDOUT)

try:
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while True:
        try:
            urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=5)
            break
        except OSError:
            if time.time() > deadline or server.poll() is not None:
                raise
            time.sleep(0.2)
    cells = ["a = arange(12)", "m = outer("]   # a tensor and a picture
    run = subprocess.run(["node", os.path.join(HERE, "browser.js"), chromium, f"{base}/notebooks/tour.ipynb?token={token}",
                          SCREENSHOT] + cells, capture_output=True, text=True, timeout=300, env=env)
    try:
        got = json.loads(run.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        got = {"error": run.stdout + run.stderr}
    check("the browser session ran", run.returncode == 0 and "cells" in got, got.get("error", "") + run.stderr[-2000:])
    tensor, picture = (got.get("cells") or [{}, {}])[:2]
    check("the tensor cell ran live", tensor.get("prompt", "").startswith("In [1]"), tensor)
    check("its table: the caption", tensor.get("caption") == "shape (3, 4), dtype i64", tensor)
    check("its table: the values", tensor.get("table") and "8\t9\t10\t11" in tensor.get("text", ""), tensor)
    check("the picture cell ran live", picture.get("prompt", "").startswith("In [2]"), picture)
    check("the picture inline: an 800 x 500 PNG", picture.get("png") == [800, 500], picture)
    with open(SCREENSHOT, "rb") as f:
        check("a screenshot", f.read(8) == b"\x89PNG\r\n\x1a\n")
finally:
    server.terminate()
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()
finish()
