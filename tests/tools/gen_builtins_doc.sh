#!/bin/sh
# gen_builtins_doc.sh — regenerates the table in docs/builtins.md from the builtin table itself:
# `help()` lists every name (in registry order), `help(name)` prints its signature and one-line help.
# usage: tests/tools/gen_builtins_doc.sh [path/to/tl]   (run from the repository root)
set -e
TL=${1:-build/src/tl}
DOC=docs/builtins.md
names=$("$TL" -e 'help()' | sed '1,/^Builtins:$/d')
table=$(mktemp)
{
    echo '| builtin | what it does |'
    echo '|---|---|'
    for n in $names; do "$TL" -e "help(\"$n\")" | sed "/^example:/,\$d"; done |
        paste - - | sed 's/|/\\|/g' |
        awk -F'\t' '{ help = $2; sub(/^  */, "", help); printf "| `%s` | %s |\n", $1, help }'
} > "$table"
# Replace what lies between the markers (or write the file if it has none).
if [ -f "$DOC" ] && grep -q '<!-- builtins:begin -->' "$DOC"; then
    awk -v table="$table" '
        /<!-- builtins:begin -->/ { print; while ((getline line < table) > 0) print line; skip = 1; next }
        /<!-- builtins:end -->/ { skip = 0 }
        !skip { print }' "$DOC" > "$DOC.tmp" && mv "$DOC.tmp" "$DOC"
else
    {
        echo '# Builtins'
        echo
        echo 'Every builtin with its signature and one-line help, generated from the builtin table'
        echo '(`tests/tools/gen_builtins_doc.sh`; do not edit the table by hand). `help(name)` prints the same.'
        echo
        echo '<!-- builtins:begin -->'
        cat "$table"
        echo '<!-- builtins:end -->'
    } > "$DOC"
fi
rm -f "$table"
