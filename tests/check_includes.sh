#!/usr/bin/env bash
# check_includes.sh — the layering of includes: runtime/ sees only itself; stdlib/ sees src/ only
# through tlapi.h (which sees no parser or evaluator header); src/ sees stdlib/ only through registry.h.
# Usage: check_includes.sh SOURCE_ROOT
set -u
root=${1:?usage: check_includes.sh SOURCE_ROOT}
cd "$root" || exit 2
fail=0

# Prints each quoted include of the files given, as "FILE INCLUDED".
quoted_includes() {
    grep -H -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$@" |
        sed -E 's/^([^:]*):[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]*)".*/\1 \2/'
}

# Reports a broken rule and remembers the failure.
bad() { echo "check_includes: $1"; fail=1; }

# The runtime knows nothing of the language: it includes only its own headers.
while read -r file inc; do
    [ -e "runtime/$inc" ] || [ -e "runtime/kernels/$inc" ] || [ -e "$(dirname "$file")/$inc" ] ||
        bad "$file includes \"$inc\", which is not a runtime header"
done < <(quoted_includes runtime/*.[ch] runtime/kernels/*.[ch] runtime/io/*.[ch])

# Builtins see the interpreter only through tlapi.h (Interp stays opaque); everything else
# they include is the runtime's public headers or stdlib's own.
while read -r file inc; do
    case "$inc" in
        tlapi.h) continue ;;
        */*) bad "$file includes \"$inc\": stdlib/ names headers without a folder (its include path decides)"; continue ;;
        internal.h | kern.h | loops.h | reduce_loops.h) bad "$file includes \"$inc\", which is private to the runtime"; continue ;;
    esac
    [ -e "stdlib/$inc" ] || [ -e "runtime/$inc" ] || [ "$inc" = draw.h ] ||
        bad "$file includes \"$inc\": stdlib/ may include tlapi.h, runtime headers, draw.h and its own headers only"
done < <(quoted_includes stdlib/*.[ch])

# The pictures (draw/) know doubles, not tensors or the language: their own headers and the
# runtime's public ones (for the number format and errors) only.
while read -r file inc; do
    case "$inc" in internal.h | kern.h | loops.h | reduce_loops.h) bad "$file includes \"$inc\", which is private to the runtime"; continue ;; esac
    [ -e "draw/$inc" ] || [ -e "runtime/$inc" ] ||
        bad "$file includes \"$inc\": draw/ may include its own headers and the runtime's public ones only"
done < <(quoted_includes draw/*.[ch])

# The API's headers (tlapi.h, and value.h and span.h which it includes) must not pull a private
# header in behind the builtins' backs: they include each other and runtime headers only.
api_headers="tlapi.h value.h seq.h span.h"
while read -r file inc; do
    case " $api_headers " in *" $inc "*) continue ;; esac
    [ -e "runtime/$inc" ] || bad "$file includes \"$inc\": the builtin API's headers ($api_headers) may include each other and runtime headers only"
done < <(quoted_includes $(printf 'src/%s ' $api_headers))

# The interpreter sees stdlib/ only as the table list.
while read -r file inc; do
    [ -e "stdlib/$inc" ] && [ ! -e "src/$inc" ] && [ "$inc" != registry.h ] &&
        bad "$file includes \"$inc\": src/ may include stdlib's registry.h only"
done < <(quoted_includes src/*.[ch])

# Only interp.h defines the interpreter's state.
grep -l -E '^struct Interp[[:space:]]*\{' src/*.h stdlib/*.[ch] | grep -v -x 'src/interp.h' |
    while read -r file; do echo "check_includes: $file defines struct Interp (only src/interp.h may)"; done |
    grep . && fail=1

[ "$fail" = 0 ] && echo "check_includes: layering holds"
exit "$fail"
