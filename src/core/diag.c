/* diag.c — collected diagnostics for untrusted input. Errors are recorded as they are
 * found and printed together, sorted by position, so a player sees every problem in a
 * file at once and in reading order. */
#include "core/diag.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/banned.h"

enum { DIAG_DEFAULT_LIMIT = 200 };

void diag_init(struct diag *d)
{
	memset(d, 0, sizeof(*d));
}

void diag_release(struct diag *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->v[i].file);
		free(d->v[i].message);
	}
	free(d->v);
	d->v = NULL;
	d->n = 0;
	d->cap = 0;
	d->dropped = 0;
}

void diag_add(struct diag *d, const char *file, int line, int column, const char *fmt, ...)
{
	size_t limit = d->limit ? d->limit : DIAG_DEFAULT_LIMIT;
	if (d->n >= limit) {
		d->dropped++;
		return;
	}
	if (d->n == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 16;
		d->v = xrealloc(d->v, d->cap * sizeof(*d->v));
	}
	struct buf msg = BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&msg, fmt, ap);
	va_end(ap);
	struct diag_entry *e = &d->v[d->n++];
	e->file = xstrdup(file ? file : "<input>");
	e->line = line < 1 ? 1 : line;
	e->column = column < 1 ? 1 : column;
	e->message = buf_detach(&msg);
}

size_t diag_count(const struct diag *d)
{
	return d->n + d->dropped;
}

static int entry_cmp(const struct diag_entry *a, const struct diag_entry *b)
{
	int c = strcmp(a->file, b->file);
	if (c)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->column != b->column)
		return a->column < b->column ? -1 : 1;
	return 0;
}

/* A merge sort of indices: stable (equal positions keep the order added) and
 * O(n log n) whatever limit the caller set. */
static void sort_indices(size_t *v, size_t *tmp, size_t n, const struct diag_entry *e)
{
	if (n < 2)
		return;
	size_t h = n / 2;
	sort_indices(v, tmp, h, e);
	sort_indices(v + h, tmp, n - h, e);
	size_t i = 0, j = h, k = 0;
	while (i < h && j < n)
		tmp[k++] = entry_cmp(&e[v[j]], &e[v[i]]) < 0 ? v[j++] : v[i++];
	while (i < h)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof(*v));
}

void diag_print(const struct diag *d, FILE *out)
{
	size_t *order = xmalloc((d->n ? d->n : 1) * sizeof(*order));
	for (size_t i = 0; i < d->n; i++)
		order[i] = i;
	size_t *tmp = xmalloc((d->n ? d->n : 1) * sizeof(*tmp));
	sort_indices(order, tmp, d->n, d->v);
	free(tmp);
	for (size_t i = 0; i < d->n; i++) {
		const struct diag_entry *e = &d->v[order[i]];
		fprintf(out, "%s:%d:%d: error: %s\n", e->file, e->line, e->column, e->message);
	}
	if (d->dropped)
		fprintf(out, "note: %zu more error%s not shown\n", d->dropped,
			d->dropped == 1 ? "" : "s");
	free(order);
}
