/* error.h — the runtime's error slot: a message and its kind (the master list of error kinds) */
#ifndef TL_ERROR_H
#define TL_ERROR_H

#include <signal.h>
#include <stdbool.h>

/* Every error carries one kind, named by what went wrong (SPEC section 10):
   ShapeError      shapes that cannot broadcast, mismatched matmul dims, bad reshape, invalid shape
   IndexError      an index out of bounds, too many indices, a missing dict key
   TypeError       the wrong kind of value or dtype, a wrong number of arguments
   ValueError      a bad argument value
   ZeroDivisionError  integer division or modulo by zero
   MemoryError     an allocation that cannot be made
   FileError       a missing, unreadable, unwritable or malformed file
   RecursionError  calls nested too deeply
   AssertionError  assert(cond) with cond false
   Error           error(msg), and anything else
   The last two are never caught by try/catch: Interrupt (Ctrl-C, an embedder's step
   limit) and SyntaxError (the file does not run). */
#define TL_ERRKIND_LIST(X) \
    X(ShapeError) X(IndexError) X(TypeError) X(ValueError) X(ZeroDivisionError) X(MemoryError) \
    X(FileError) X(RecursionError) X(AssertionError) X(Error) X(Interrupt) X(SyntaxError)

typedef enum tl_errkind {
#define TL_ERRKIND_ENUM(k) TL_E_##k,
    TL_ERRKIND_LIST(TL_ERRKIND_ENUM)
#undef TL_ERRKIND_ENUM
    TL_NERRKINDS
} tl_errkind;

/* Runtime functions never print, exit or abort. On failure they set a
   thread-local message with its kind and return NULL (pointers) or -1 (ints). */
const char *tl_errmsg(void);
/* The kind of the message tl_errmsg() returns. */
tl_errkind tl_errkind_last(void);
/* Sets the message and its kind. */
void tl_seterr_kind(tl_errkind kind, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* tl_seterr(IndexError, "index %d ...", i): the kind is a bare name from the list
   above, pasted onto TL_E_, so a call without a kind, or with an unknown one, does
   not compile (and tests/check_error_kinds.py can read each message's kind). */
#define tl_seterr(kind, ...) tl_seterr_kind(TL_E_##kind, __VA_ARGS__)

/* "ShapeError" for TL_E_ShapeError. */
const char *tl_errkind_name(tl_errkind kind);
/* The kind named name; false when there is none. */
bool tl_errkind_parse(const char *name, tl_errkind *kind);
/* False for the kinds try/catch never catches (Interrupt, SyntaxError). */
bool tl_errkind_catchable(tl_errkind kind);

/* Set (asynchronously, e.g. by SIGINT) to ask long operations to stop;
   kernels check it between chunks and fail with "interrupted". */
extern volatile sig_atomic_t tl_interrupt_flag;
/* Returns -1 and sets the "interrupted" error (kind Interrupt) when the flag is set,
   unless interrupts are held. */
int tl_check_interrupt(void);
/* A write into an existing tensor (a[...] = v, a += b, x = x + y over x's own tensor) runs
   between these two calls: tl_check_interrupt() lets it finish, so Ctrl-C leaves the
   tensor wholly written or untouched, and the flag stays set for the next check after
   it. Calls nest; only the interpreter's thread makes them. */
void tl_interrupts_hold(void);
void tl_interrupts_release(void);

#endif
