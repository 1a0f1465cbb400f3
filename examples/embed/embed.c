/* embed.c — tl inside a C program: tensors over the program's own arrays, a tl function run on
   them, its result read where tl left it, and a tl error handled (docs/embedding.md).

   Build it against an installed tl:
       cc embed.c $(pkg-config --cflags --libs tl) -o embed && ./embed */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <tl/tl.h>

#define ROWS 1000
#define COLS 1000

/* tl calls this when it no longer needs the array bound with tl_bind. */
static void on_release(void *ctx)
{
    printf("tl let go of %s\n", (const char *)ctx);
}

/* The float at (i, j) of a 2-d f32 array, wherever its strides put it. */
static float at2(const tl_array *a, int64_t i, int64_t j)
{
    return *(const float *)((const char *)a->data + i * a->strides[0] + j * a->strides[1]);
}

/* Prints tl's report of the last error and its parts. */
static void report(tl_state *S)
{
    const tl_error *e = tl_lasterror(S);
    printf("tl said (%s at line %d, column %d of %s):\n%s", e->kind, e->line, e->column, e->file, e->text);
}

int main(void)
{
    tl_state *S = tl_open();
    if (!S) {
        fputs("tl_open: out of memory\n", stderr);
        return 1;
    }
    int failures = 0;

    /* 1. Functions in tl. */
    if (tl_eval(S, "fn scale(x, s) = x * s + 1\n"
                   "fn rowsums(x) = sum(x, axis=1)\n") != TL_OK) {
        report(S);
        return 1;
    }

    /* 2. A 1,000 x 1,000 tensor over our own array, and a number: tl reads them in place. */
    float *x = malloc(sizeof(float) * ROWS * COLS);
    if (!x) return 1;
    for (int64_t i = 0; i < ROWS * COLS; i++) x[i] = (float)(i % 7);
    float s = 0.5f;
    tl_array args[2] = {
        tl_array_of(x, TL_TYPE_F32, 2, (int64_t[]){ ROWS, COLS }),
        tl_array_of(&s, TL_TYPE_F32, 0, NULL),
    };
    uint64_t before = tl_storage_count();
    tl_array y;
    if (tl_call(S, "scale", 2, args, &y) != TL_OK) {
        report(S);
        return 1;
    }
    uint64_t made = tl_storage_count() - before;
    /* 3. The result, read where tl computed it. */
    printf("scale(x, 0.5): %s, shape (%lld, %lld), y[2, 3] = %g (x[2, 3] = %g)\n", tl_typename(y.type),
           (long long)y.shape[0], (long long)y.shape[1], at2(&y, 2, 3), x[2 * COLS + 3]);
    printf("storages tl allocated for the call: %llu (its result; x was not copied)\n", (unsigned long long)made);
    failures += made != 1 || at2(&y, 2, 3) != x[2 * COLS + 3] * s + 1;

    /* 4. A name bound to our array: tl's writes land in it, and tl says when it is done with it. */
    double w[4] = { 1, 2, 3, 4 };
    tl_array wa = tl_array_of(w, TL_TYPE_F64, 1, (int64_t[]){ 4 });
    if (tl_bind(S, "w", &wa, on_release, "w") != TL_OK || tl_eval(S, "w[1:3] *= 10; total = sum(w)") != TL_OK) {
        report(S);
        return 1;
    }
    tl_array total;
    if (tl_get(S, "total", &total) != TL_OK) {
        report(S);
        return 1;
    }
    printf("after w[1:3] *= 10 in tl: w = [%g, %g, %g, %g] in C, total = %g\n", w[0], w[1], w[2], w[3],
           *(const double *)total.data);
    failures += w[1] != 20 || *(const double *)total.data != 55;

    /* 5. An error: a row sum of a 1-d tensor has no axis 1. It comes back as a value. */
    int st = tl_call(S, "rowsums", 1, &wa, NULL);
    if (st == TL_OK) {
        puts("rowsums(w) should have failed");
        failures++;
    } else {
        report(S);
        failures += st != TL_ERR_INDEX;
    }
    st = tl_eval(S, "z = w @ [1, 2]");
    if (st != TL_OK) report(S);
    failures += st != TL_ERR_SHAPE;

    tl_close(S);   /* lets go of w (on_release prints) */
    free(x);
    printf("%s\n", failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
