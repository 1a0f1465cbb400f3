// textmate_categories.js — what the TextMate grammar makes of each byte of some .tl files, through
// vscode-textmate and vscode-oniguruma (the engine Visual Studio Code uses).
//
//   node textmate_categories.js NPM_DIR GRAMMAR FILE...
//
// NPM_DIR holds node_modules/ with the two packages (tests/editors/npm_install.sh puts them
// there). For each file prints its path, then one character per byte (the letters of
// tl_tokens.c: s string, c comment, n number, k keyword, o other code, . no opinion), each on
// its own line; check_grammars.py compares them with tl's lexer.
"use strict";
const fs = require("fs");
const path = require("path");

const npm = path.resolve(process.argv[2]), grammarPath = process.argv[3], files = process.argv.slice(4);
const vsctm = require(path.join(npm, "node_modules", "vscode-textmate"));
const onig = require(path.join(npm, "node_modules", "vscode-oniguruma"));

// The category of a token from its scopes, innermost first: the first scope that says wins.
function category(scopes) {
  for (let i = scopes.length - 1; i >= 0; i--) {
    const s = scopes[i];
    if (s.startsWith("constant.numeric")) return "n";
    if (s.startsWith("comment")) return "c";
    if (s.startsWith("punctuation.section.embedded") || s.startsWith("meta.format-spec") ||
        s.startsWith("punctuation.separator.format-spec") || s.startsWith("storage.type.format")) return ".";
    if (s.startsWith("meta.embedded")) return "o";
    if (s.startsWith("string")) return "s";
    if (s.startsWith("keyword.operator.word") || s.startsWith("keyword.control") ||
        s.startsWith("storage.type.function") || s.startsWith("constant.language")) return "k";
  }
  return "o";
}

// Decodes UTF-8 bytes as a JS string, and for each UTF-16 unit the bytes [at, to) of its
// character; an invalid byte becomes U+FFFD, one character (as tl's lexer takes it).
function decode(bytes) {
  let str = "";
  const at = [], to = [];
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i];
    let n = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    for (let k = 1; k < n; k++) if (i + k >= bytes.length || (bytes[i + k] & 0xc0) !== 0x80) n = 0;
    let cp = 0xfffd;
    if (n === 1) cp = b;
    else if (n > 1) {
      cp = b & (0xff >> (n + 1));
      for (let k = 1; k < n; k++) cp = (cp << 6) | (bytes[i + k] & 0x3f);
      if ((n === 3 && cp < 0x800) || (n === 4 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp < 0xe000)) cp = 0xfffd, n = 0;
    }
    const ch = String.fromCodePoint(cp);
    str += ch;
    for (let u = 0; u < ch.length; u++) at.push(i), to.push(i + (n || 1));
    i += n || 1;
  }
  return { str, at, to };
}

async function main() {
  const wasm = fs.readFileSync(path.join(npm, "node_modules", "vscode-oniguruma", "release", "onig.wasm")).buffer;
  await onig.loadWASM(wasm);
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new onig.OnigScanner(patterns),
      createOnigString: (s) => new onig.OnigString(s),
    }),
    loadGrammar: async (scope) =>
      scope === "source.tl" ? vsctm.parseRawGrammar(fs.readFileSync(grammarPath, "utf8"), grammarPath) : null,
  });
  const grammar = await registry.loadGrammar("source.tl");
  const out = [];
  for (const file of files) {
    const bytes = fs.readFileSync(file);
    const cats = Buffer.alloc(bytes.length, ".".charCodeAt(0));
    let stack = vsctm.INITIAL, start = 0;
    while (start <= bytes.length) {
      let end = bytes.indexOf(0x0a, start);
      if (end < 0) end = bytes.length;
      const { str, at, to } = decode(bytes.subarray(start, end));
      const r = grammar.tokenizeLine(str, stack);
      for (const t of r.tokens) {
        const c = category(t.scopes).charCodeAt(0);
        for (let u = t.startIndex; u < Math.min(t.endIndex, at.length); u++) cats.fill(c, start + at[u], start + to[u]);
      }
      stack = r.ruleStack;
      start = end + 1;
    }
    out.push(file, cats.toString("latin1"));
  }
  process.stdout.write(out.join("\n") + "\n");
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
