#!/usr/bin/env python3
"""archive.py — libtl.a as one object whose only global symbols are tl/tl.h's API.

  archive.py OUT.a LD OBJCOPY AR KEEP_LIST LIB.a...

Links the static libraries' objects into one relocatable object (ld -r), makes every global
symbol that KEEP_LIST does not name local (objcopy --keep-global-symbols), and archives it:
a program linking libtl.a then sees tl_open, tl_eval, ... and none of the interpreter's
internal names (parse_program, val_release_obj, ...), which could clash with its own.
"""
import os
import subprocess
import sys


def main():
    if len(sys.argv) < 7:
        sys.exit(__doc__)
    out, ld, objcopy, ar, keep, libs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6:]
    obj = out + ".o"
    subprocess.run([ld, "-r", "-o", obj, "--whole-archive", *libs, "--no-whole-archive"], check=True)
    subprocess.run([objcopy, "--keep-global-symbols=" + keep, obj], check=True)
    if os.path.exists(out):
        os.remove(out)
    subprocess.run([ar, "rcsD", out, obj], check=True)
    os.remove(obj)


if __name__ == "__main__":
    main()
