/* models.c — tensors held as ggml blocks: qtype, quantize, blocks */
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "quant.h"

/* qtype(x): the ggml type of a tensor held as blocks, or none. */
static bool bi_qtype(Interp *I, CallArgs *a, Value *out)
{
    (void)I;
    Value v = *arg_given(a, 0);
    const tl_ggml_type *q = v.kind == V_TENSOR ? tl_tensor_qtype(v.as.t) : NULL;
    *out = q ? val_cstr(q->name) : val_none();
    return true;
}

/* ---- quantize, blocks ---------------------------------------------------------------------- */

/* quantize(x, type): x held as ggml blocks of the named type. */
static bool bi_quantize(Interp *I, CallArgs *a, Value *out)
{
    const char *name;
    tl_tensor *x;
    char names[200];
    if (!arg_string(I, a, 1, NULL, &name)) return false;
    const tl_ggml_type *q = tl_ggml_type_named(name);
    if (!q || !q->quantize)
        return bi_fail(I, a, ValueError, "cannot quantize to \"%.40s\" (types: %s)", name, tl_quantize_names(names, sizeof names));
    if (!arg_tensor(I, a, 0, &x)) return false;
    tl_tensor *r = tl_quantize(x, q);
    tl_tensor_release(x);
    return ret_tensor(I, a, r, out);
}

/* blocks(w): the block fields of a quantized tensor as zero-copy read-only views. */
static bool bi_blocks(Interp *I, CallArgs *a, Value *out)
{
    Value v = *arg_given(a, 0);
    if (v.kind != V_TENSOR) return bi_fail(I, a, TypeError, "w must be a tensor held as ggml blocks, not a %s", val_kind_name(v));
    const tl_ggml_type *q = tl_tensor_qtype(v.as.t);
    tl_tensor *views[TL_QFIELDS_MAX];
    if (tl_qblocks(v.as.t, views) < 0) return interp_error_rt(I, a->at);
    Value d = val_dict_new();
    bool ok = d.kind == V_DICT;
    for (int k = 0; k < q->nfields; k++) {
        if (ok) ok = dict_set(d.as.d, q->fields[k].name, strlen(q->fields[k].name), val_from_tensor(views[k]));
        else tl_tensor_release(views[k]);
    }
    if (!ok) {
        val_release(d);
        return bi_fail(I, a, MemoryError, "out of memory");
    }
    *out = d;
    return true;
}

const Builtin bi_models_table[] = {
    { "qtype", bi_qtype, "qtype(x)", "the ggml type of a tensor held as ggml blocks (\"q8_0\", \"q4_k\", ...), else none", 0,
      BF_OTHER, BT_NO },
    { "quantize", bi_quantize, "quantize(x, type)",
      "x held as ggml blocks, byte for byte ggml's reference quantizers; type:" TL_GGML_QUANTIZED_NAMES, 0,
      BF_OTHER, BT_NO },
    { "blocks", bi_blocks, "blocks(w)", "the block fields of a quantized tensor as zero-copy read-only views (d, qs, ...)", 0,
      BF_OTHER, BT_NO },
    { 0 },
};
