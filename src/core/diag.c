/* diag.c — collected diagnostics for untrusted input. Errors are recorded as they are
 * found and printed together, sorted by position, so a player sees every problem in a
 * file at once and in reading order, each over its source line with a caret under the
 * spot (jq's locfile.c is the model). Everything echoed is escaped for the terminal. */
#include "core/diag.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/banned.h"

enum {
	DIAG_DEFAULT_LIMIT = 200,
	DIAG_SHOW_WIDTH = 120, /* columns of a long source line shown around the caret */
	DIAG_SHOW_BEFORE = 40, /* of which before it: the offending value is at or after it */
	DIAG_BRIEF_WIDTH = 20, /* columns of a line of a brief source (diag_source_brief) */
	DIAG_BRIEF_BEFORE = 4, /* of which before the caret */
	DIAG_TAB_STOP = 8,     /* only to size the window: the caret line repeats tabs */
	DIAG_GUTTER_MIN = 4,   /* digits the line number is right-aligned in, as gcc does */
};

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
	for (size_t i = 0; i < d->n_sources; i++) {
		free(d->sources[i].file);
		free(d->sources[i].bytes);
	}
	free(d->v);
	free(d->sources);
	d->v = NULL;
	d->n = 0;
	d->cap = 0;
	d->dropped = 0;
	d->n_warnings = 0;
	d->sources = NULL;
	d->n_sources = 0;
}

/* 1 + the index of the newest source registered as file, or 0. */
static size_t find_source(const struct diag *d, const char *file)
{
	for (size_t i = d->n_sources; i > 0; i--)
		if (strcmp(d->sources[i - 1].file, file) == 0)
			return i;
	return 0;
}

void diag_source(struct diag *d, const char *file, const void *bytes, size_t len)
{
	if (!file)
		file = "<input>";
	size_t s = find_source(d, file);
	/* The same file is often read twice (check, then turn; a scenario, then its copy):
	 * one copy is enough when the text did not change. */
	if (s && d->sources[s - 1].len == len &&
		(len == 0 || memcmp(d->sources[s - 1].bytes, bytes, len) == 0))
		return;
	d->sources = xrealloc(d->sources, (d->n_sources + 1) * sizeof(*d->sources));
	struct diag_source *src = &d->sources[d->n_sources++];
	src->file = xstrdup(file);
	src->bytes = xmalloc(len ? len : 1);
	if (len)
		memcpy(src->bytes, bytes, len);
	src->len = len;
	src->brief = 0;
}

int diag_text_has_line(const void *bytes, size_t len, const char *prefix)
{
	const unsigned char *s = bytes;
	size_t n = strlen(prefix), i = len >= 3 && !memcmp(s, "\xef\xbb\xbf", 3) ? 3 : 0;

	while (i + n <= len) {
		if (!memcmp(s + i, prefix, n))
			return 1;
		const unsigned char *nl = memchr(s + i, '\n', len - i);
		if (!nl)
			break;
		i = (size_t)(nl - s) + 1;
	}
	return 0;
}

void diag_source_brief(struct diag *d, const char *file)
{
	size_t s = find_source(d, file ? file : "<input>");

	if (s)
		d->sources[s - 1].brief = 1;
}

/* One entry, error or warning, with its message from fmt and ap. */
static void add_entry(struct diag *d, int warning, const char *file, int line, int column,
	const char *fmt, va_list ap)
{
	size_t limit = d->limit ? d->limit : DIAG_DEFAULT_LIMIT;
	if (d->n >= limit) {
		if (!warning)
			d->dropped++;
		return;
	}
	if (d->n == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 16;
		d->v = xrealloc(d->v, d->cap * sizeof(*d->v));
	}
	struct buf msg = BUF_INIT;
	buf_vprintf(&msg, fmt, ap);
	struct diag_entry *e = &d->v[d->n++];
	e->file = xstrdup(file ? file : "<input>");
	e->line = line < 1 ? 1 : line;
	e->column = column < 1 ? 1 : column;
	e->message = buf_detach(&msg);
	e->warning = warning;
	d->n_warnings += warning != 0;
	/* Bound now: a later registration of the same name is a later version of the file. */
	e->source = find_source(d, e->file);
}

void diag_add(struct diag *d, const char *file, int line, int column, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	add_entry(d, 0, file, line, column, fmt, ap);
	va_end(ap);
}

void diag_warn(struct diag *d, const char *file, int line, int column, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	add_entry(d, 1, file, line, column, fmt, ap);
	va_end(ap);
}

size_t diag_count(const struct diag *d)
{
	return d->n - d->n_warnings + d->dropped;
}

size_t diag_warnings(const struct diag *d)
{
	return d->n_warnings;
}

/* --- escaping for the terminal ------------------------------------------------------ */

enum unit_kind {
	UNIT_TEXT, /* printable: written as it is */
	UNIT_TAB,  /* a tab: kept in source lines, escaped elsewhere */
	UNIT_BYTE, /* a control byte or a byte of invalid UTF-8: \xHH */
	UNIT_CODE, /* a valid but dangerous code point: \uHHHH */
};

/* One column of libyaml's counting: a character, or one byte that is not valid UTF-8. */
struct unit {
	enum unit_kind kind;
	size_t len;     /* bytes of the text it covers */
	uint32_t value; /* UNIT_BYTE: the byte; otherwise the code point */
	size_t width;   /* terminal columns as written (UNIT_TAB: see unit_width) */
};

/* Valid code points shown escaped: C1 controls (a terminal may act on them as on ESC),
 * and the invisible ones that reorder or hide text, so a line cannot show other than what
 * it holds ("Trojan Source", CVE-2021-42574). */
static const uint32_t escaped_ranges[][2] = {
	{ 0x0080, 0x009f }, /* C1 controls */
	{ 0x061c, 0x061c }, /* Arabic letter mark */
	{ 0x200b,
		0x200f }, /* zero-width space and joiners, left-to-right and right-to-left marks */
	{ 0x2028, 0x202e }, /* line and paragraph separators, bidirectional embeddings, overrides */
	{ 0x2060, 0x2069 }, /* word joiner, invisible operators, bidirectional isolates */
	{ 0xfeff, 0xfeff }, /* byte order mark */
	{ 0xfff9, 0xfffb }, /* interlinear annotations */
};

/* Display widths without a locale, so output is the same everywhere: combining marks of
 * the common blocks take no column, East Asian wide and fullwidth characters and the
 * emoji blocks two (after Markus Kuhn's wcwidth). */
static const uint32_t zero_width_ranges[][2] = {
	{ 0x0300, 0x036f },
	{ 0x0483, 0x0489 },
	{ 0x0591, 0x05bd },
	{ 0x05bf, 0x05bf },
	{ 0x05c1, 0x05c2 },
	{ 0x05c4, 0x05c5 },
	{ 0x05c7, 0x05c7 },
	{ 0x0610, 0x061a },
	{ 0x064b, 0x065f },
	{ 0x0670, 0x0670 },
	{ 0x06d6, 0x06dc },
	{ 0x06df, 0x06e4 },
	{ 0x06e7, 0x06e8 },
	{ 0x06ea, 0x06ed },
	{ 0x0e31, 0x0e31 },
	{ 0x0e34, 0x0e3a },
	{ 0x0e47, 0x0e4e },
	{ 0x1ab0, 0x1aff },
	{ 0x1dc0, 0x1dff },
	{ 0x20d0, 0x20ff },
	{ 0xfe00, 0xfe0f },
	{ 0xfe20, 0xfe2f },
	{ 0xe0100, 0xe01ef },
};
static const uint32_t double_width_ranges[][2] = {
	{ 0x1100, 0x115f },
	{ 0x2e80, 0x303e },
	{ 0x3041, 0x33ff },
	{ 0x3400, 0x4dbf },
	{ 0x4e00, 0x9fff },
	{ 0xa000, 0xa4cf },
	{ 0xac00, 0xd7a3 },
	{ 0xf900, 0xfaff },
	{ 0xfe30, 0xfe4f },
	{ 0xff00, 0xff60 },
	{ 0xffe0, 0xffe6 },
	{ 0x1f300, 0x1f64f },
	{ 0x1f680, 0x1f6ff },
	{ 0x1f900, 0x1f9ff },
	{ 0x20000, 0x2fffd },
	{ 0x30000, 0x3fffd },
};

static int in_ranges(uint32_t cp, const uint32_t (*r)[2], size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (cp >= r[i][0] && cp <= r[i][1])
			return 1;
	return 0;
}

#define IN_RANGES(cp, table) in_ranges((cp), (table), sizeof(table) / sizeof((table)[0]))

/* The code point of the UTF-8 sequence at s (n > 0 bytes left) and its length in *len,
 * or -1 when it is not valid UTF-8: a stray or bad lead byte, a sequence cut short, an
 * overlong form, a surrogate, or past U+10FFFF (libyaml's reader refuses them all). */
static long utf8_decode(const unsigned char *s, size_t n, size_t *len)
{
	uint32_t c = s[0], cp, min;
	size_t more;
	if (c < 0x80) {
		*len = 1;
		return (long)c;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		more = 1, cp = c & 0x1f, min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		more = 2, cp = c & 0x0f, min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		more = 3, cp = c & 0x07, min = 0x10000;
	} else {
		return -1;
	}
	if (n < more + 1)
		return -1;
	for (size_t i = 1; i <= more; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return -1;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	*len = more + 1;
	return (long)cp;
}

size_t diag_utf8_len(const void *s, size_t n)
{
	size_t len;
	return utf8_decode(s, n, &len) < 0 ? 0 : len;
}

static struct unit next_unit(const unsigned char *s, size_t n)
{
	struct unit u = { UNIT_BYTE, 1, s[0], 4 };
	size_t len;
	if (s[0] >= 0x20 && s[0] < 0x7f) { /* printable ASCII, most text: no table to search */
		u.kind = UNIT_TEXT;
		u.width = 1;
		return u;
	}
	long cp = utf8_decode(s, n, &len);
	if (cp < 0)
		return u;
	u.len = len;
	u.value = (uint32_t)cp;
	if (cp == '\t') {
		u.kind = UNIT_TAB;
		u.width = 0;
	} else if (cp < 0x20 || cp == 0x7f) {
		u.kind = UNIT_BYTE;
	} else if (IN_RANGES(u.value, escaped_ranges)) {
		u.kind = UNIT_CODE;
		u.width = 6;
	} else {
		u.kind = UNIT_TEXT;
		u.width = IN_RANGES(u.value, zero_width_ranges)   ? 0 :
			  IN_RANGES(u.value, double_width_ranges) ? 2 :
								    1;
	}
	return u;
}

/* Columns u takes when it starts at column pos of the line (0-based). */
static size_t unit_width(const struct unit *u, size_t pos)
{
	return u->kind == UNIT_TAB ? DIAG_TAB_STOP - pos % DIAG_TAB_STOP : u->width;
}

static void put_unit(struct buf *out, const struct unit *u, const unsigned char *s)
{
	switch (u->kind) {
	case UNIT_TEXT:
	case UNIT_TAB:
		buf_append(out, s, u->len);
		return;
	case UNIT_BYTE:
		buf_printf(out, "\\x%02x", (unsigned)u->value);
		return;
	case UNIT_CODE:
		buf_printf(out, "\\u%04x", (unsigned)u->value);
		return;
	}
}

/* A file name or message: escaped like a source line, and tabs too (no caret follows). */
static void put_escaped(struct buf *out, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n = strlen(str);
	for (size_t i = 0; i < n;) {
		size_t run = 0;
		while (i + run < n && s[i + run] >= 0x20 && s[i + run] < 0x7f)
			run++;
		if (run) { /* printable ASCII is written as it is, in one piece */
			buf_append(out, s + i, run);
			i += run;
			continue;
		}
		struct unit u = next_unit(s + i, n - i);
		if (u.kind == UNIT_TAB)
			u.kind = UNIT_BYTE;
		put_unit(out, &u, s + i);
		i += u.len;
	}
}

/* The name of an invisible or line-breaking code point refused in input, or NULL. */
static const char *invisible_name(uint32_t cp)
{
	switch (cp) {
	case 0x85:
		return "NEXT LINE, a YAML line break";
	case 0x2028:
		return "LINE SEPARATOR, a YAML line break";
	case 0x2029:
		return "PARAGRAPH SEPARATOR, a YAML line break";
	case 0xfeff:
		return "BYTE ORDER MARK inside the text";
	default:
		break;
	}
	if (cp < 0x20 || cp == 0x7f)
		return "control character";
	if (IN_RANGES(cp, escaped_ranges))
		return "invisible control character";
	return NULL;
}

int diag_refuse_invisible(struct diag *d, const char *file, const void *bytes, size_t len)
{
	const unsigned char *s = bytes;
	int line = 1, column = 1;
	/* A byte order mark opening the file is the encoding's signature, not text. */
	size_t i = len >= 3 && s[0] == 0xef && s[1] == 0xbb && s[2] == 0xbf ? 3 : 0;

	while (i < len) {
		struct unit u = next_unit(s + i, len - i);
		const char *what = NULL;
		uint32_t cp = s[i];
		if (s[i] == '\n' || (s[i] == '\r' && !(i + 1 < len && s[i + 1] == '\n'))) {
			line++;
			column = 1;
			i++;
			continue;
		}
		if (s[i] == '\r') { /* CR of a CRLF: the LF ends the line */
			i++;
			continue;
		}
		if (u.kind == UNIT_BYTE && u.len == 1 && s[i] < 0x80)
			what = invisible_name(s[i]);
		else if (u.kind == UNIT_CODE)
			what = invisible_name(cp = u.value);
		if (what) {
			diag_source(d, file, bytes, len);
			diag_add(d, file, line, column,
				"U+%04X (%s) is not allowed: it hides or reorders what the text shows (visible characters, tabs and line feeds expected)",
				(unsigned)cp, what);
			return -1;
		}
		i += u.len;
		column++;
	}
	return 0;
}

void diag_escape(struct buf *out, const char *s)
{
	put_escaped(out, s);
}

/* --- source lines ------------------------------------------------------------------- */

/* Bytes of the line break at s[i], or 0: LF, CR, CRLF, and the UTF-8 NEL, LS and PS that
 * libyaml counts as breaks too, so our line numbers are its line numbers. */
static size_t break_len(const unsigned char *s, size_t n, size_t i)
{
	if (s[i] == '\n')
		return 1;
	if (s[i] == '\r')
		return i + 1 < n && s[i + 1] == '\n' ? 2 : 1;
	if (s[i] == 0xc2 && i + 1 < n && s[i + 1] == 0x85)
		return 2;
	if (s[i] == 0xe2 && i + 2 < n && s[i + 1] == 0x80 && (s[i + 2] == 0xa8 || s[i + 2] == 0xa9))
		return 3;
	return 0;
}

/* Where the last line found starts: entries come sorted by line, so walking on from here
 * reads each text once however many entries point into it. */
struct cursor {
	const struct diag_source *src;
	size_t start; /* byte offset of line `line` in src */
	int line;     /* 1-based */
};

/* Finds line (1-based) of src: bytes [*start, *end), its break left out. Returns 0, or -1
 * when the text has no such line (what follows a final break is not a line). */
static int find_line(struct cursor *c, const struct diag_source *src, int line, size_t *start,
	size_t *end)
{
	const unsigned char *s = (const unsigned char *)src->bytes;
	size_t n = src->len, i, b = 0;
	if (c->src != src || c->line > line) {
		c->src = src;
		c->start = 0;
		c->line = 1;
	}
	for (;;) {
		for (i = c->start; i < n && (b = break_len(s, n, i)) == 0; i++)
			;
		if (c->line == line || i == n)
			break;
		c->start = i + b;
		c->line++;
	}
	if (c->line != line || c->start == n)
		return -1;
	*start = c->start;
	*end = i;
	return 0;
}

/* A window of a source line: its width in columns, and how many of them before the caret. */
struct window {
	size_t width;  /* columns shown at most */
	size_t before; /* of which before the caret, when the line is cut */
};

static const struct window window_full = { DIAG_SHOW_WIDTH, DIAG_SHOW_BEFORE };
static const struct window window_brief = { DIAG_BRIEF_WIDTH, DIAG_BRIEF_BEFORE };

/* The window [*from, *to) of display columns to show of line s (n bytes) so that the caret
 * before unit `caret` (0-based; past the end: just after the line) is in it; *at is the
 * caret's column. Reads the line only as far as the window needs. */
static void find_window(const unsigned char *s, size_t n, size_t caret, const struct window *w,
	size_t *at, size_t *from, size_t *to)
{
	size_t pos = 0, i = 0, k = 0;
	*at = SIZE_MAX;
	while (i < n) {
		if (k == caret)
			*at = pos;
		if (*at != SIZE_MAX && pos > *at + w->width)
			break;
		struct unit u = next_unit(s + i, n - i);
		pos += unit_width(&u, pos);
		i += u.len;
		k++;
	}
	if (*at == SIZE_MAX)
		*at = pos;
	*from = 0;
	*to = pos;
	if (i == n && pos <= w->width)
		return;
	*from = *at > w->before ? *at - w->before : 0;
	*to = *from + w->width;
	if (i == n && *to > pos) {
		/* Near the end of the line: show its last columns in full. */
		*to = pos;
		*from = pos - w->width;
	}
}

/* Appends the gutter, line s (n bytes, escaped, cut to window win) and the caret line. */
static void put_source(struct buf *out, int line, int column, const unsigned char *s, size_t n,
	const struct window *win)
{
	struct buf text = BUF_INIT, pad = BUF_INIT;
	size_t caret = (size_t)column - 1, at, from, to, pos = 0, i = 0, k = 0;
	int cut_before = 0, cut_after = 0;

	find_window(s, n, caret, win, &at, &from, &to);
	while (i < n) {
		struct unit u = next_unit(s + i, n - i);
		size_t w = unit_width(&u, pos);
		if (pos + w > to) {
			cut_after = 1;
			break;
		}
		if (pos < from) {
			cut_before = 1;
		} else {
			put_unit(&text, &u, s + i);
			/* The caret line repeats a tab rather than guessing the terminal's stops. */
			if (k < caret && u.kind == UNIT_TAB)
				buf_puts(&pad, "\t");
			else if (k < caret)
				buf_printf(&pad, "%*s", (int)w, "");
		}
		pos += w;
		i += u.len;
		k++;
	}
	int digits = snprintf(NULL, 0, "%d", line);
	int width = digits < DIAG_GUTTER_MIN ? DIAG_GUTTER_MIN : digits;
	buf_printf(out, " %*d |", width, line);
	if (cut_before || text.len || cut_after)
		buf_printf(out, " %s%s%s", cut_before ? "..." : "", buf_str(&text),
			cut_after ? "..." : "");
	buf_printf(out, "\n %*s | %s%s^\n", width, "", cut_before ? "   " : "", buf_str(&pad));
	buf_release(&text);
	buf_release(&pad);
}

/* --- printing ----------------------------------------------------------------------- */

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

static int entry_index_cmp(size_t a, size_t b, const void *ctx)
{
	const struct diag_entry *e = ctx;
	return entry_cmp(&e[a], &e[b]);
}

void diag_format(const struct diag *d, struct buf *out, unsigned flags)
{
	size_t *order = xmalloc((d->n ? d->n : 1) * sizeof(*order));
	for (size_t i = 0; i < d->n; i++)
		order[i] = i;
	size_t *tmp = xmalloc((d->n ? d->n : 1) * sizeof(*tmp));
	index_sort(order, tmp, d->n, entry_index_cmp, d->v);
	free(tmp);
	struct cursor cur = { NULL, 0, 0 };
	for (size_t i = 0; i < d->n; i++) {
		const struct diag_entry *e = &d->v[order[i]];
		put_escaped(out, e->file);
		buf_printf(out, ":%d:%d: %s: ", e->line, e->column,
			e->warning ? "warning" : "error");
		put_escaped(out, e->message);
		buf_puts(out, "\n");
		if ((flags & DIAG_BRIEF) || !e->source)
			continue;
		const struct diag_source *src = &d->sources[e->source - 1];
		size_t start, end;
		if (find_line(&cur, src, e->line, &start, &end) == 0)
			put_source(out, e->line, e->column,
				(const unsigned char *)src->bytes + start, end - start,
				src->brief ? &window_brief : &window_full);
	}
	if (d->dropped)
		buf_printf(out, "note: %zu more error%s not shown\n", d->dropped,
			d->dropped == 1 ? "" : "s");
	free(order);
}

void diag_print(const struct diag *d, FILE *out)
{
	struct buf b = BUF_INIT;
	diag_format(d, &b, 0);
	fwrite(buf_str(&b), 1, b.len, out);
	buf_release(&b);
}
