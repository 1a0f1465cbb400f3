#!/usr/bin/env bash
# Installs vscode-textmate and vscode-oniguruma (the engine VS Code highlights with) into DIR, a
# folder of the build (never committed), for the TextMate grammar's test. Usage: npm_install.sh DIR
set -euo pipefail
dir="$1"
if [ -f "$dir/node_modules/vscode-textmate/package.json" ] && [ -f "$dir/node_modules/vscode-oniguruma/release/onig.wasm" ]; then
  exit 0
fi
command -v npm >/dev/null || { echo "npm_install.sh: npm is not installed (Debian: nodejs npm)" >&2; exit 1; }
mkdir -p "$dir"
# versions pinned so a new release cannot change what the test checks
npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error vscode-textmate@9.3.2 vscode-oniguruma@2.0.1
