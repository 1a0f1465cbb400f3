#!/usr/bin/env python3
"""gen_man.py — tl(1) as roff, from docs/man/tl.1.md, the program's --help and docs/shell.md.

  gen_man.py TL_EXE TL1_MD SHELL_MD VERSION OUT

The page's source (tl.1.md) holds the prose; its @USAGE@, @OPTIONS@ and @ENVIRONMENT@ lines
become the usage lines and the environment list that `tl --help` prints, and @SHELL_KEYS@ and
@SHELL_COMMANDS@ the tables under "## Keys" and "## Commands" of shell.md. Markdown read:
headings, paragraphs, `code`, **bold**, *italic*, [links](x), definition items (a line, then
": text"), and tables (turned into tagged paragraphs).
"""
import re
import subprocess
import sys

# Characters outside ASCII as roff writes them, so any groff renders the page without warnings.
ROFF_CHARS = {"×": r"\(mu", "–": r"\(en", "—": r"\(em", "≥": r"\(>=", "≤": r"\(<=", "→": r"\(->",
              "‘": r"\(oq", "’": r"\(cq", "“": r"\(lq", "”": r"\(rq", "…": r"\&...", "µ": r"\(mc"}


def escape(text):
    """Plain text as roff: backslashes, hyphens, non-ASCII characters."""
    out = []
    for ch in text:
        if ch == "\\":
            out.append(r"\e")
        elif ch == "-":
            out.append(r"\-")
        elif ord(ch) > 127:
            out.append(ROFF_CHARS.get(ch, r"\[u%04X]" % ord(ch)))
        else:
            out.append(ch)
    return "".join(out)


def inline(text):
    """Markdown inline markup as roff fonts: `code` and **bold** bold, *italic* italic, links as their text."""
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", text)
    parts = re.split(r"(`[^`]+`|\*\*[^*]+\*\*|\*[^*\s][^*]*\*)", text)
    out = []
    for p in parts:
        if p.startswith("`") and p.endswith("`") and len(p) > 1:
            out.append(r"\fB" + escape(p[1:-1]) + r"\fR")
        elif p.startswith("**") and p.endswith("**") and len(p) > 3:
            out.append(r"\fB" + escape(p[2:-2]) + r"\fR")
        elif p.startswith("*") and p.endswith("*") and len(p) > 1:
            out.append(r"\fI" + escape(p[1:-1]) + r"\fR")
        else:
            out.append(escape(p))
    return "".join(out)


def line_safe(line):
    """A text line that roff cannot mistake for a request."""
    return "\\&" + line if line.startswith((".", "'")) else line


def tagged(term, desc):
    """One tagged paragraph: the term in bold (already roff when term_roff), its description below."""
    return [".TP", line_safe(r"\fB" + escape(term) + r"\fR"), line_safe(desc)]


def help_items(lines):
    """The (term, description) items of a two-column block of --help: the description column is
    where most lines' second column starts; a line indented that far continues the item above, a
    line at the left margin is a paragraph (None, text)."""
    starts = [len(m.group(1)) for m in (re.match(r"^(\s*\S.*?\s{2,})\S", l) for l in lines) if m]
    if not starts:
        return [(None, l.strip()) for l in lines if l.strip()]
    desc_col = max(set(starts), key=starts.count)
    items = []
    for raw in lines:
        if not raw.strip():
            continue
        indent = len(raw) - len(raw.lstrip())
        if items and indent >= desc_col - 1:
            term, desc = items[-1]
            items[-1] = (term, (desc + " " + raw.strip()).strip())
        elif indent == 0:
            items.append((None, raw.strip()))
        elif len(raw) > desc_col and raw[desc_col - 1] == " " and raw[desc_col] != " ":
            items.append((raw[:desc_col].strip(), raw[desc_col:].strip()))
        else:
            m = re.match(r"^\s*(\S.*?)(?:\s{2,}(\S.*))?$", raw)
            items.append((m.group(1), m.group(2) or ""))
    return items


def read_help(tl):
    """tl --help split into its usage block and its environment block."""
    text = subprocess.run([tl, "--help"], check=True, capture_output=True, text=True).stdout
    usage, env, cur = [], [], None
    for line in text.splitlines():
        if line.startswith("usage:"):
            cur = usage
            line = "      " + line[len("usage:"):]
        elif line.strip().rstrip(":").lower() == "environment":
            cur = env
            continue
        if cur is not None:
            cur.append(line)
    if not usage or not env:
        sys.exit("gen_man.py: tl --help has no usage lines or no Environment: list")
    return help_items(usage), help_items(env)


def synopsis(usage):
    """Each way to run tl, one line each (sub-options of --test stay in OPTIONS)."""
    out = []
    for term, _ in usage:
        if term and term.startswith("tl"):
            words = term.split(None, 1)
            out += [".br" if out else ".nh", r"\fBtl\fR " + escape(words[1] if len(words) > 1 else "")]
    return out + [".hy"]


def options(usage):
    out = []
    for term, desc in usage:
        if term is None:
            out += [".PP", line_safe(inline(desc))]
        elif term.startswith("tl"):
            out += tagged(term, inline(desc))
        else:   # an option of the command above it
            out += [".RS"] + tagged(term, inline(desc)) + [".RE"]
    return out


def environment(env):
    out = []
    for term, desc in env:
        out += [".PP", line_safe(inline(desc))] if term is None else tagged(term, inline(desc))
    return out


def md_table(md_text, heading):
    """The rows of the first table under `## heading`, as tagged paragraphs."""
    m = re.search(r"^##+ " + re.escape(heading) + r"\s*$(.*?)(?=^##+ |\Z)", md_text, re.M | re.S)
    if not m:
        sys.exit(f"gen_man.py: no section '{heading}' in shell.md")
    out = []
    rows = [l for l in m.group(1).splitlines() if l.startswith("|")]
    for row in rows[2:]:   # after the header and its --- line
        cells = [c.strip() for c in row.strip().strip("|").split(" | ")]
        if len(cells) >= 2:
            out += [".TP", line_safe(inline(cells[0])), line_safe(inline(" | ".join(cells[1:])))]
    if not out:
        sys.exit(f"gen_man.py: the section '{heading}' of shell.md has no table")
    return out


def page(md_lines, fills, version):
    """The whole page: the markdown from '## NAME' on, with its @NAME@ lines filled in."""
    start = next(i for i, l in enumerate(md_lines) if l.strip() == "## NAME")
    out = ['.TH TL 1 "" "tl %s" "User Commands"' % version]
    para = []

    def flush():
        if para:
            out.extend([".PP", line_safe(inline(" ".join(para)))])
            para.clear()

    lines = md_lines[start:]
    in_definition = False   # inside a definition item's text (": ..." and the lines after it)
    for i, line in enumerate(lines):
        s = line.strip()
        if in_definition and s and not s.startswith("#") and not (i + 1 < len(lines) and lines[i + 1].startswith(": ")):
            out.append(line_safe(inline(s[2:] if s.startswith(": ") else s)))
            continue
        in_definition = s.startswith(": ")
        if s.startswith("## "):
            flush()
            out.append(".SH " + escape(s[3:].upper()))
        elif s.startswith("### "):
            flush()
            out.append(".SS " + escape(s[4:]))
        elif re.fullmatch(r"@[A-Z_]+@", s):
            flush()
            out.extend(fills[s])
        elif s.startswith(": "):
            out.append(line_safe(inline(s[2:])))
        elif s and i + 1 < len(lines) and lines[i + 1].startswith(": "):
            flush()
            out.extend([".TP", line_safe(inline(s))])
        elif not s:
            flush()
        elif out[-1].startswith(".SH NAME"):
            out.append(line_safe(escape(s)))
        else:
            para.append(s)
    flush()
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) != 6:
        sys.exit(__doc__)
    tl, md, shell_md, version, dest = sys.argv[1:]
    usage, env = read_help(tl)
    shell = open(shell_md, encoding="utf-8").read()
    fills = {"@USAGE@": synopsis(usage), "@OPTIONS@": options(usage), "@ENVIRONMENT@": environment(env),
             "@SHELL_KEYS@": md_table(shell, "Keys"), "@SHELL_COMMANDS@": md_table(shell, "Commands")}
    text = page(open(md, encoding="utf-8").read().splitlines(), fills, version)
    with open(dest, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
