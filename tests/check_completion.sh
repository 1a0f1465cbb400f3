#!/usr/bin/env bash
# Runs tl's bash completion (share/bash-completion/tl) as bash would on some command lines and
# checks what it offers: every option tl --help lists, .tl files and folders, any file after
# --junit, nothing after an option that takes a number. Usage: check_completion.sh COMPLETION TL
set -uo pipefail
completion="$1" tl="$(realpath "$2")"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
cd "$dir" && mkdir sub && touch a.tl b.tl notes.txt && cd - >/dev/null || exit 1
# shellcheck disable=SC1090
source "$completion"
fail=0

# Completes the command line "$tl $*" (the last word is the one under the cursor), in $dir.
offers()
{
    COMP_WORDS=("$tl" "$@")
    COMP_CWORD=$#
    (cd "$dir" || exit; _tl; [ ${#COMPREPLY[@]} -eq 0 ] || printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ')
}

# Checks that completing "$tl WORDS..." offers exactly WANT.
expect()
{
    local want="$1"; shift
    local got
    got="$(offers "$@")"
    if [ "$got" != "$want" ]; then
        echo "tl $*<TAB>: offered [$got], wanted [$want]"
        fail=1
    fi
}

expect "--test --timeout " --t
expect "--durations " --dur
expect "--mark-statements " --m
expect "--version " --test --ver
expect "a.tl b.tl sub " ""
expect "a.tl " a
expect "a.tl b.tl sub " --test ""
expect "a.tl b.tl notes.txt sub " --test --junit ""
expect "" --test -j ""
expect "a.tl b.tl sub " -i ""
expect "" -e ""
# every option of the usage lines of tl --help is offered after a dash
want="$("$tl" --help | sed -n '/^[A-Za-z]*:$/q; s/^usage://; s/^ *//; s/  .*//; /^\(tl \|-\)/p' |
        grep -oE -- '(^| )--?[a-z][-a-z]*' | tr -d ' ' | sort -u | tr '\n' ' ')"
got="$(offers -)"
[ "$got" = "$want" ] || { echo "tl -<TAB>: offered [$got], wanted [$want]"; fail=1; }
[ "$fail" = 0 ] && echo "completion: $(wc -w <<<"$got") options and .tl files as expected"
exit "$fail"
