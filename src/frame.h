/* frame.h — call frames and closures: how the evaluator holds locals and function values (private to src/) */
#ifndef TL_FRAME_H
#define TL_FRAME_H

#include "ast.h"
#include "value.h"

/* Locals of a function that defines no function live on the C stack up to this many. */
#define FRAME_STACK_SLOTS 16

/* A call frame: slots for a function's locals; closures keep their frame alive. */
typedef struct Frame {
    int64_t refcount;
    struct Frame *parent;
    int nslots, cap;
    Value *slots;
    bool collecting;
    bool running;       /* a call runs in it (so it is held): frame_collect_cycles skips it */
} Frame;

struct Closure {
    int64_t refcount;
    FnDef *def;
    Frame *env;         /* the frame the function was defined in */
    Value *defaults;    /* def->nparams entries; V_NONE kind with no default marked by has_default */
    bool *has_default;
    Source *src;        /* keeps the defining source (and its AST arena) alive */
};

/* Frames: slots start V_UNDEF. Releasing also frees frames and closures that only
   cycles among them hold (frame_collect_cycles). */
Frame *frame_new(Frame *parent, int nslots);
void frame_release(Frame *f);
/* Frees the frames and closures reached from f that nothing outside their group holds
   (frame_cycles.c); f's count has just dropped. */
void frame_collect_cycles(Frame *f);
/* The same after a release of c left it held: looks only when c's one holder is a slot of its
   frame or of one around it, where a cycle can have closed. */
void closure_collect_cycles(Closure *c);
bool frame_ensure(Frame *f, int nslots);
void frame_clear(Frame *f);

#endif
