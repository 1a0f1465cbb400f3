/* test_embed.c — the embedding API (include/tl/tl.h) through libtl.so as a program links it */
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tl/tl.h"
#include "leak_check.h"

/* Counts release calls of an array given to tl_bind. */
static void count_release(void *ctx) { (*(int *)ctx)++; }

/* Runs code, failing the test with tl's report when it does not succeed. */
static void run_ok(tl_state *S, const char *code)
{
    int st = tl_eval(S, code);
    cr_assert_eq(st, TL_OK, "%s failed: %s", code, tl_lasterror(S)->text);
}

/* The number in the global name, as a double. */
static double number(tl_state *S, const char *name)
{
    tl_array a;
    cr_assert_eq(tl_get(S, name, &a), TL_OK, "%s", tl_lasterror(S)->text);
    cr_assert_eq(a.ndim, 0);
    switch (a.type) {
    case TL_TYPE_I64: return (double)*(const int64_t *)a.data;
    case TL_TYPE_I32: return *(const int32_t *)a.data;
    case TL_TYPE_F32: return *(const float *)a.data;
    case TL_TYPE_F64: return *(const double *)a.data;
    default: cr_assert_fail("%s is %s", name, tl_typename(a.type));
    }
    return 0;
}

Test(embed, version_and_types)
{
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", TL_VERSION_MAJOR, TL_VERSION_MINOR, TL_VERSION_PATCH);
    cr_assert_str_eq(tl_version(), want);
    cr_assert_str_eq(tl_typename(TL_TYPE_F32), "f32");
    cr_assert_str_eq(tl_typename(TL_TYPE_BF16), "bf16");
    cr_assert_str_eq(tl_typename(TL_TYPE_COUNT), "?");
    cr_assert_eq(tl_typesize(TL_TYPE_C128), 16);
    cr_assert_eq(tl_typesize(TL_TYPE_BOOL), 1);
    cr_assert_eq(tl_typesize((tl_type)99), 0);
}

Test(embed, eval_keeps_variables_and_reports_ok)
{
    tl_state *S = tl_open();
    cr_assert_not_null(S);
    run_ok(S, "a = 2\nfn twice(x) = 2 * x");
    run_ok(S, "b = twice(a) + 0.5");
    cr_assert_float_eq(number(S, "b"), 4.5, 0);
    cr_assert_eq(tl_lasterror(S)->status, TL_OK);
    cr_assert_str_eq(tl_lasterror(S)->message, "");
    cr_assert_str_eq(tl_lasterror(S)->text, "");
    tl_close(S);
}

Test(embed, errors_are_values_with_kind_and_place)
{
    tl_state *S = tl_open();
    cr_assert_eq(tl_eval(S, "x = 1\ny = x + [1, 2] @ [1, 2, 3]"), TL_ERR_SHAPE);
    const tl_error *e = tl_lasterror(S);
    cr_assert_eq(e->status, TL_ERR_SHAPE);
    cr_assert_str_eq(e->kind, "ShapeError");
    cr_assert_str_eq(e->file, "<eval>");
    cr_assert_eq(e->line, 2);
    cr_assert_eq(e->column, 16);
    cr_assert(strstr(e->message, "matmul") != NULL, "%s", e->message);
    cr_assert(strncmp(e->text, "<eval>:2:16: error[ShapeError]: ", 32) == 0, "%s", e->text);
    cr_assert(strstr(e->text, "y = x + [1, 2] @ [1, 2, 3]\n") != NULL, "%s", e->text);
    /* the statement before the error ran; the state goes on */
    cr_assert_float_eq(number(S, "x"), 1, 0);
    run_ok(S, "x = x + 1");
    cr_assert_eq(tl_lasterror(S)->status, TL_OK);

    cr_assert_eq(tl_eval(S, "fn f(a) = a +"), TL_ERR_SYNTAX);
    cr_assert_str_eq(tl_lasterror(S)->kind, "SyntaxError");
    cr_assert_eq(tl_evalbuffer(S, "zzyzx", 5, "mine.tl", 0), TL_ERR_ERROR);
    e = tl_lasterror(S);
    cr_assert_str_eq(e->message, "name 'zzyzx' is not defined");   /* no name is close: no "did you mean" */
    cr_assert_str_eq(e->file, "mine.tl");
    cr_assert_eq(e->line, 1);
    cr_assert_eq(e->column, 1);
    cr_assert_eq(tl_eval(S, "error(\"custom\")"), TL_ERR_ERROR);
    cr_assert_eq(tl_eval(S, "assert(1 == 2)"), TL_ERR_ASSERTION);
    cr_assert_eq(tl_eval(S, "1 // 0"), TL_ERR_ZERO_DIVISION);
    cr_assert_eq(tl_eval(S, "[1, 2][5]"), TL_ERR_INDEX);
    /* caught inside tl: not an error for the caller */
    run_ok(S, "try { [1][3] } catch e { k = e.kind }");
    tl_close(S);
}

Test(embed, deep_recursion_is_an_error_not_a_crash)
{
    tl_state *S = tl_open();
    run_ok(S, "fn down(n) = down(n + 1)");
    cr_assert_eq(tl_eval(S, "down(0)"), TL_ERR_RECURSION);
    tl_array n = tl_array_of(&(int64_t){ 0 }, TL_TYPE_I64, 0, NULL);
    cr_assert_eq(tl_call(S, "down", 1, &n, NULL), TL_ERR_RECURSION);
    tl_close(S);
}

/* The recursion test on a thread whose stack is 256 KiB: the bound follows the thread's stack. */
static void *recurse_on_small_stack(void *unused)
{
    (void)unused;
    tl_state *S = tl_open();
    tl_eval(S, "fn down(n) = down(n + 1) + 1");
    int st = tl_eval(S, "down(0)");
    tl_close(S);
    return (void *)(intptr_t)st;
}

Test(embed, recursion_bound_follows_a_small_thread_stack)
{
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 256 << 10);
    pthread_t th;
    void *st;
    cr_assert_eq(pthread_create(&th, &attr, recurse_on_small_stack, NULL), 0);
    pthread_join(th, &st);
    pthread_attr_destroy(&attr);
    cr_assert_eq((intptr_t)st, TL_ERR_RECURSION);
}

Test(embed, get_reads_in_place)
{
    tl_state *S = tl_open();
    run_ok(S, "m = reshape(arange(12, dtype=\"f32\"), (3, 4)); t = m.T; b = broadcast_to([1, 2], (3, 2)); s = \"text\"");
    tl_array m, t;
    cr_assert_eq(tl_get(S, "m", &m), TL_OK);
    cr_assert_eq(m.type, TL_TYPE_F32);
    cr_assert_eq(m.ndim, 2);
    cr_assert_eq(m.shape[0], 3);
    cr_assert_eq(m.strides[0], 16);
    cr_assert_eq(m.strides[1], 4);
    cr_assert_eq(m.readonly, 0);
    const float *md = m.data;
    cr_assert_float_eq(md[6], 6.0f, 0);
    /* the variable's own elements: a write in C shows in tl */
    ((float *)m.data)[6] = 100.0f;
    run_ok(S, "v = m[1, 2]");
    cr_assert_float_eq(number(S, "v"), 100.0, 0);
    /* a transposed view shares them: byte strides say where */
    cr_assert_eq(tl_get(S, "t", &t), TL_OK);
    cr_assert_eq(t.strides[0], 4);
    cr_assert_eq(t.strides[1], 16);
    cr_assert_float_eq(*(const float *)((const char *)t.data + 2 * t.strides[0] + 1 * t.strides[1]), 100.0f, 0);
    tl_array b;
    cr_assert_eq(tl_get(S, "b", &b), TL_OK);
    cr_assert(b.readonly);
    cr_assert_eq(b.strides[0], 0);
    tl_array s;
    cr_assert_eq(tl_get(S, "s", &s), TL_ERR_TYPE);
    cr_assert_str_eq(tl_lasterror(S)->message, "'s' is a string, not a tensor");
    cr_assert_eq(tl_lasterror(S)->line, 0);
    cr_assert_eq(tl_get(S, "nope", &s), TL_ERR_ERROR);
    cr_assert_str_eq(tl_lasterror(S)->message, "name 'nope' is not defined");
    cr_assert_str_eq(tl_lasterror(S)->text, "error: name 'nope' is not defined\n");
    tl_close(S);
}

Test(embed, get_keeps_what_it_read_until_the_next_get)
{
    tl_state *S = tl_open();
    run_ok(S, "big = arange(100000.0)");
    tl_array a;
    cr_assert_eq(tl_get(S, "big", &a), TL_OK);
    run_ok(S, "big = 0");   /* rebinding does not free what tl_get handed out */
    cr_assert_float_eq(((const double *)a.data)[99999], 99999.0, 0);
    tl_close(S);
}

Test(embed, bind_is_zero_copy_both_ways_and_releases_once)
{
    tl_state *S = tl_open();
    int32_t data[2][3] = { { 1, 2, 3 }, { 4, 5, 6 } };
    int released = 0;
    tl_array a = tl_array_of(data, TL_TYPE_I32, 2, (int64_t[]){ 2, 3 });
    uint64_t before = tl_storage_count();
    cr_assert_eq(tl_bind(S, "d", &a, count_release, &released), TL_OK);
    run_ok(S, "total = sum(d); d[1, :] = 0; d[0, 0] += 10");
    cr_assert_eq(tl_storage_count(), before);   /* the elements were not copied */
    cr_assert_float_eq(number(S, "total"), 21, 0);
    cr_assert_eq(data[0][0], 11);
    cr_assert_eq(data[1][2], 0);
    data[0][1] = 7;   /* C's writes show in tl */
    run_ok(S, "second = d[0, 1]");
    cr_assert_eq(number(S, "second"), 7);
    tl_array back;
    cr_assert_eq(tl_get(S, "d", &back), TL_OK);
    cr_assert_eq(back.data, (void *)data);
    run_ok(S, "view = d[:, 1:]");
    run_ok(S, "d = 0");
    cr_assert_eq(released, 0);   /* view and tl_get's value still hold it */
    run_ok(S, "view = 0");
    cr_assert_eq(tl_get(S, "d", &back), TL_OK);
    cr_assert_eq(released, 1);
    tl_close(S);
    cr_assert_eq(released, 1);
}

Test(embed, bind_released_at_close_and_numbers_at_once)
{
    int released = 0, released_num = 0;
    tl_state *S = tl_open();
    double v[3] = { 1, 2, 3 }, one = 5;
    tl_array a = tl_array_of(v, TL_TYPE_F64, 1, (int64_t[]){ 3 });
    cr_assert_eq(tl_bind(S, "v", &a, count_release, &released), TL_OK);
    tl_array n = tl_array_of(&one, TL_TYPE_F64, 0, NULL);
    cr_assert_eq(tl_bind(S, "one", &n, count_release, &released_num), TL_OK);
    cr_assert_eq(released_num, 1);   /* a number is copied: its memory is not needed */
    run_ok(S, "w = v * one");
    cr_assert_eq(released, 0);
    tl_close(S);
    cr_assert_eq(released, 1);
}

Test(embed, bind_checks_the_array)
{
    tl_state *S = tl_open();
    int released = 0;
    double d[4] = { 0 };
    tl_array a = tl_array_of((char *)d + 1, TL_TYPE_F64, 1, (int64_t[]){ 3 });
    cr_assert_eq(tl_bind(S, "x", &a, count_release, &released), TL_ERR_VALUE);
    cr_assert(strstr(tl_lasterror(S)->message, "aligned") != NULL, "%s", tl_lasterror(S)->message);
    a = tl_array_of(d, TL_TYPE_F64, 1, (int64_t[]){ 3 });
    a.strides[0] = 12;
    cr_assert_eq(tl_bind(S, "x", &a, count_release, &released), TL_ERR_VALUE);
    a = tl_array_of(d, TL_TYPE_F64, 1, (int64_t[]){ -1 });
    cr_assert_eq(tl_bind(S, "x", &a, count_release, &released), TL_ERR_SHAPE);
    a = tl_array_of(d, (tl_type)77, 1, (int64_t[]){ 4 });
    cr_assert_eq(tl_bind(S, "x", &a, count_release, &released), TL_ERR_TYPE);
    a = tl_array_of(d, TL_TYPE_F64, 40, (int64_t[40]){ 0 });
    cr_assert_eq(tl_bind(S, "x", &a, count_release, &released), TL_ERR_VALUE);
    a = tl_array_of(d, TL_TYPE_F64, 2, (int64_t[]){ INT64_MAX / 2, 3 });   /* its strides overflow too */
    cr_assert_neq(tl_bind(S, "x", &a, count_release, &released), TL_OK);
    a = tl_array_of(d, TL_TYPE_F64, 1, (int64_t[]){ 3 });
    a.strides[0] = INT64_MAX / 8 * 8;   /* three elements a whole address space apart */
    cr_assert_eq(tl_bind(S, "x", &a, count_release, &released), TL_ERR_VALUE);
    cr_assert(strstr(tl_lasterror(S)->message, "span more bytes") != NULL, "%s", tl_lasterror(S)->message);
    cr_assert_eq(released, 0);   /* a failed bind never releases */
    /* an empty array needs no memory at all */
    a = tl_array_of(NULL, TL_TYPE_F32, 2, (int64_t[]){ 0, 5 });
    cr_assert_eq(tl_bind(S, "e", &a, count_release, &released), TL_OK);
    run_ok(S, "n = len(e); s = shape(e)[1]");
    cr_assert_eq(number(S, "s"), 5);
    tl_close(S);
    cr_assert_eq(released, 1);
}

Test(embed, strided_and_readonly_arrays)
{
    tl_state *S = tl_open();
    double d[12];
    for (int i = 0; i < 12; i++) d[i] = i;
    /* every other element backwards: data at d[10], stride -16 bytes */
    tl_array a = tl_array_of(d + 10, TL_TYPE_F64, 1, (int64_t[]){ 6 });
    a.strides[0] = -16;
    a.readonly = 1;
    cr_assert_eq(tl_bind(S, "r", &a, NULL, NULL), TL_OK);
    run_ok(S, "first = r[0]; last = r[-1]; total = sum(r)");
    cr_assert_eq(number(S, "first"), 10);
    cr_assert_eq(number(S, "last"), 0);
    cr_assert_eq(number(S, "total"), 30);
    cr_assert_neq(tl_eval(S, "r[0] = 1"), TL_OK);
    cr_assert_eq(d[10], 10);
    cr_assert_neq(tl_eval(S, "r[1:] += 1"), TL_OK);
    cr_assert_eq(d[8], 8);
    tl_close(S);
}

Test(embed, call_reads_arguments_in_place)
{
    tl_state *S = tl_open();
    run_ok(S, "fn scale(x, s) = x * s + 1");
    enum { N = 1000 };
    float *x = malloc(sizeof(float) * N * N);
    for (int i = 0; i < N * N; i++) x[i] = (float)(i % 5);
    float s = 2;
    tl_array args[2] = { tl_array_of(x, TL_TYPE_F32, 2, (int64_t[]){ N, N }), tl_array_of(&s, TL_TYPE_F32, 0, NULL) };
    tl_array y;
    uint64_t before = tl_storage_count();
    cr_assert_eq(tl_call(S, "scale", 2, args, &y), TL_OK, "%s", tl_lasterror(S)->text);
    cr_assert_eq(tl_storage_count() - before, 1, "the call allocated %llu storages: only its result is new",
                 (unsigned long long)(tl_storage_count() - before));
    cr_assert_eq(y.type, TL_TYPE_F32);
    cr_assert_eq(y.shape[1], N);
    cr_assert_float_eq(((const float *)y.data)[N * 3 + 4], (float)((N * 3 + 4) % 5) * 2 + 1, 0);
    /* the result outlives a tl_eval; tl_setglobal keeps it past the next call */
    run_ok(S, "unrelated = 1");
    cr_assert_float_eq(((const float *)y.data)[1], 3.0f, 0);
    cr_assert_eq(tl_setglobal(S, "kept"), TL_OK);
    run_ok(S, "k = kept[0, 1]");
    cr_assert_eq(number(S, "k"), 3);
    free(x);
    tl_close(S);
}

Test(embed, call_results_and_builtins)
{
    tl_state *S = tl_open();
    double v[3] = { 3, 1, 2 };
    tl_array a = tl_array_of(v, TL_TYPE_F64, 1, (int64_t[]){ 3 });
    tl_array r;
    cr_assert_eq(tl_call(S, "sum", 1, &a, &r), TL_OK);
    cr_assert_eq(r.ndim, 0);
    cr_assert(r.readonly);
    cr_assert_float_eq(*(const double *)r.data, 6.0, 0);
    cr_assert_eq(tl_call(S, "sort", 1, &a, &r), TL_OK);
    cr_assert_float_eq(((const double *)r.data)[0], 1.0, 0);
    cr_assert_eq(v[0], 3);   /* sort made its own tensor */
    run_ok(S, "fn nothing(x) { y = x }\nfn name(x) = \"str\"");
    cr_assert_eq(tl_call(S, "nothing", 1, &a, NULL), TL_OK);
    cr_assert_eq(tl_call(S, "name", 1, &a, &r), TL_ERR_TYPE);
    cr_assert_str_eq(tl_lasterror(S)->message, "the result is a string, not a tensor");
    tl_close(S);
}

Test(embed, call_errors)
{
    tl_state *S = tl_open();
    run_ok(S, "fn f(x) = x[10]\nnotfn = 3");
    double v[3] = { 1, 2, 3 };
    tl_array a = tl_array_of(v, TL_TYPE_F64, 1, (int64_t[]){ 3 });
    cr_assert_eq(tl_call(S, "f", 1, &a, NULL), TL_ERR_INDEX);
    const tl_error *e = tl_lasterror(S);
    cr_assert_eq(e->line, 1);
    cr_assert_str_eq(e->file, "<eval>");
    cr_assert(strstr(e->text, "<tl_call>:1:1: note: called from here\n  f\n") != NULL, "%s", e->text);
    cr_assert_eq(tl_call(S, "f", 2, (tl_array[]){ a, a }, NULL), TL_ERR_TYPE);
    cr_assert_str_eq(tl_lasterror(S)->file, "<tl_call>");
    cr_assert_eq(tl_call(S, "notfn", 1, &a, NULL), TL_ERR_TYPE);
    cr_assert_eq(tl_call(S, "missing", 1, &a, NULL), TL_ERR_ERROR);
    cr_assert_str_eq(tl_lasterror(S)->message, "name 'missing' is not defined");
    cr_assert_eq(tl_call(S, "f", -1, NULL, NULL), TL_ERR_VALUE);
    tl_close(S);
}

Test(embed, call_lets_go_of_arguments)
{
    tl_state *S = tl_open();
    run_ok(S, "fn keep(x) { global held; held = x; return x[1:] }\nfn bump(x) { x[0] = 99 }");
    double *v = malloc(sizeof(double) * 100);
    for (int i = 0; i < 100; i++) v[i] = i;
    tl_array a = tl_array_of(v, TL_TYPE_F64, 1, (int64_t[]){ 100 });
    tl_array r;
    cr_assert_eq(tl_call(S, "keep", 1, &a, &r), TL_OK);
    /* both the global and the result (a view of the argument) now have their own copy */
    cr_assert_neq(r.data, (void *)(v + 1));
    cr_assert_float_eq(((const double *)r.data)[0], 1.0, 0);
    for (int i = 0; i < 100; i++) v[i] = -1;
    free(v);   /* tl holds nothing of it: ASan would see any later read */
    run_ok(S, "h = held[5] + held[99]");
    cr_assert_eq(number(S, "h"), 104);
    cr_assert_float_eq(((const double *)r.data)[98], 99.0, 0);
    double w[2] = { 1, 2 };
    tl_array b = tl_array_of(w, TL_TYPE_F64, 1, (int64_t[]){ 2 });
    cr_assert_eq(tl_call(S, "bump", 1, &b, NULL), TL_OK);
    cr_assert_eq(w[0], 99);   /* a function that writes its argument writes the caller's array */
    b.readonly = 1;
    cr_assert_neq(tl_call(S, "bump", 1, &b, NULL), TL_OK);
    tl_close(S);
}

Test(embed, echo_and_output)
{
    tl_state *S = tl_open();
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    tl_setoutput(S, f);
    run_ok(S, "1 + 1\nprint(\"hi\")");
    const char *code = "2 + 3\nx = 4\nx";
    cr_assert_eq(tl_evalbuffer(S, code, strlen(code), NULL, TL_EVAL_ECHO), TL_OK);
    fflush(f);
    cr_assert_str_eq(buf, "hi\n5\n4\n");
    tl_setoutput(S, NULL);
    fclose(f);
    free(buf);
    tl_close(S);
}

/* Runs `while true {}` in a state until tl_interrupt stops it; returns its status. */
static void *spin(void *p)
{
    tl_state *S = p;
    return (void *)(intptr_t)tl_eval(S, "i = 0\nwhile true { i = i + 1 }");
}

Test(embed, interrupt_stops_a_loop_and_the_state_goes_on)
{
    tl_state *S = tl_open();
    pthread_t th;
    cr_assert_eq(pthread_create(&th, NULL, spin, S), 0);
    usleep(50000);
    tl_interrupt();
    void *st;
    pthread_join(th, &st);
    cr_assert_eq((intptr_t)st, TL_ERR_INTERRUPT);
    cr_assert_str_eq(tl_lasterror(S)->kind, "Interrupt");
    run_ok(S, "j = 1");   /* the request was used up */
    tl_close(S);
}

/* One thread's own state: sums of squares computed in tl, checked against C. */
static void *worker(void *p)
{
    int id = (int)(intptr_t)p, bad = 0;
    tl_state *S = tl_open();
    double v[64];
    for (int i = 0; i < 64; i++) v[i] = i + id;
    tl_array a = tl_array_of(v, TL_TYPE_F64, 1, (int64_t[]){ 64 });
    bad |= tl_eval(S, "fn sq(x) = sum(x * x)") != TL_OK;
    for (int round = 0; round < 200 && !bad; round++) {
        tl_array r;
        double want = 0;
        for (int i = 0; i < 64; i++) want += v[i] * v[i];
        bad |= tl_call(S, "sq", 1, &a, &r) != TL_OK || *(const double *)r.data != want;
        v[round % 64] += 1;
    }
    tl_close(S);
    return (void *)(intptr_t)bad;
}

Test(embed, one_state_per_thread)
{
    pthread_t th[4];
    for (int i = 0; i < 4; i++) cr_assert_eq(pthread_create(&th[i], NULL, worker, (void *)(intptr_t)i), 0);
    for (int i = 0; i < 4; i++) {
        void *bad;
        pthread_join(th[i], &bad);
        cr_assert_eq((intptr_t)bad, 0, "thread %d", i);
    }
}

/* Its own suite, checked for leaks (in a build with AddressSanitizer): the dicts and lists a
   state made that hold themselves, directly or through tuples, lists, dicts and closures, and
   that nothing else holds, are freed when the state closes, whether a run, an error that left
   a cycle behind or a call made them. */
LEAK_CHECKED_SUITE(embed_cycles);

Test(embed_cycles, cycles_are_freed_when_the_state_closes)
{
    tl_state *S = tl_open();
    cr_assert_not_null(S);
    run_ok(S, "d = {}\nc = (1, d)\nd[\"c\"] = c\nl = list()\nl.append(l)\nm = [1, {\"x\": l, \"t\": zeros(100)}]\nl.append(m)");
    run_ok(S, "fn knot() {\n    k = {}\n    k[\"self\"] = [k, (k,)]\n    return 0\n}\nknot()");
    run_ok(S, "e = {}\nf = fn() = e\ne[\"f\"] = f");
    /* an error between making a cycle and breaking it */
    cr_assert_neq(tl_eval(S, "if true {\n    q = {}\n    q[\"q\"] = q\n    nope()\n    q[\"q\"] = 0\n}"), TL_OK);
    run_ok(S, "fn cyc(n) {\n    a = list()\n    a.append(a)\n    return n\n}");
    tl_array arg = tl_array_of(&(int64_t){ 3 }, TL_TYPE_I64, 0, NULL), out;
    cr_assert_eq(tl_call(S, "cyc", 1, &arg, &out), TL_OK, "%s", tl_lasterror(S)->text);
    /* dropping the globals that held them leaves only the cycles */
    run_ok(S, "d = 0\nc = 0\nl = 0\nm = 0\ne = 0\nf = 0");
    tl_close(S);
}

/* Frames and closures that hold one another across calls (a closure made in one call and kept
   in another's frame) are freed when the call that closes the cycle returns, not at the end:
   the bound array they hold is released while the state is still open, in either build. */
Test(embed_cycles, frame_closure_cycles_are_freed_during_the_run)
{
    static const char *const programs[] = {
        /* compose: the caller's frame keeps a closure whose frame keeps the caller's lambdas */
        "fn compose(f, g) = fn(x) = f(g(x))\n"
        "fn pipeline() {\n    keep = w\n    h = compose(fn(x) = x + 1, fn(x) = x * 2)\n    return h(3)\n}\n"
        "r = pipeline()",
        /* a function defined in a call returns a closure the outer call keeps */
        "fn outer() {\n    keep = w\n    fn mid() {\n        fn inner() = keep\n        return inner\n    }\n"
        "    g = mid()\n    return 0\n}\nr = outer()",
        /* nonlocal: an inner call stores its closure in the outer call's frame */
        "fn outer() {\n    f = w\n    fn g() {\n        nonlocal f\n        f = fn() = 1\n        return 0\n    }\n"
        "    return g()\n}\nr = outer()",
        /* the same closure returned, and let go later: the release closes the cycle */
        "fn outer() {\n    keep = w\n    n = 0\n    fn g() {\n        nonlocal n\n        n = fn() = keep\n        return 0\n    }\n"
        "    g()\n    return n\n}\nr = outer()\nr = 0",
    };
    for (size_t i = 0; i < sizeof programs / sizeof *programs; i++) {
        tl_state *S = tl_open();
        double v[2] = { 1, 2 };
        int released = 0;
        tl_array a = tl_array_of(v, TL_TYPE_F64, 1, (int64_t[]){ 2 });
        cr_assert_eq(tl_bind(S, "w", &a, count_release, &released), TL_OK);
        run_ok(S, programs[i]);
        run_ok(S, "w = 0");
        cr_assert_eq(released, 1, "program %zu: its frames still hold w", i);
        tl_close(S);
    }
}
