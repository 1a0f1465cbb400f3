/* error.c — the runtime's error message slot and interrupt flag */
#include <stdarg.h>
#include <stdio.h>

#include "tensor.h"

static _Thread_local char errbuf[512];

volatile sig_atomic_t tl_interrupt_flag = 0;

const char *tl_errmsg(void) { return errbuf[0] ? errbuf : "unknown error"; }

void tl_seterr(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(errbuf, sizeof errbuf, fmt, ap);
    va_end(ap);
}

int tl_check_interrupt(void)
{
    if (!tl_interrupt_flag) return 0;
    tl_seterr("interrupted");
    return -1;
}
