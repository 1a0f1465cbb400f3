#!/usr/bin/env bash
# check_install.sh — tl as its users get it from `meson install` (docs/embedding.md, docs/editors.md):
# installs a build under a temporary DESTDIR, checks every file lands under the prefix, builds
# examples/embed against the installed tl.pc with pkg-config (libtl.so, then libtl.a) under
# ASan+UBSan and runs both, renders the installed man page, and runs the installed tl, bash
# completion, Vim syntax file and TextMate grammar. Usage: check_install.sh BUILD_DIR (.ci/test runs it)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(cd "${1:?usage: check_install.sh BUILD_DIR}" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
dest="$tmp/dest"

# Prints a step and runs it; any failure ends the script with its output.
step() { echo "check_install: $1"; }

step "meson install --destdir $dest"
meson install -C "$build" --destdir "$dest" --quiet >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; exit 1; }
prefix="$(meson introspect "$build" --buildoptions | python3 -c 'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))')"
libdir="$(meson introspect "$build" --buildoptions | python3 -c 'import json, sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "libdir"))')"
[[ $libdir == /* ]] || libdir="$prefix/$libdir"
top="$dest$prefix"

# Everything under the prefix, and each thing where it belongs.
outside="$(find "$dest" \( -type f -o -type l \) ! -path "$top/*")"
[ -z "$outside" ] || { echo "installed outside $prefix:"; echo "$outside"; exit 1; }
for f in bin/tl include/tl/tl.h share/man/man1/tl.1 share/bash-completion/completions/tl \
         share/tl/vim/syntax/tl.vim share/tl/vim/ftdetect/tl.vim share/tl/vim/ftplugin/tl.vim \
         share/tl/textmate/tl.tmLanguage.json; do
  [ -f "$top/$f" ] || { echo "not installed: $prefix/$f"; exit 1; }
done
for f in libtl.so libtl.so.0 libtl.a pkgconfig/tl.pc; do
  [ -e "$dest$libdir/$f" ] || { echo "not installed: $libdir/$f"; exit 1; }
done
step "installed under $prefix: $(find "$top" \( -type f -o -type l \) | wc -l) files"

# The installed program runs.
out="$("$top/bin/tl" -e 'print(sum(arange(5)))')"
[ "$out" = 10 ] || { echo "installed tl printed '$out', not 10"; exit 1; }

# examples/embed against the installed library, as a user builds it: pkg-config finds tl.pc
# (PKG_CONFIG_SYSROOT_DIR maps its paths into the DESTDIR). Both links run under the sanitizers.
export PKG_CONFIG_PATH="$dest$libdir/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$dest"
cc="${CC:-cc}"
san=(-fsanitize=address,undefined -fno-sanitize-recover=all -g)
warn=(-std=c17 -Wall -Wextra -Werror)
step "cc embed.c \$(pkg-config --cflags --libs tl): $(pkg-config --cflags --libs tl)"
# shellcheck disable=SC2046
"$cc" "${warn[@]}" "${san[@]}" "$root/examples/embed/embed.c" $(pkg-config --cflags --libs tl) -o "$tmp/embed_shared"
readelf -d "$tmp/embed_shared" | grep -q 'NEEDED.*\[libtl\.so\.0\]' || { echo "embed_shared does not load libtl.so.0"; exit 1; }
static_libs="$(pkg-config --static --libs tl)"
static_libs="${static_libs/-ltl /-l:libtl.a }"   # the archive, not the shared library beside it
step "cc embed.c \$(pkg-config --cflags tl) $static_libs"
# shellcheck disable=SC2046,SC2086
"$cc" "${warn[@]}" "${san[@]}" "$root/examples/embed/embed.c" $(pkg-config --cflags tl) $static_libs -o "$tmp/embed_static"
if readelf -d "$tmp/embed_static" | grep -q 'NEEDED.*libtl'; then echo "embed_static loads libtl.so"; exit 1; fi
for kind in shared static; do
  step "run embed_$kind under ASan+UBSan"
  LD_LIBRARY_PATH="$dest$libdir" ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    "$tmp/embed_$kind" >"$tmp/out_$kind" 2>&1 || { cat "$tmp/out_$kind"; echo "embed_$kind failed"; exit 1; }
  tail -n 1 "$tmp/out_$kind" | grep -qx ok || { cat "$tmp/out_$kind"; exit 1; }
done

step "man -l the installed tl.1"
bash "$root/tests/check_man.sh" "$top/share/man/man1/tl.1"
step "the installed bash completion"
bash "$root/tests/check_completion.sh" "$top/share/bash-completion/completions/tl" "$top/bin/tl"
# The installed editor files are the tested ones (tests vim_syntax and textmate_grammar check
# editors/ on every .tl file of tests/ and examples/); here they run from where they were
# installed, on examples/.
tokens="$build/tests/editors/tl_tokens"
step "the installed Vim syntax file on examples/"
python3 "$root/tests/editors/check_grammars.py" "$tokens" --vim "$top/share/tl/vim" "$root/examples"
step "the installed TextMate grammar on examples/"
python3 "$root/tests/editors/check_grammars.py" "$tokens" --textmate "$top/share/tl/textmate/tl.tmLanguage.json" \
  "$build/editors-npm" "$root/examples"
step "ok"
