/* diag.h — diagnostics for untrusted input: collected, never printed one at a time, so a
 * player sees every problem in a file at once. Format: `file:line:column: error: message`,
 * with the message saying what is wrong and, in parentheses, what was expected. */
#ifndef UMPIRE_DIAG_H
#define UMPIRE_DIAG_H

#include <stdio.h>
#include <stddef.h>

struct diag_entry {
	char *file;       /* path as given by the user */
	int line;         /* 1-based */
	int column;       /* 1-based */
	char *message;    /* lowercase start, no full stop */
};

struct diag {
	struct diag_entry *v;  /* entries in the order added */
	size_t n;              /* number of entries */
	size_t cap;            /* allocated entries */
	size_t limit;          /* stop recording after this many (0 = 200); a note says so */
	size_t dropped;        /* entries not recorded because of the limit */
};

void diag_init(struct diag *d);
void diag_release(struct diag *d);
/* Records one error. file may be NULL ("<input>"); line/column < 1 become 1. */
void diag_add(struct diag *d, const char *file, int line, int column, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Number of errors recorded (including dropped ones). */
size_t diag_count(const struct diag *d);
/* Prints every entry, sorted by file, line, column (stable), one per line. */
void diag_print(const struct diag *d, FILE *out);

#endif
