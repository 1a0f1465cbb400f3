/* help.c — help(): a builtin's rows, a function, a value, a keyword or topic, the index, and search over them all */
#include <stdio.h>
#include <string.h>

#include "builtins.h"
#include "registry.h"
#include "suggest.h"

/* The topics help("NAME") explains, and the keywords that lead to each (docs/ has the whole story). */
static const struct Topic {
    const char *name, *keywords, *text;
} topics[] = {
    { "for", "for in break continue range",
      "for x in xs { ... } runs the block once per item of a range, tensor (its first axis), list,\n"
      "tuple, string or dict (its keys); for i, x in enumerate(xs) unpacks. break leaves the loop,\n"
      "continue goes to the next item.\n"
      "  for i in range(3) { print(i) }" },
    { "while", "while break continue", "while c { ... } runs the block while c is true.\n  i = 0; while i < 3 { i += 1 }" },
    { "if", "if else", "if c { ... } else if d { ... } else { ... }; the braces are required, no colon.\n"
                       "x if c else y is the expression form." },
    { "fn", "fn return lambda def global nonlocal",
      "fn name(p, q=1) { ... return v } defines a function; fn(x) = x * 2 is an anonymous one.\n"
      "fn f(p, *rest, k=1, **names): extra positional arguments in the tuple rest, extra keywords\n"
      "in the dict names; k, after *rest or a bare *, is given only by name: f(1, 2, k=3).\n"
      "A name assigned inside a function is local unless declared global name (or nonlocal name:\n"
      "an enclosing function's local)." },
    { "try", "try catch error raise except",
      "try { ... } catch e { ... } runs the handler when the body raises; e.kind, e.message,\n"
      "e.line, e.col say what and where. error(msg) or error(kind, msg) raises.\n"
      "  try { reshape(arange(6), 4) } catch e { print(e.kind) }" },
    { "slicing", "index slice none ellipsis",
      "x[i], x[a:b:step], x[..., 0], x[:, none] as numpy: basic indices give views, index tensors\n"
      "and boolean masks give copies. x[mask] = 0 writes in place." },
    { "broadcasting", "broadcast shape",
      "Two shapes broadcast from the right: each pair of sizes equal, or one of them 1.\n"
      "(3, 4) + (4,) is (3, 4); (3, 4) + (3,) is an error that shows both shapes aligned." },
    { "dtypes", "dtype cast astype float int",
      "bool u8 u16 u32 u64 i8 i16 i32 i64 f16 bf16 f32 f64 c64 c128; numpy's names (\"float32\") are\n"
      "accepted too. f32(x) casts, astype(x, \"f16\") by name, x.dtype tells. Promotion is numpy's." },
    { "formatting", "format fmt printopts f-string print printf percent",
      "f\"{x:.3f}\", format(\"{} {}\", a, b), \"{:>8}\".format(x) and \"%.3f %s\" % (x, s) are Python's;\n"
      "printopts(precision=4) changes how tensors print." },
    { "files", "load save npy npz safetensors gguf csv",
      "load(\"x.npy\") and save(\"x.npy\", x) for .npy .npz .safetensors .gguf .csv .txt;\n"
      "meta(path) reads a file's header without its data." },
    { "graphs", "graph explain trace",
      "g = graph(f, examples...) traces f into an operation graph; g(values...) runs it again,\n"
      "print(g) shows nodes and plan; :explain EXPR in the shell." },
    { "pictures", "plot hist scatter bar heatmap spark",
      "plot(y), hist(x), scatter(x, y), bar(v), heatmap(m), spark(v) draw in the terminal;\n"
      "to=\"f.png\" or \"f.svg\" writes a file." },
    { "testing", "test golden expect",
      "tl --test DIR runs each .tl file and compares its output with the #> lines (or X.out) beside it;\n"
      "--update rewrites them." },
    { "shell", "shell prompt exit quit history",
      "?name or name? is help(name); :help, :time EXPR, :explain EXPR, :vars, :apropos WORD;\n"
      "exit, quit or Ctrl-D leaves; Tab completes; _ is the last value echoed." },
};
#define NTOPICS ((int)(sizeof topics / sizeof topics[0]))

/* The topic named name, or one whose keywords hold it as a whole word; NULL when none. */
static const struct Topic *topic_find(const char *name)
{
    size_t n = strlen(name);
    for (int i = 0; i < NTOPICS; i++)
        if (strcmp(topics[i].name, name) == 0) return &topics[i];
    for (int i = 0; i < NTOPICS && n; i++)
        for (const char *k = topics[i].keywords; (k = strstr(k, name)); k += n)
            if ((k == topics[i].keywords || k[-1] == ' ') && (k[n] == ' ' || k[n] == '\0')) return &topics[i];
    return NULL;
}

/* Whether hay holds word, ignoring case. */
static bool holds(const char *hay, const char *word)
{
    size_t n = strlen(word);
    for (; *hay; hay++)
        if (strncasecmp(hay, word, n) == 0) return true;
    return n == 0;
}

/* help("*word*"): every builtin and topic whose name or text holds word; false when none does. */
static bool search(FILE *f, const char *word)
{
    int found = 0;
    for (int i = 0; i < builtin_count(); i++) {
        for (const Builtin *b = builtin_at(i); b; b = builtin_variant(b)) {
            if (!holds(b->name, word) && !holds(b->help, word)) continue;
            fprintf(f, "%-34s %s\n", b->signature, b->help);
            found++;
            break;
        }
    }
    for (int i = 0; i < NTOPICS; i++)
        if (holds(topics[i].name, word) || holds(topics[i].keywords, word) || holds(topics[i].text, word))
            fprintf(f, "help(\"%s\")%*s the topic\n", topics[i].name, (int)(26 - strlen(topics[i].name)), ""), found++;
    return found > 0;
}

/* help(): how to get help, the topics, the shell's commands, how to quit, then every builtin. */
static void index_page(FILE *f)
{
    fprintf(f, "help(NAME) shows a builtin's signature and description; help(x) describes a value; help(\"*word*\") searches.\n"
               "Topics, help(\"NAME\"):");
    for (int i = 0; i < NTOPICS; i++) fprintf(f, " %s", topics[i].name);
    fprintf(f, "\nIn the shell: ?NAME or NAME?, :help, :time EXPR, :explain EXPR, :vars, :apropos WORD;"
               " exit, quit or Ctrl-D leaves.\nBuiltins:\n");
    int col = 0;
    for (int i = 0; i < builtin_count(); i++) {
        const char *name = builtin_at(i)->name;
        int w = (int)strlen(name) + 1;
        if (col + w > 75) { fputc('\n', f); col = 0; }
        fprintf(f, "%s ", name);
        col += w;
    }
    fputc('\n', f);
}

/* A builtin's examples: each line of code after ">>> ", then what it prints, indented. */
static void print_examples(FILE *f, const char *name)
{
    int i = 0;
    for (const BuiltinExample *e; (e = builtin_example(name, &i));) {
        fprintf(f, "example:\n");
        for (const char *s = e->code; *s;) {
            size_t n = strcspn(s, "\n");
            fprintf(f, "  >>> %.*s\n", (int)n, s);
            s += n + (s[n] == '\n');
        }
        for (const char *s = e->output; *s;) {
            size_t n = strcspn(s, "\n");
            fprintf(f, "  %.*s\n", (int)n, s);
            s += n + (s[n] == '\n');
        }
    }
}

/* help(x) for a value that is no function: what it is, and where to read on. */
static void describe_value(FILE *f, Value v)
{
    if (v.kind == V_TENSOR) {
        char shape[TL_MAXDIM * 24 + 8];
        const tl_tensor *t = v.as.t;
        fprintf(f, "a tensor of %s, shape %s, %lld elements\n", tl_dtypes[t->dtype].name, tl_shape_str(t->ndim, t->shape, shape, sizeof shape),
                (long long)tl_tensor_size(t));
        fprintf(f, "  x.NAME(...) is NAME(x, ...): x.sum(axis=0), x.T, x.reshape(2, -1), x.astype(\"f32\");"
                   " help(\"slicing\"), help(\"broadcasting\"), help(\"dtypes\")\n");
        return;
    }
    fprintf(f, "a %s", val_kind_name(v));
    if (v.kind == V_NUM) fprintf(f, " of dtype %s", tl_dtypes[v.dtype].name);
    fputc('\n', f);
    if (v.kind == V_STR) fprintf(f, "  s.NAME(...) is NAME(s, ...): help(\"*string*\") lists the string functions\n");
    if (v.kind == V_LIST) fprintf(f, "  xs.NAME(...) is NAME(xs, ...): help(\"*list*\") lists the list functions\n");
    if (v.kind == V_DICT) fprintf(f, "  d.NAME(...) is NAME(d, ...): help(\"*dict*\") lists the dict functions\n");
}

/* help(name): a builtin's rows, a function's definition, a topic, a search, or a value. */
bool bi_help(Interp *I, CallArgs *a, Value *out)
{
    *out = val_none();
    FILE *f = interp_out(I);
    if (!arg_given(a, 0)) {
        index_page(f);
        return true;
    }
    const Builtin *b = NULL;
    Value v = *arg_given(a, 0);
    if (v.kind == V_FUNC) {
        StrBuf desc = { 0 };
        bool ok = interp_describe_function(v, &desc);
        if (ok) fprintf(f, "%s\n", desc.data);
        sb_free(&desc);
        return ok || interp_error_rt(I, a->at);
    }
    if (v.kind != V_BUILTIN && v.kind != V_STR) {
        describe_value(f, v);
        return true;
    }
    const char *name = v.kind == V_STR ? v.as.s->data : v.as.bi->name;
    b = v.kind == V_BUILTIN ? v.as.bi : builtin_find(name);
    if (b) {
        for (const Builtin *r = b; r; r = builtin_variant(r)) fprintf(f, "%s\n  %s\n", r->signature, r->help);   /* and its rows for other kinds */
        print_examples(f, b->name);
        return true;
    }
    const struct Topic *t = topic_find(name);
    if (t) {
        fprintf(f, "%s\n", t->text);
        return true;
    }
    size_t n = strlen(name);
    if (n > 2 && name[0] == '*' && name[n - 1] == '*') {
        char word[128];
        snprintf(word, sizeof word, "%.*s", (int)(n - 2), name + 1);
        if (!search(f, word)) fprintf(f, "nothing holds \"%s\"\n", word);
        return true;
    }
    const char *cands[NTOPICS + 1024];
    int nc = 0;
    for (int i = 0; i < NTOPICS; i++) cands[nc++] = topics[i].name;
    for (int i = 0; i < builtin_count() && nc < (int)(sizeof cands / sizeof cands[0]); i++) cands[nc++] = builtin_at(i)->name;
    char hint[200];
    tl_suggest_among(name, cands, nc, '\'', hint, sizeof hint);
    return bi_fail(I, a, ValueError, "no builtin or topic named %s%s (help() lists them; help(\"*%s*\") searches)", name, hint, name);
}
