/* escape.c — escaping per output sink (escape.h). */
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/escape.h"
#include "core/banned.h"

void escape_terminal(struct buf *out, const char *s)
{
	diag_escape(out, s ? s : "");
}

/* What Markdown would read as markup in c (prev: the character before), escaped, or NULL
 * when c is written as it is. */
static const char *markdown_escape(char c, char prev)
{
	switch (c) {
	case '&':
		return "&amp;";
	case '<':
		return "&lt;";
	case '>':
		return "&gt;";
	case '|':
		return "\\|";
	case '`':
		return "\\`";
	case '(':
		return prev == ']' ? "\\(" : NULL;
	default:
		return NULL;
	}
}

/* The length of s when it is printable ASCII with nothing Markdown or diag_escape would
 * change, else -1 (one pass: escape_markdown appends s by that length). */
static long markdown_plain(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	for (; *p; p++) {
		if (*p < 0x20 || *p > 0x7e)
			return -1;
		switch (*p) {
		case '&':
		case '<':
		case '>':
		case '|':
		case '`':
			return -1;
		case '(':
			if (p > (const unsigned char *)s && p[-1] == ']')
				return -1;
			break;
		default:
			break;
		}
	}
	return (long)(p - (const unsigned char *)s);
}

void escape_markdown(struct buf *out, const char *s)
{
	struct buf t = BUF_INIT;
	size_t from = 0;
	long plain = s ? markdown_plain(s) : -1;

	if (plain >= 0) {
		buf_append(out, s, (size_t)plain);
		return;
	}
	diag_escape(&t, s ? s : "");
	/* Runs of characters written as they are go out in one piece. */
	for (size_t i = 0; i < t.len; i++) {
		const char *e = markdown_escape(t.data[i], i > 0 ? t.data[i - 1] : '\0');
		if (!e)
			continue;
		buf_append(out, t.data + from, i - from);
		buf_puts(out, e);
		from = i + 1;
	}
	if (t.len > from)
		buf_append(out, t.data + from, t.len - from);
	buf_release(&t);
}

void escape_message_line(struct buf *out, const char *s)
{
	diag_escape(out, s ? s : "");
}

void escape_markup(struct buf *out, const char *s, size_t n, enum escape_sink sink)
{
	for (size_t i = 0; i < n; i++) {
		switch (s[i]) {
		case '&':
			buf_puts(out, "&amp;");
			break;
		case '<':
			buf_puts(out, "&lt;");
			break;
		case '>':
			buf_puts(out, "&gt;");
			break;
		case '"':
			buf_puts(out, "&quot;");
			break;
		case '\'':
			buf_puts(out, sink == ESCAPE_XML ? "&apos;" : "&#39;");
			break;
		default:
			buf_append(out, s + i, 1);
		}
	}
}

/* One line (no new line in it) for HTML: diag_escape, then the five characters that are
 * markup in text or in a quoted attribute as entities. */
static void html_line(struct buf *out, const char *s, size_t n)
{
	struct buf line = BUF_INIT, t = BUF_INIT;

	buf_append(&line, s, n);
	diag_escape(&t, buf_str(&line));
	escape_markup(out, t.data ? t.data : "", t.len, ESCAPE_HTML);
	buf_release(&line);
	buf_release(&t);
}

void escape_html(struct buf *out, const char *s)
{
	const char *p = s ? s : "";

	for (;;) {
		const char *nl = strchr(p, '\n');
		html_line(out, p, nl ? (size_t)(nl - p) : strlen(p));
		if (!nl)
			break;
		buf_puts(out, "\n");
		p = nl + 1;
	}
}
