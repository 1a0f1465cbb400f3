#!/usr/bin/env bash
# Renders a manual page with man -l as a reader's man would, and fails on any warning groff gives
# (groff -ww: every category, undefined macros included; or when it renders nothing). Usage: check_man.sh PAGE.1
set -euo pipefail
page="$1"
command -v man >/dev/null || { echo "man is not installed (Debian: man-db)"; exit 77; }
out="$(mktemp)"; err="$(mktemp)"
trap 'rm -f "$out" "$err"' EXIT
LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings=w -E UTF-8 -l "$page" >"$out" 2>"$err"
if [ -s "$err" ]; then
  echo "man -l $page warned:"; cat "$err"; exit 1
fi
for section in NAME SYNOPSIS OPTIONS ENVIRONMENT 'THE SHELL' FILES; do
  grep -q "^$section" "$out" || { echo "$page: no $section section"; exit 1; }
done
echo "$page: $(wc -l <"$out") lines, no warnings"
