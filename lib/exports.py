#!/usr/bin/env python3
"""exports.py — the names libtl exports: every function tl/tl.h marks TL_API, and nothing else.

  exports.py HEADER --version-script OUT   the GNU ld version script of the shared library
  exports.py HEADER --keep-list OUT        one name a line: what objcopy keeps global in libtl.a
  exports.py HEADER --check LIB...         compares each library's defined dynamic (.so) or
                                           global (.a) symbols with the list: exit 1 on any
                                           symbol the header does not declare, or one missing
"""
import re
import subprocess
import sys


def api_names(header):
    """The function names declared with TL_API in the header, in order."""
    text = open(header, encoding="utf-8").read()
    names = re.findall(r"^TL_API\b[^;(]*?\b(tl_[A-Za-z0-9_]+)\s*\(", text, re.M)
    if not names:
        sys.exit(f"{header}: no TL_API declarations found")
    return names


def exported(lib):
    """The symbols lib defines for the outside: nm -D of a shared library, nm -g of an archive."""
    shared = ".so" in lib.rsplit("/", 1)[-1]
    args = ["nm", "-D", "--defined-only", lib] if shared else ["nm", "-g", "--defined-only", lib]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    syms = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] not in ("U", "w", "v"):
            syms.add(parts[2].split("@")[0])
    return syms


def check(names, libs):
    bad = False
    for lib in libs:
        syms = exported(lib)
        extra = sorted(s for s in syms if s not in names)
        missing = sorted(n for n in names if n not in syms)
        for s in extra:
            print(f"{lib}: exports {s}, which tl/tl.h does not declare" +
                  ("" if s.startswith("tl_") else " (and it lacks the tl_ prefix)"))
        for s in missing:
            print(f"{lib}: does not export {s}, which tl/tl.h declares")
        bad |= bool(extra or missing)
        print(f"{lib}: {len(syms)} symbols exported, {len(extra)} unexpected, {len(missing)} missing")
    return 1 if bad else 0


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    header, mode, rest = sys.argv[1], sys.argv[2], sys.argv[3:]
    names = api_names(header)
    if mode == "--version-script":
        with open(rest[0], "w") as f:
            f.write("{\n  global:\n" + "".join(f"    {n};\n" for n in names) + "  local:\n    *;\n};\n")
    elif mode == "--keep-list":
        with open(rest[0], "w") as f:
            f.write("".join(n + "\n" for n in names))
    elif mode == "--check":
        sys.exit(check(set(names), rest))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
