/* escape.h — text from untrusted files (order files, a clone's journal exports) escaped for
 * the sink it goes to, one function per sink, so no sink gets raw bytes it would act on:
 * a terminal (ESC sequences, bidirectional controls), a Markdown report (HTML, links, table
 * cells, new lines that would start a heading), one line of a commit message (a new line
 * would forge a trailer), an HTML page (umpire site: text and quoted attribute values). */
#ifndef UMPIRE_ESCAPE_H
#define UMPIRE_ESCAPE_H

#include <stddef.h>

struct buf;

/* Appends s for a terminal: printable ASCII and printable UTF-8 as they are; C0 controls
 * (new lines and tabs too), DEL and invalid UTF-8 as `\xHH`; C1 controls and the invisible
 * characters that hide or reorder text as `\uHHHH` (the escaping of diag.h). */
void escape_terminal(struct buf *out, const char *s);
/* Appends s for a Markdown report, inline (in a list item or a table cell): escaped for the
 * terminal first (so it is one line), then `&`, `<`, `>` as HTML entities (no HTML, no
 * autolink), `|` as `\|` (a table cell), a backtick as "\`" and "](" as "]\(" (no inline
 * link). Text without those characters is unchanged. */
void escape_markdown(struct buf *out, const char *s);
/* Appends s for one line of a commit message: escape_terminal (no new line, so no forged
 * trailer or paragraph). */
void escape_message_line(struct buf *out, const char *s);
/* Appends s for an HTML page, as element text or inside a quoted attribute value: each line
 * escaped for the terminal (controls, tabs, invalid UTF-8, the invisible characters that
 * reorder text shown as `\xHH` / `\uHHHH`), new lines kept (a <pre> block shows them), then
 * `&`, `<`, `>`, `"` and `'` as entities, so no player's text becomes markup. NULL is "". */
void escape_html(struct buf *out, const char *s);

/* The markup languages escape_markup writes for: they differ in the apostrophe's entity. */
enum escape_sink {
	ESCAPE_HTML, /* ' as &#39; (HTML 4 has no &apos;) */
	ESCAPE_XML,  /* ' as &apos; (SVG maps) */
};
/* Appends the n bytes of s with the five characters that are markup in element text or a
 * quoted attribute value (&, <, >, ", ') as sink's entities, every other byte as it is: the
 * one switch under escape_html and svg_escape (which first make s safe for their sink). */
void escape_markup(struct buf *out, const char *s, size_t n, enum escape_sink sink);

#endif
