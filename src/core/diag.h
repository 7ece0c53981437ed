/* diag.h — diagnostics for untrusted input: collected, never printed one at a time, so a
 * player sees every problem in a file at once, each with the line it is about.
 *
 * diag_print writes one block per error, sorted by file, line and column:
 *
 *     bad.yaml:13:15: error: move 'Z9' is not a square of the 6x4 grid (A1 to F4 expected)
 *        13 |       - move: Z9
 *           |               ^
 *
 * The first line is `file:line:column: error: message` (`warning:` for a warning: see
 * diag_warn), the message saying what is wrong
 * and, in parentheses, what was expected; it is the whole diagnostic for tools (grep it, or
 * ask for DIAG_BRIEF). When the file's text was registered (diag_source) and has that line,
 * the line follows in a gutter ` LINE | ` (gcc's and clang's layout; the number is
 * right-aligned in at least 4 columns) and a `^` under the column. Otherwise (a file that
 * could not be read, a line past the end of the text) the first line is all there is.
 *
 * Lines and columns are libyaml's, made 1-based (node.c): a line ends at LF, CR, CRLF, NEL,
 * LS or PS, and the break is never shown; a column counts characters, not bytes (a UTF-8
 * sequence is one, a tab is one, each byte that is not valid UTF-8 is one). A column past
 * the end of the line puts the caret just after it.
 *
 * What is echoed comes from untrusted files, so file names, messages and source lines are
 * escaped for the terminal: printable ASCII and valid printable UTF-8 pass as they are (a
 * backslash too); C0 controls, DEL and every byte of invalid UTF-8 are shown as `\xHH`; C1
 * controls and the invisible characters that reorder or hide text (bidirectional controls,
 * zero-width characters, the byte order mark) as `\uHHHH`. A tab in a source line is kept,
 * and the caret line repeats it, so the caret stays aligned whatever the tab stops; in file
 * names and messages it is `\x09`. The caret is placed by display width: an escape is as
 * wide as its text, East Asian wide and fullwidth characters and common emoji are two
 * columns, combining marks none (an approximation that needs no locale). A line wider than
 * 120 columns is shown as a 120-column window starting 40 columns before the caret, with
 * `...` where text was cut.
 *
 * A file that is not what it was read as (given as an order file, no line of it starts with
 * `campaign:`; as a scenario, none with `rules:`: a key, another campaign's secret, any file
 * given by mistake or reached by a symlink) is echoed no further than a short excerpt: its
 * source is marked brief
 * (diag_source_brief), and its lines are shown as a 20-column window starting 4 columns
 * before the caret. */
#ifndef UMPIRE_DIAG_H
#define UMPIRE_DIAG_H

#include <stdio.h>
#include <stddef.h>

struct buf;

struct diag_entry {
	char *file;    /* path as given by the user */
	int line;      /* 1-based */
	int column;    /* 1-based, in characters (see above) */
	char *message; /* lowercase start, no full stop */
	size_t source; /* 1 + index in diag.sources of the text it points into; 0 = none */
	int warning;   /* 1: a warning, shown as `warning:` and not counted as an error */
};

struct diag_source {
	char *file;  /* the name entries refer to it by */
	char *bytes; /* a copy of the text, not NUL-terminated */
	size_t len;  /* bytes */
	int brief;   /* 1: lines shown as a short excerpt only (diag_source_brief) */
};

struct diag {
	struct diag_entry *v;        /* entries in the order added */
	size_t n;                    /* number of entries */
	size_t cap;                  /* allocated entries */
	size_t limit;                /* stop recording after this many (0 = 200); a note says so */
	size_t dropped;              /* errors not recorded because of the limit */
	size_t n_warnings;           /* entries of v that are warnings */
	struct diag_source *sources; /* registered texts, in the order registered */
	size_t n_sources;            /* number of sources (also allocated: they are few) */
};

enum diag_flags {
	DIAG_BRIEF = 1 << 0, /* one line per error: no source line, no caret */
};

void diag_init(struct diag *d);
/* Frees every entry and source; d is empty and reusable, and keeps its limit. */
void diag_release(struct diag *d);
/* Registers the text of file (NULL is "<input>"): len bytes, need not be NUL-terminated.
 * d keeps its own copy until diag_release, so bytes may go as soon as this returns.
 * Entries added for file from now on show their line from this text; entries added
 * before keep the text they had (none, or an earlier version). Registering the same
 * bytes under the same name again keeps one copy. */
void diag_source(struct diag *d, const char *file, const void *bytes, size_t len);
/* Marks the text last registered as file (NULL is "<input>") brief: its lines are shown as
 * a short excerpt around the caret (above), for the entries already added and those to come.
 * For a file not known to be what it was read as, so that its content is not echoed. Nothing
 * happens when no text of file is registered. */
void diag_source_brief(struct diag *d, const char *file);
/* 1 if some line of the text (len bytes; LF-separated, a byte order mark opening it skipped)
 * starts with prefix, else 0: the cheap test of what a file claims to be ("campaign:" an
 * order file, "rules:" a scenario) that decides whether its lines are shown in full. */
int diag_text_has_line(const void *bytes, size_t len, const char *prefix);
/* Records one error. file may be NULL ("<input>"); line/column < 1 become 1. */
void diag_add(struct diag *d, const char *file, int line, int column, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Records one warning: something the reader should know that does not make the input wrong
 * (e.g. a target out of range when orders are checked, before anything moves). It is shown
 * like an error with `warning:` for `error:`, and diag_count does not count it. A warning past
 * the limit is dropped silently. */
void diag_warn(struct diag *d, const char *file, int line, int column, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Refuses text that does not show what it holds: the first C0 control (but tab, LF, CR),
 * DEL, C1 control (NEL U+0085 among them), line or paragraph separator (U+2028, U+2029:
 * YAML 1.1 line breaks that end a comment where most viewers see none), bidirectional or
 * zero-width control or byte order mark past the start (the characters shown escaped
 * above) is one error in d at its line and column. Returns 0, or -1 with the error added. */
int diag_refuse_invisible(struct diag *d, const char *file, const void *bytes, size_t len);
/* Appends s escaped as file names and messages are above (tabs as `\x09` too). */
void diag_escape(struct buf *out, const char *s);
/* Bytes of the valid UTF-8 sequence at s (n > 0 bytes left: 1 to 4), or 0 when the byte at s
 * starts none (libyaml's reader refuses it; diag shows it as \xHH and counts it a column). */
size_t diag_utf8_len(const void *s, size_t n);
/* Number of errors recorded (including dropped ones); warnings are not counted. */
size_t diag_count(const struct diag *d);
/* Number of warnings recorded. */
size_t diag_warnings(const struct diag *d);
/* Appends every entry to out, sorted by file, line, column (stable), each as its line and,
 * unless flags has DIAG_BRIEF, its source line and caret; then the note on dropped
 * entries, if any. */
void diag_format(const struct diag *d, struct buf *out, unsigned flags);
/* diag_format(d, ..., 0) written to out. */
void diag_print(const struct diag *d, FILE *out);

#endif
