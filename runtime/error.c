/* error.c — the runtime's error message slot, its kind, and the interrupt flag */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

static _Thread_local char errbuf[1024];   /* a shape error's aligned shapes included */
static _Thread_local tl_errkind errkind = TL_E_Error;

static const char *const kind_names[TL_NERRKINDS] = {
#define TL_ERRKIND_NAME(k) #k,
    TL_ERRKIND_LIST(TL_ERRKIND_NAME)
#undef TL_ERRKIND_NAME
};

volatile sig_atomic_t tl_interrupt_flag = 0;
/* Nesting depth of tl_interrupts_hold: written by the interpreter's thread alone (so a
   plain load and store suffice), read by kernel workers too. */
static _Atomic int interrupts_held;

const char *tl_errmsg(void) { return errbuf[0] ? errbuf : "unknown error"; }

tl_errkind tl_errkind_last(void) { return errkind; }

void tl_seterr_kind(tl_errkind kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(errbuf, sizeof errbuf, fmt, ap);
    va_end(ap);
    errkind = (unsigned)kind < TL_NERRKINDS ? kind : TL_E_Error;
}

const char *tl_errkind_name(tl_errkind kind) { return (unsigned)kind < TL_NERRKINDS ? kind_names[kind] : "Error"; }

bool tl_errkind_parse(const char *name, tl_errkind *kind)
{
    for (int k = 0; k < TL_NERRKINDS; k++)
        if (strcmp(kind_names[k], name) == 0) {
            *kind = (tl_errkind)k;
            return true;
        }
    return false;
}

bool tl_errkind_catchable(tl_errkind kind) { return kind != TL_E_Interrupt && kind != TL_E_SyntaxError; }

void tl_interrupts_hold(void)
{
    atomic_store_explicit(&interrupts_held, atomic_load_explicit(&interrupts_held, memory_order_relaxed) + 1,
                          memory_order_relaxed);
}

void tl_interrupts_release(void)
{
    atomic_store_explicit(&interrupts_held, atomic_load_explicit(&interrupts_held, memory_order_relaxed) - 1,
                          memory_order_relaxed);
}

int tl_check_interrupt(void)
{
    if (!tl_interrupt_flag || atomic_load_explicit(&interrupts_held, memory_order_relaxed) > 0) return 0;
    tl_seterr(Interrupt, "interrupted");
    return -1;
}
