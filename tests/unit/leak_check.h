/* leak_check.h — fails a unit test that leaks, in a build with AddressSanitizer (a suite opts in with LEAK_CHECKED_SUITE) */
#ifndef TL_TEST_LEAK_CHECK_H
#define TL_TEST_LEAK_CHECK_H

#include <criterion/criterion.h>
#include <stdlib.h>

/* GCC says __SANITIZE_ADDRESS__, clang __has_feature(address_sanitizer). */
#if defined(__SANITIZE_ADDRESS__)
#define TL_LEAK_CHECK 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TL_LEAK_CHECK 1
#endif
#endif
#ifdef TL_LEAK_CHECK
#include <sanitizer/lsan_interface.h>
#endif

/* Fails the running test when LeakSanitizer finds memory nothing points to any
   more (its report goes to stderr). Criterion runs each test in a process of its
   own and ignores the exit status LeakSanitizer gives it at exit, so without
   this check a leak would only be a line in the log. By the time a fini runs,
   Criterion 2.4 has recorded the test's result and a failed assertion would be
   logged but not counted; a process that dies in its teardown ("crashed during
   its setup or teardown") makes the whole executable exit 1, which meson counts. */
static inline void leak_check(void)
{
#ifdef TL_LEAK_CHECK
    if (__lsan_do_recoverable_leak_check()) {
        cr_log_error("LeakSanitizer found a leak (its report is on stderr)");
        abort();
    }
#endif
}

/* A suite whose every test ends with leak_check (a suite with a fini of its
   own calls leak_check at the end of it instead). */
#define LEAK_CHECKED_SUITE(name) TestSuite(name, .fini = leak_check)

#endif
