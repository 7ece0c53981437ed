/* suggest.c — did-you-mean for unknown names in order files and on the command line: the
 * optimal-string-alignment edit distance against each candidate, in the candidates' order, so
 * the suggestion never depends on anything but the inputs. */
#include <stdlib.h>
#include <string.h>

#include "core/suggest.h"
#include "core/banned.h"

#define SUGGEST_MAX_LEN 64 /* longer words or candidates are never suggested */

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;
	return m < c ? m : c;
}

/* Optimal string alignment distance of a and b (each at most SUGGEST_MAX_LEN bytes). */
static size_t distance(const char *a, size_t la, const char *b, size_t lb)
{
	static _Thread_local size_t d[SUGGEST_MAX_LEN + 1][SUGGEST_MAX_LEN + 1];

	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
				d[i - 2][j - 2] + 1 < d[i][j])
				d[i][j] = d[i - 2][j - 2] + 1;
		}
	return d[la][lb];
}

const char *suggest_closest(const char *word, const char *const *candidates, size_t n)
{
	size_t lw = strlen(word), best = (size_t)-1;
	const char *found = NULL;

	if (lw == 0 || lw > SUGGEST_MAX_LEN)
		return NULL;
	size_t limit = lw <= 4 ? 1 : 2;
	for (size_t i = 0; i < n; i++) {
		size_t lc = strlen(candidates[i]);
		if (lc > SUGGEST_MAX_LEN || strcmp(candidates[i], word) == 0)
			continue;
		size_t k = distance(word, lw, candidates[i], lc);
		if (k <= limit && k < lw && k < best) {
			best = k;
			found = candidates[i];
		}
	}
	return found;
}

void suggest_append(struct buf *out, const char *word, const char *const *candidates, size_t n,
	size_t max)
{
	const char *close = suggest_closest(word, candidates, n);

	if (close) {
		buf_printf(out, "; did you mean '%s'?", close);
		return;
	}
	if (n == 0)
		return;
	buf_puts(out, "; one of: ");
	for (size_t i = 0; i < n && i < max; i++)
		buf_printf(out, "%s%s", i ? ", " : "", candidates[i]);
	if (n > max)
		buf_printf(out, ", ... (%zu in all)", n);
}
