/* dicts.c — dict builtins: dict, values, items, get, setdefault, update, popitem; pop, copy and clear on a dict */
#include <string.h>

#include "builtins.h"

/* Parameter i as a dict (it must be one). */
static bool dict_param(Interp *I, CallArgs *a, int i, Dict **out)
{
    Value *v = arg_kind(I, a, i, V_DICT);
    *out = v ? v->as.d : NULL;
    return v != NULL;
}

/* The key parameter i (a dict's keys are strings). */
static bool key_param(Interp *I, CallArgs *a, int i, const Str **out)
{
    *out = NULL;
    Value *v = arg_given(a, i);
    if (v->kind != V_STR) return bi_fail(I, a, TypeError, "dict keys are strings, not a %s", val_kind_name(*v));
    *out = v->as.s;
    return true;
}

enum { DICT_VALUES, DICT_ITEMS };

/* Entry i of d as a new (key, value) tuple; V_UNDEF with the tl error set when out of memory. */
static Value entry_pair(const Dict *d, int i)
{
    Value t = val_tuple_new(2), k = val_str(d->keys[i]->data, d->keys[i]->len);
    if (t.kind != V_TUPLE || k.kind != V_STR) {
        val_release(t);
        val_release(k);
        return (Value){ .kind = V_UNDEF };
    }
    t.as.tu->items[0] = k;
    t.as.tu->items[1] = val_retain(d->vals[i]);
    return t;
}

/* values(d): a list of the values; items(d): a list of (key, value) tuples; in insertion order. */
static bool bi_values_items(Interp *I, CallArgs *a, Value *out)
{
    Dict *d;
    if (!dict_param(I, a, 0, &d)) return false;
    Value l = val_list_new(d->n);
    if (l.kind != V_LIST) return interp_error_rt(I, a->at);
    for (int i = 0; i < d->n; i++) {
        Value item = a->self->tag == DICT_ITEMS ? entry_pair(d, i) : val_retain(d->vals[i]);
        if (item.kind == V_UNDEF) {
            val_release(l);
            return interp_error_rt(I, a->at);
        }
        l.as.l->items[l.as.l->n++] = item;
    }
    *out = l;
    return true;
}

/* get(d, key, default=none): d[key], or default when d has no such key. */
static bool bi_get(Interp *I, CallArgs *a, Value *out)
{
    Dict *d;
    if (!dict_param(I, a, 0, &d)) return false;
    Value k = *arg_given(a, 1);
    Value *v = k.kind == V_STR ? dict_get(d, k.as.s->data, k.as.s->len) : NULL;
    *out = v ? val_retain(*v) : arg_given(a, 2) ? val_retain(*arg_given(a, 2)) : val_none();
    return true;
}

/* pop(d, key, default): removes key and returns its value; default (when given) for a missing key. */
static bool bi_pop_dict(Interp *I, CallArgs *a, Value *out)
{
    Dict *d;
    const Str *k;
    if (!dict_param(I, a, 0, &d) || !key_param(I, a, 1, &k)) return false;
    Value *v = dict_get(d, k->data, k->len);
    if (!v) {
        char hint[300];
        if (!arg_given(a, 2)) return bi_fail(I, a, IndexError, "no key \"%.200s\" in this dict%s", k->data, dict_key_hint(d, k->data, hint, sizeof hint));
        *out = val_retain(*arg_given(a, 2));
        return true;
    }
    *out = val_retain(*v);
    dict_remove(d, k->data, k->len);
    return true;
}

/* popitem(d): removes the key inserted last and returns (key, value); an empty dict is an
   IndexError (Python's KeyError, as a missing key's). */
static bool bi_popitem(Interp *I, CallArgs *a, Value *out)
{
    Dict *d;
    if (!dict_param(I, a, 0, &d)) return false;
    if (d->n == 0) return bi_fail(I, a, IndexError, "the dict is empty");
    Value pair = entry_pair(d, d->n - 1);
    if (pair.kind == V_UNDEF) return interp_error_rt(I, a->at);
    const Str *k = pair.as.tu->items[0].as.s;
    dict_remove(d, k->data, k->len);
    *out = pair;
    return true;
}

/* Sets key k (a string value) to v (borrowed) in d. */
static bool set_pair(Interp *I, CallArgs *a, Dict *d, Value k, Value v)
{
    if (k.kind != V_STR) return bi_fail(I, a, TypeError, "dict keys are strings, not a %s", val_kind_name(k));
    return dict_set(d, k.as.s->data, k.as.s->len, val_retain(v)) || interp_error_rt(I, a->at);
}

/* d takes every key and value of parameter i: a dict, or an iterable of (key, value) pairs. */
static bool update_from(Interp *I, CallArgs *a, Dict *d, int i)
{
    Value other = *arg_given(a, i);
    if (other.kind == V_DICT) return dict_update(d, other.as.d) || interp_error_rt(I, a->at);
    Value pairs;
    if (!val_iter_list(other, &pairs)) return bi_fail(I, a, TypeError, "%s must be a dict or pairs, not a %s", arg_name(a, i), val_kind_name(other));
    bool ok = true;
    for (int64_t k = 0; k < pairs.as.l->n && ok; k++) {
        Value p = pairs.as.l->items[k];
        if (p.kind != V_TUPLE || p.as.tu->n != 2) ok = bi_fail(I, a, TypeError, "item %lld of %s is not a (key, value) pair", (long long)k, arg_name(a, i));
        else ok = set_pair(I, a, d, p.as.tu->items[0], p.as.tu->items[1]);
    }
    val_release(pairs);
    return ok;
}

/* d takes parameter i's keys and values when it is given (update_from), then every name=value
   keyword of the call (its **names). */
static bool update_with_names(Interp *I, CallArgs *a, Dict *d, int i)
{
    if (arg_at(a, i) && !update_from(I, a, d, i)) return false;
    for (int j = 0; j < a->nkw; j++)
        if (arg_kw_extra(a, j) && !dict_set(d, a->kwnames[j], strlen(a->kwnames[j]), val_retain(a->kw[j]))) return interp_error_rt(I, a->at);
    return true;
}

/* update(d, other=none, **names): d takes every key and value of the dict other (or of an
   iterable of pairs), then the keyword arguments. */
static bool bi_update(Interp *I, CallArgs *a, Value *out)
{
    Dict *d;
    if (!dict_param(I, a, 0, &d)) return false;
    *out = val_none();
    return update_with_names(I, a, d, 1);
}

/* dict(other=none, **names): a new dict of other's keys and values (a dict, or (key, value)
   pairs), then the keyword arguments, as Python's dict(). */
static bool bi_dict(Interp *I, CallArgs *a, Value *out)
{
    Value d = val_dict_new();
    if (d.kind != V_DICT) return interp_error_rt(I, a->at);
    if (!update_with_names(I, a, d.as.d, 0)) {
        val_release(d);
        return false;
    }
    *out = d;
    return true;
}

/* setdefault(d, key, default=none): d[key]; when d has no such key, sets it to default first. */
static bool bi_setdefault(Interp *I, CallArgs *a, Value *out)
{
    Dict *d;
    const Str *k;
    if (!dict_param(I, a, 0, &d) || !key_param(I, a, 1, &k)) return false;
    Value *v = dict_get(d, k->data, k->len);
    Value def = arg_given(a, 2) ? *arg_given(a, 2) : val_none();
    if (!v && !dict_set(d, k->data, k->len, val_retain(def))) return interp_error_rt(I, a->at);
    *out = val_retain(v ? *v : def);
    return true;
}

/* copy(d): a new dict of the same keys and values (a shallow copy). */
static bool bi_copy_dict(Interp *I, CallArgs *a, Value *out)
{
    Dict *d;
    if (!dict_param(I, a, 0, &d)) return false;
    Value r = val_dict_new();
    if (r.kind != V_DICT || !dict_update(r.as.d, d)) {
        val_release(r);
        return interp_error_rt(I, a->at);
    }
    *out = r;
    return true;
}

/* clear(d): removes every key. */
static bool bi_clear_dict(Interp *I, CallArgs *a, Value *out)
{
    Dict *d;
    if (!dict_param(I, a, 0, &d)) return false;
    dict_clear(d);
    *out = val_none();
    return true;
}

const Builtin bi_dicts_table[] = {
    { "values", bi_values_items, "values(d)", "the values of a dict, as a list", DICT_VALUES, BF_OTHER, BT_NO },
    { "items", bi_values_items, "items(d)", "the (key, value) pairs of a dict, as a list of tuples", DICT_ITEMS, BF_OTHER, BT_NO },
    { "get", bi_get, "get(d, key, default=none)", "d[key], or default when the dict has no such key", 0, BF_OTHER, BT_NO },
    { "update", bi_update, "update(d, other=none, **names)", "sets every key of the dict other (or of (key, value) pairs), then each name=value, in d", 0, BF_OTHER, BT_NO },
    { "popitem", bi_popitem, "popitem(d)", "removes the key inserted last and returns its (key, value) pair", 0, BF_OTHER, BT_NO },
    { "setdefault", bi_setdefault, "setdefault(d, key, default=none)", "d[key], set to default first when d has no such key", 0, BF_OTHER, BT_NO },
    { "dict", bi_dict, "dict(other=none, **names)", "a new dict of the keys and values of a dict or of (key, value) pairs, then of name=value", 0, BF_OTHER, BT_NO },
    { 0 },
};

const Builtin bi_dict_variants[] = {
    { "pop", bi_pop_dict, "pop(d, key, default=none)", "removes key and returns its value (default, when given, if it is missing)", 0, BF_OTHER, BT_NO },
    { "copy", bi_copy_dict, "copy(d)", "a new dict of the same keys and values", 0, BF_OTHER, BT_NO },
    { "clear", bi_clear_dict, "clear(d)", "removes every key of a dict", 0, BF_OTHER, BT_NO },
    { 0 },
};
