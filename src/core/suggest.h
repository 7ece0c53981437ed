/* suggest.h — "did you mean" for a name that is not one of the names a file may give: the
 * closest candidate by edit distance, or the candidates themselves (suggest.c). */
#ifndef UMPIRE_SUGGEST_H
#define UMPIRE_SUGGEST_H

#include <stddef.h>
#include "core/buf.h"

/* The candidate closest to word by edit distance (insertions, deletions, substitutions and
 * swaps of two neighbours each count 1), when close enough to be a slip of the keyboard: at
 * most 1 for words of up to 4 characters, 2 for longer ones, and never the whole word. Ties go
 * to the earliest candidate. NULL when none is that close. Points into candidates. */
const char *suggest_closest(const char *word, const char *const *candidates, size_t n);

/* Appends to out what to say after "no X 'word'": "; did you mean 'pitt'?" when a candidate
 * is close (suggest_closest), else "; one of: a, b, c" listing up to max candidates (", ...
 * (N in all)" when there are more), or nothing when there are none. */
void suggest_append(struct buf *out, const char *word, const char *const *candidates, size_t n,
	size_t max);

#endif
