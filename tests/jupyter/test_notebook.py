#!/usr/bin/env python3
"""test_notebook.py — runs a notebook with `jupyter nbconvert --to notebook --execute` on tl's kernel
and compares what each cell shows with the outputs stored in the notebook: text, tensors' HTML and
errors exactly; pictures as valid PNG images of the same size (their pixels depend on cairo's and
the fonts' versions).

usage: test_notebook.py TL NOTEBOOK WORKDIR [--update]
--update writes the fresh outputs into NOTEBOOK (read them before committing them).
Exits 77 (skipped) when nbconvert is not installed, except under CI=true, where it fails."""
import base64
import json
import os
import shutil
import struct
import subprocess
import sys

from checks import check, finish, fresh_work_with_kernel, skip

TL, NOTEBOOK, WORK = (os.path.abspath(a) for a in sys.argv[1:4])
UPDATE = "--update" in sys.argv[4:]

if not shutil.which("jupyter-nbconvert"):
    skip("jupyter nbconvert is not installed: apt-get install jupyter-nbconvert")

jupyter_path, installed = fresh_work_with_kernel(TL, WORK)
if installed.returncode != 0:
    check("tl --install-kernel", False, installed.stderr)
    finish()
env = dict(os.environ, JUPYTER_PATH=jupyter_path)
executed = os.path.join(WORK, "executed.ipynb")
run = subprocess.run(["jupyter", "nbconvert", "--to", "notebook", "--execute", "--ExecutePreprocessor.timeout=300",
                      "--output", executed, NOTEBOOK], capture_output=True, text=True, env=env)
if run.returncode != 0:
    check("nbconvert --execute", False, run.stdout + run.stderr)
    finish()

with open(NOTEBOOK) as f:
    stored = json.load(f)
with open(executed) as f:
    fresh = json.load(f)

if UPDATE:
    for cell in fresh["cells"]:
        cell["metadata"].pop("execution", None)   # nbclient's timings: noise in a committed file
    with open(NOTEBOOK, "w") as f:
        json.dump(fresh, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"updated {NOTEBOOK}")
    sys.exit(0)



def text(v):
    return "".join(v) if isinstance(v, list) else v


def png_size(b64):
    png = base64.b64decode(text(b64))
    if png[:8] != b"\x89PNG\r\n\x1a\n" or png[12:16] != b"IHDR":
        return None
    return list(struct.unpack(">II", png[16:24]))


def shown(output):
    """What an output shows, with a picture as its size (pixels differ between cairo versions)."""
    o = {k: v for k, v in output.items() if k not in ("metadata",)}
    if "text" in o:
        o["text"] = text(o["text"])
    if "data" in o:
        o["data"] = {k: (png_size(v) if k == "image/png" else text(v)) for k, v in o["data"].items()}
    return o


def streams_joined(outputs):
    """Outputs with consecutive stream messages of one name joined (how they are split is timing)."""
    joined = []
    for o in map(shown, outputs):
        if joined and o.get("output_type") == "stream" and joined[-1].get("output_type") == "stream" and joined[-1]["name"] == o["name"]:
            joined[-1]["text"] += o["text"]
        else:
            joined.append(o)
    return joined


code_cells = [(s, f) for s, f in zip(stored["cells"], fresh["cells"]) if s["cell_type"] == "code"]
check("the same cells", len(stored["cells"]) == len(fresh["cells"]))
kinds = {}
for stored_cell, fresh_cell in code_cells:
    source = text(stored_cell["source"])
    want, got = streams_joined(stored_cell["outputs"]), streams_joined(fresh_cell["outputs"])
    check(f"cell {source!r}: its outputs", want == got, f"stored {json.dumps(want)[:600]}\n  fresh  {json.dumps(got)[:600]}")
    check(f"cell {source!r}: its execution count", stored_cell["execution_count"] == fresh_cell["execution_count"])
    for o in got:
        kind = o["output_type"] + ("/png" if "image/png" in o.get("data", {}) else "/html" if "text/html" in o.get("data", {}) else "")
        kinds[kind] = kinds.get(kind, 0) + 1
        if "image/png" in o.get("data", {}):
            check(f"cell {source!r}: a valid PNG", o["data"]["image/png"] == [800, 500], o["data"]["image/png"])

# the notebook must hold what the tour shows, or the comparison above proves little
check("pictures: a histogram and a heatmap", kinds.get("display_data/png", 0) == 2, kinds)
check("tensors shown as HTML", kinds.get("execute_result/html", 0) >= 6, kinds)
check("printed text", kinds.get("stream", 0) >= 5, kinds)
check("an error", kinds.get("error", 0) == 1, kinds)
finish()
