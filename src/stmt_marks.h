/* stmt_marks.h — the statement markers `tl --mark-statements` prints and `tl --test` reads */
#ifndef TL_STMT_MARKS_H
#define TL_STMT_MARKS_H

/* `tl --mark-statements FILE` writes these to stdout (plan and statement markers) and stderr
   (statement markers): "\x1etl-plan L1 L2 ...\x1f" once after parsing, listing each top-level
   statement's first line, then "\x1etl-stmt L\x1f" before each top-level statement runs.
   The interpreter writes these and the golden runner parses them: this header is all they share. */
#define MARK_OPEN '\x1e'
#define MARK_CLOSE '\x1f'
#define MARK_PLAN "tl-plan"
#define MARK_STMT "tl-stmt"
/* Around a printed float tensor: "\x1etl-dtype f32\x1f" before it, "\x1etl-dtype\x1f" after it
   (the ulp tolerance compares its numbers in that dtype). */
#define MARK_DTYPE "tl-dtype"
/* Under --update, expect_close writes its file and says so: "\x1etl-wrote NAME\x1f". */
#define MARK_WROTE "tl-wrote"

#endif
