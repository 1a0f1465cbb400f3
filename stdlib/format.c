/* format.c — format(template, *args, **names) as Python's str.format (fmt is the same function), repr and ascii */
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "registry.h"

/* Nested replacement fields in a spec ("{:{w}}") go this deep, as in Python. */
#define MAX_DEPTH 2

/* One call's template and arguments while its text is built. */
typedef struct Template {
    Interp *I;
    CallArgs *a;
    enum { NUMBERING_NONE, NUMBERING_AUTO, NUMBERING_MANUAL } numbering;
    int next_auto;          /* the next {} takes this argument */
    bool counting;          /* only counting the {} fields, for a message */
    int auto_fields;
} Template;


/* A part of the template: [s, e). */
typedef struct Piece {
    const char *s, *e;
} Piece;

/* The digits of p as a number: -1 when p is empty or holds another character, -2 past INT64_MAX. */
static int64_t piece_index(Piece p)
{
    if (p.s == p.e) return -1;
    int64_t acc = 0;
    for (const char *c = p.s; c < p.e; c++) {
        if (*c < '0' || *c > '9') return -1;
        if (acc > (INT64_MAX - (*c - '0')) / 10) return -2;
        acc = acc * 10 + (*c - '0');
    }
    return acc;
}

/* The auto-numbered fields of the whole template, for "N replacement fields but M arguments". */
static int count_auto_fields(Template *T);

/* The value a field's first part names: the next argument ({}), argument i ({1}) or a keyword
   argument ({name}); a new reference. */
static bool field_first(Template *T, Piece first, Value *out)
{
    CallArgs *a = T->a;
    int64_t i = piece_index(first);
    if (i == -2) return bi_fail(T->I, T->a, ValueError, "Too many decimal digits in format string");
    bool numeric = first.s == first.e || i >= 0;
    if (numeric) {
        bool automatic = first.s == first.e;
        if (T->numbering == NUMBERING_NONE) T->numbering = automatic ? NUMBERING_AUTO : NUMBERING_MANUAL;
        if (T->numbering == NUMBERING_MANUAL && automatic)
            return bi_fail(T->I, T->a, ValueError, "cannot switch from manual field specification to automatic field numbering");
        if (T->numbering == NUMBERING_AUTO && !automatic)
            return bi_fail(T->I, T->a, ValueError, "cannot switch from automatic field numbering to manual field specification");
        if (automatic) i = T->next_auto++;
        if (T->counting) {
            T->auto_fields += automatic;
            *out = val_none();
            return true;
        }
        if (i < a->nrest) {
            *out = val_retain(a->rest[i]);
            return true;
        }
        if (automatic) {
            int n = count_auto_fields(T);
            return bi_fail(T->I, a, ValueError, "%d replacement field%s but %d argument%s", n, n == 1 ? "" : "s",
                                 a->nrest, a->nrest == 1 ? "" : "s");
        }
        return bi_fail(T->I, a, ValueError, "replacement field {%lld} but %d argument%s", (long long)i, a->nrest,
                             a->nrest == 1 ? "" : "s");
    }
    if (T->counting) {
        *out = val_none();
        return true;
    }
    size_t len = (size_t)(first.e - first.s);
    for (int j = 0; j < a->nkw; j++)
        if (arg_kw_extra(a, j) && strlen(a->kwnames[j]) == len && memcmp(a->kwnames[j], first.s, len) == 0) {
            *out = val_retain(a->kw[j]);
            return true;
        }
    return bi_fail(T->I, a, ValueError, "replacement field {%.*s} but no argument named '%.*s'", (int)len, first.s,
                         (int)len, first.s);
}

/* obj.name in a field: an error's kind, message, ...; else the builtin `name` called with obj. */
static bool field_attr(Template *T, Value obj, Piece name, Value *out)
{
    char buf[64];
    size_t len = (size_t)(name.e - name.s);
    if (len >= sizeof buf) return bi_fail(T->I, T->a, ValueError, "attribute name too long in format string");
    memcpy(buf, name.s, len);
    buf[len] = '\0';
    if (obj.kind == V_ERROR && val_error_attr(obj, buf, out)) return out->kind != V_UNDEF || interp_error_rt(T->I, T->a->at);
    const Builtin *b = builtin_find(buf);
    if (!b) return bi_fail(T->I, T->a, Error, "no function named '%s' (in .%s)", buf, buf);
    Value fn = { .kind = V_BUILTIN };
    fn.as.bi = b;
    return interp_call(T->I, fn, 1, &obj, T->a->at, out);
}

/* obj[key] in a field: a tuple's item (key all digits) or a dict's entry. */
static bool field_item(Template *T, Value obj, Piece key, Value *out)
{
    int64_t i = piece_index(key);
    if (i == -2) return bi_fail(T->I, T->a, ValueError, "Too many decimal digits in format string");
    int klen = (int)(key.e - key.s);
    if (obj.kind == V_TUPLE && i >= 0) {
        if (i >= obj.as.tu->n) return bi_fail(T->I, T->a, IndexError, "tuple index %lld out of range", (long long)i);
        *out = val_retain(obj.as.tu->items[i]);
        return true;
    }
    if (obj.kind == V_DICT) {
        Value *v = dict_get(obj.as.d, key.s, (size_t)klen);
        if (!v) return bi_fail(T->I, T->a, IndexError, "no key '%.*s' in the dict", klen, key.s);
        *out = val_retain(*v);
        return true;
    }
    return bi_fail(T->I, T->a, TypeError, "a %s cannot be indexed by [%.*s] in a replacement field", val_kind_name(obj),
                         klen, key.s);
}

/* The value a field name ("0", "name", "x.shape", "t[0][1]") stands for (Python's
   field_name_split and FieldNameIterator). */
static bool field_value(Template *T, Piece name, Value *out)
{
    const char *p = name.s;
    while (p < name.e && *p != '.' && *p != '[') p++;
    if (!field_first(T, (Piece){ name.s, p }, out)) return false;
    while (p < name.e && !T->counting) {
        bool attr = *p == '.';
        if (*p != '.' && *p != '[') {
            val_release(*out);
            return bi_fail(T->I, T->a, ValueError, "Only '.' or '[' may follow ']' in format field specifier");
        }
        const char *s = ++p;
        if (attr) {
            while (p < name.e && *p != '.' && *p != '[') p++;
        } else {
            while (p < name.e && *p != ']') p++;
            if (p == name.e) {
                val_release(*out);
                return bi_fail(T->I, T->a, ValueError, "Missing ']' in format string");
            }
        }
        Piece part = { s, p };
        if (!attr) p++;
        if (s == part.e) {
            val_release(*out);
            return bi_fail(T->I, T->a, ValueError, "Empty attribute in format string");
        }
        Value next;
        bool ok = attr ? field_attr(T, *out, part, &next) : field_item(T, *out, part, &next);
        val_release(*out);
        if (!ok) return false;
        *out = next;
    }
    return true;
}

/* A field found by the iterator: its name, conversion and spec. */
typedef struct Field {
    Piece name, spec;
    char conversion;
    bool spec_has_fields;
} Field;

/* Reads a field after its '{' (Python's parse_field); *s moves past its '}'. */
static bool parse_field(Template *T, const char **s, const char *end, Field *f)
{
    const char *p = *s;
    char c = 0;
    memset(f, 0, sizeof *f);
    f->name.s = p;
    while (p < end) {
        c = *p++;
        if (c == '{') return bi_fail(T->I, T->a, ValueError, "unexpected '{' in field name");
        if (c == '[') {
            while (p < end && *p != ']') p++;
            continue;
        }
        if (c == '}' || c == ':' || c == '!') break;
    }
    f->name.e = p - 1;
    if (c == '!' || c == ':') {
        if (c == '!') {
            if (p >= end) return bi_fail(T->I, T->a, ValueError, "end of string while looking for conversion specifier");
            f->conversion = *p++;
            if (p < end) {
                c = *p++;
                if (c == '}') {
                    *s = p;
                    return true;
                }
                if (c != ':') return bi_fail(T->I, T->a, ValueError, "expected ':' after conversion specifier");
            }
        }
        f->spec.s = p;
        for (int depth = 1; p < end;) {
            c = *p++;
            if (c == '{') f->spec_has_fields = true, depth++;
            else if (c == '}' && --depth == 0) {
                f->spec.e = p - 1;
                *s = p;
                return true;
            }
        }
        return bi_fail(T->I, T->a, ValueError, "unmatched '{' in format spec");
    }
    if (c != '}') return bi_fail(T->I, T->a, ValueError, "expected '}' before end of string");
    *s = p;
    return true;
}

static bool build(Template *T, const char *s, const char *end, int depth, StrBuf *out);

/* One field: its value, its conversion, its spec (built first when it holds fields), written to out. */
static bool output_field(Template *T, const Field *f, int depth, StrBuf *out)
{
    Value v;
    if (!field_value(T, f->name, &v)) return false;
    char c = f->conversion;
    if (c && c != 'r' && c != 's' && c != 'a') {
        val_release(v);
        if (c > 32 && c < 127) return bi_fail(T->I, T->a, ValueError, "Unknown conversion specifier %c", c);
        return bi_fail(T->I, T->a, ValueError, "Unknown conversion specifier \\x%x", (unsigned)(unsigned char)c);
    }
    StrBuf built = { 0 };
    Piece spec = f->spec;
    bool ok = true;
    if (f->spec_has_fields) {
        ok = build(T, f->spec.s, f->spec.e, depth - 1, &built);
        spec = (Piece){ built.data ? built.data : "", built.data ? built.data + built.len : "" };
    }
    if (ok && !T->counting) {
        tl_fmtspec fs;
        tl_fmtspec_parse(&fs, spec.s ? spec.s : "", spec.s ? (size_t)(spec.e - spec.s) : 0);
        if (val_write_field(v, c, &fs, sb_write, out) < 0) ok = builtin_error(T->I, T->a, tl_errkind_last(), "%s", tl_errmsg());
    }
    sb_free(&built);
    val_release(v);
    return ok;
}

/* Python's build_string over [s, end): literal text and fields (MarkupIterator's rules). */
static bool build(Template *T, const char *s, const char *end, int depth, StrBuf *out)
{
    if (depth <= 0) return bi_fail(T->I, T->a, ValueError, "Max string recursion exceeded");
    while (s < end) {
        const char *start = s;
        char c = 0;
        bool markup = false;
        while (s < end) {
            c = *s++;
            if (c == '{' || c == '}') {
                markup = true;
                break;
            }
        }
        bool at_end = s >= end;
        size_t len = (size_t)(s - start);
        if (markup && c == '}' && (at_end || *s != '}')) return bi_fail(T->I, T->a, ValueError, "Single '}' encountered in format string");
        if (markup && c == '{' && at_end) return bi_fail(T->I, T->a, ValueError, "Single '{' encountered in format string");
        if (markup && *s == c) {
            s++;
            markup = false;   /* a doubled brace: one of it is text */
        } else if (markup) {
            len--;
        }
        if (!T->counting && len && !sb_append(out, start, len)) return interp_error_rt(T->I, T->a->at);
        if (!markup) continue;
        Field f;
        if (!parse_field(T, &s, end, &f) || !output_field(T, &f, depth, out)) return false;
    }
    return true;
}

/* Runs the template again only counting its {} fields (up to a syntax error, if any). */
static int count_auto_fields(Template *T)
{
    Template C = { T->I, T->a, NUMBERING_NONE, 0, true, 0 };
    const Str *t = arg_given(T->a, 0)->as.s;
    StrBuf none = { 0 };
    build(&C, t->data, t->data + t->len, MAX_DEPTH, &none);   /* stops at the first syntax error */
    sb_free(&none);
    return C.auto_fields;
}

/* format(template, *args, **names): Python's str.format. */
static bool bi_format(Interp *I, CallArgs *a, Value *out)
{
    Value t = *arg_given(a, 0);
    if (t.kind != V_STR) return bi_fail(I, a, TypeError, "the template must be a string, not a %s", val_kind_name(t));
    Template T = { I, a, NUMBERING_NONE, 0, false, 0 };
    StrBuf b = { 0 };
    bool ok = build(&T, t.as.s->data, t.as.s->data + t.as.s->len, MAX_DEPTH, &b);
    if (ok) {
        *out = val_str(b.data ? b.data : "", b.len);
        ok = out->kind == V_STR || interp_error_rt(I, a->at);
    }
    sb_free(&b);
    return ok;
}

/* repr(x): the echo form, a string quoted as Python quotes it; ascii(x): that with every
   non-ASCII character escaped. The conversions !r and !a of a replacement field (the row's tag). */
static bool bi_repr(Interp *I, CallArgs *a, Value *out)
{
    StrBuf b = { 0 };
    bool ok = val_write_field(*arg_given(a, 0), a->self->tag, NULL, sb_write, &b) == 0;
    if (ok) {
        *out = val_str(b.data ? b.data : "", b.len);
        ok = out->kind == V_STR;
    }
    sb_free(&b);
    return ok || interp_error_rt(I, a->at);
}

const Builtin bi_format_table[] = {
    { "format", bi_format, "format(template, /, *args, **names)",
      "Python's str.format: {} {0} {name} {x[0]} {x.attr}, !r !s !a, :spec (\"{:>8.3f}\".format(x) works too)", 0, BF_OTHER, BT_NO },
    { "fmt", bi_format, "fmt(template, /, *args, **names)", "the same function as format", 0, BF_OTHER, BT_NO },
    { "repr", bi_repr, "repr(x)", "the echo form of x as a string; a string quoted and escaped as Python's repr", 'r', BF_OTHER, BT_NO },
    { "ascii", bi_repr, "ascii(x)", "repr(x) with every non-ASCII character escaped (\\xe9, \\u4e2d, \\U0001f600), as Python's ascii", 'a', BF_OTHER, BT_NO },
    { 0 },
};
