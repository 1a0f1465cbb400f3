/* fuzz_common.h — what the libFuzzer targets share: limits, a watchdog, a scratch file, output sinks */
#ifndef TL_FUZZ_COMMON_H
#define TL_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "tensor.h"

/* Limits every target runs under. They turn "the input asked for a lot" into an ordinary
   error (which is not a finding), so that what libFuzzer reports is a real defect. */
#define FUZZ_STORAGE_MAX_BYTES ((size_t)32 << 20)   /* one tensor's storage */
#define FUZZ_EVAL_STEPS 20000                       /* loop iterations and calls per program */
#define FUZZ_WALL_MS 2000                           /* then Ctrl-C is simulated (a backstop) */

/* Lowers tl_storage_max_bytes and starts the watchdog thread; call from LLVMFuzzerInitialize. */
void fuzz_init_limits(void);
/* Arms the watchdog for one input: after FUZZ_WALL_MS it sets tl_interrupt_flag, as Ctrl-C does. */
void fuzz_begin_input(void);
/* Disarms it and clears the interrupt flag. */
void fuzz_end_input(void);

/* A tl_write_fn that discards text (the formatter still produces all of it). */
int fuzz_discard(void *ctx, const char *s, size_t n);

/* Writes data to a scratch file named ...EXT in a private folder (made once, removed at exit);
   returns its path (owned by this module), or NULL when the file cannot be written. */
const char *fuzz_scratch_file(const char *ext, const uint8_t *data, size_t size);

/* Allows writing files only beneath the current folder and $TMPDIR when set (Linux Landlock:
   a fuzzed program may call save() with any path). Returns 0 when the
   sandbox is in force, -1 when the kernel cannot provide it. */
int fuzz_sandbox_writes(void);

#endif
