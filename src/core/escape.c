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

void escape_markdown(struct buf *out, const char *s)
{
	struct buf t = BUF_INIT;

	diag_escape(&t, s ? s : "");
	for (size_t i = 0; i < t.len; i++) {
		char ch = t.data[i];
		switch (ch) {
		case '&':
			buf_puts(out, "&amp;");
			break;
		case '<':
			buf_puts(out, "&lt;");
			break;
		case '>':
			buf_puts(out, "&gt;");
			break;
		case '|':
			buf_puts(out, "\\|");
			break;
		case '`':
			buf_puts(out, "\\`");
			break;
		case '(':
			buf_puts(out, i > 0 && t.data[i - 1] == ']' ? "\\(" : "(");
			break;
		default:
			buf_append(out, &ch, 1);
		}
	}
	buf_release(&t);
}

void escape_message_line(struct buf *out, const char *s)
{
	diag_escape(out, s ? s : "");
}
