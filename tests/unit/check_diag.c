/* check_diag.c — collected diagnostics: the printed format, the stable sort by file, line
 * and column, position clamping, and the limit with its closing note; warnings beside the
 * errors; the source line and
 * caret: tabs, UTF-8, line breaks, positions past the line or the text, escaping for the
 * terminal, long lines, and which text an entry is shown with. */
#include <stdio.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "testutil.h"

static char *printed(const struct diag *d)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(f);
	diag_print(d, f);
	fclose(f);
	return text;
}

static char *formatted(const struct diag *d, unsigned flags)
{
	struct buf b = BUF_INIT;
	diag_format(d, &b, flags);
	return buf_detach(&b);
}

/* What diag_print writes for one error at line:column of text (as a C string). */
static char *one(const char *text, int line, int column)
{
	struct diag d;
	diag_init(&d);
	diag_source(&d, "f.yaml", text, strlen(text));
	diag_add(&d, "f.yaml", line, column, "bad");
	char *got = printed(&d);
	diag_release(&d);
	return got;
}

#define ck_one(text, line, column, expected) \
	do { \
		char *got_ = one((text), (line), (column)); \
		ck_assert_str_eq(got_, (expected)); \
		free(got_); \
	} while (0)

START_TEST(format_and_sort)
{
	struct diag d;
	diag_init(&d);
	diag_add(&d, "b.yaml", 1, 1, "in b");
	diag_add(&d, "a.yaml", 10, 2, "ten two");
	diag_add(&d, "a.yaml", 2, 30, "two thirty");
	diag_add(&d, "a.yaml", 2, 4, "first at 2:4");
	diag_add(&d, "a.yaml", 10, 1, "ten one");
	diag_add(&d, "a.yaml", 2, 4, "second at 2:4");
	diag_add(&d, "a.yaml", 2, 4, "third at %d:%d", 2, 4);
	ck_assert_uint_eq(diag_count(&d), 7);
	char *got = printed(&d);
	ck_assert_str_eq(got, "a.yaml:2:4: error: first at 2:4\n"
			      "a.yaml:2:4: error: second at 2:4\n"
			      "a.yaml:2:4: error: third at 2:4\n"
			      "a.yaml:2:30: error: two thirty\n"
			      "a.yaml:10:1: error: ten one\n"
			      "a.yaml:10:2: error: ten two\n"
			      "b.yaml:1:1: error: in b\n");
	/* Printing does not reorder the entries themselves. */
	ck_assert_str_eq(d.v[0].message, "in b");
	free(got);
	diag_release(&d);
}
END_TEST

START_TEST(stable_for_many_equal)
{
	struct diag d;
	struct buf want = BUF_INIT;
	diag_init(&d);
	for (int i = 0; i < 150; i++)
		diag_add(&d, "f", 1 + (i % 3 == 0), 1, "n%d", i);
	for (int i = 0; i < 150; i++)
		if (i % 3 != 0)
			buf_printf(&want, "f:1:1: error: n%d\n", i);
	for (int i = 0; i < 150; i++)
		if (i % 3 == 0)
			buf_printf(&want, "f:2:1: error: n%d\n", i);
	char *got = printed(&d);
	ck_assert_str_eq(got, buf_str(&want));
	free(got);
	buf_release(&want);
	diag_release(&d);
}
END_TEST

START_TEST(null_file_and_clamping)
{
	struct diag d;
	diag_init(&d);
	diag_add(&d, NULL, 0, -5, "no position");
	diag_add(&d, "x", 3, 0, "no column");
	char *got = printed(&d);
	ck_assert_str_eq(got, "<input>:1:1: error: no position\n"
			      "x:3:1: error: no column\n");
	ck_assert_int_eq(d.v[0].line, 1);
	ck_assert_int_eq(d.v[0].column, 1);
	free(got);
	diag_release(&d);
}
END_TEST

START_TEST(default_limit)
{
	struct diag d;
	diag_init(&d);
	for (int i = 0; i < 203; i++)
		diag_add(&d, "f", 1000 - i, 1, "e%d", i);
	ck_assert_uint_eq(d.n, 200);
	ck_assert_uint_eq(d.dropped, 3);
	ck_assert_uint_eq(diag_count(&d), 203);
	char *got = printed(&d);
	/* The first 200 recorded are the ones kept, whatever their position. */
	ck_assert_ptr_nonnull(strstr(got, "f:801:1: error: e199\n"));
	ck_assert_ptr_null(strstr(got, "e200"));
	const char *note = "note: 3 more errors not shown\n";
	size_t len = strlen(got);
	ck_assert_uint_ge(len, strlen(note));
	ck_assert_str_eq(got + len - strlen(note), note);
	ck_assert(strncmp(got, "f:801:1: error: e199\n", 21) == 0);
	free(got);
	diag_release(&d);
}
END_TEST

START_TEST(custom_limit_and_reuse)
{
	struct diag d;
	diag_init(&d);
	d.limit = 2;
	diag_add(&d, "f", 3, 1, "c");
	diag_add(&d, "f", 1, 1, "a");
	diag_add(&d, "f", 2, 1, "dropped");
	char *got = printed(&d);
	ck_assert_str_eq(got, "f:1:1: error: a\n"
			      "f:3:1: error: c\n"
			      "note: 1 more error not shown\n");
	free(got);
	diag_release(&d);
	ck_assert_uint_eq(diag_count(&d), 0);
	/* Released: empty, reusable, and the limit the caller chose stays. */
	ck_assert_uint_eq(d.limit, 2);
	got = printed(&d);
	ck_assert_str_eq(got, "");
	free(got);
	diag_add(&d, "g", 1, 1, "again");
	ck_assert_uint_eq(diag_count(&d), 1);
	diag_release(&d);
}
END_TEST

/* A warning is shown among the errors in order, as `warning:`, and is not counted; past the
 * limit it is dropped without a note. */
START_TEST(warnings_shown_not_counted)
{
	struct diag d;
	diag_init(&d);
	diag_warn(&d, "f", 2, 1, "out of range %d", 30);
	ck_assert_uint_eq(diag_count(&d), 0);
	ck_assert_uint_eq(diag_warnings(&d), 1);
	diag_add(&d, "f", 1, 1, "bad");
	diag_add(&d, "f", 3, 1, "worse");
	ck_assert_uint_eq(diag_count(&d), 2);
	char *got = printed(&d);
	ck_assert_str_eq(got, "f:1:1: error: bad\n"
			      "f:2:1: warning: out of range 30\n"
			      "f:3:1: error: worse\n");
	free(got);
	diag_release(&d);
	ck_assert_uint_eq(diag_warnings(&d), 0);
	d.limit = 1;
	diag_add(&d, "f", 1, 1, "a");
	diag_warn(&d, "f", 2, 1, "dropped");
	ck_assert_uint_eq(diag_count(&d), 1);
	got = printed(&d);
	ck_assert_str_eq(got, "f:1:1: error: a\n");
	free(got);
	diag_release(&d);
}
END_TEST

/* What diag_print writes for one error at line:column of text (len bytes). */
static char *one_n(const char *text, size_t len, int line, int column)
{
	struct diag d;
	diag_init(&d);
	diag_source(&d, "f.yaml", text, len);
	diag_add(&d, "f.yaml", line, column, "bad");
	char *got = printed(&d);
	diag_release(&d);
	return got;
}

START_TEST(source_line_and_caret)
{
	const char *text = "campaign: harbour-raid\nturn: 1\norders:\n  - move: Z9\n";
	ck_one(text, 4, 11,
		"f.yaml:4:11: error: bad\n"
		"    4 |   - move: Z9\n"
		"      |           ^\n");
	ck_one(text, 1, 1,
		"f.yaml:1:1: error: bad\n"
		"    1 | campaign: harbour-raid\n"
		"      | ^\n");
	/* An empty line: no space left dangling after the bar. */
	ck_one("a: 1\n\nb: 2\n", 2, 1,
		"f.yaml:2:1: error: bad\n"
		"    2 |\n"
		"      | ^\n");
	/* The gutter widens for a line number of more than four digits. */
	struct buf text2 = BUF_INIT;
	for (int i = 0; i < 12344; i++)
		buf_puts(&text2, "# padding\n");
	buf_puts(&text2, "x: Z9\n");
	ck_one(buf_str(&text2), 12345, 4,
		"f.yaml:12345:4: error: bad\n"
		" 12345 | x: Z9\n"
		"       |    ^\n");
	buf_release(&text2);
}
END_TEST

START_TEST(tabs_repeated_in_caret_line)
{
	/* A tab is one column; the caret line repeats it so the caret lands right whatever the
	 * terminal's tab stops. Tabs after the column are not repeated. */
	ck_one("orders:\n\t- move:\tZ9\tnow\n", 2, 10,
		"f.yaml:2:10: error: bad\n"
		"    2 | \t- move:\tZ9\tnow\n"
		"      | \t       \t^\n");
	ck_one("\t\tx\n", 1, 3,
		"f.yaml:1:3: error: bad\n"
		"    1 | \t\tx\n"
		"      | \t\t^\n");
}
END_TEST

START_TEST(utf8_counts_characters)
{
	/* Columns count characters, as libyaml's marks do; the caret goes by display width. */
	ck_one("name: Zo\xc3\xab Z9\n", 1, 11,
		"f.yaml:1:11: error: bad\n"
		"    1 | name: Zo\xc3\xab Z9\n"
		"      |           ^\n");
	/* East Asian wide characters take two columns. */
	ck_one("place: \xe6\x9d\xb1\xe4\xba\xac Z9\n", 1, 11,
		"f.yaml:1:11: error: bad\n"
		"    1 | place: \xe6\x9d\xb1\xe4\xba\xac Z9\n"
		"      |             ^\n");
	/* A combining accent takes none (e + U+0301). */
	ck_one("combined: e\xcc\x81 Z9\n", 1, 14,
		"f.yaml:1:14: error: bad\n"
		"    1 | combined: e\xcc\x81 Z9\n"
		"      |             ^\n");
	/* An emoji (U+1F3B2, four bytes) is one column of libyaml's and two on the screen. */
	ck_one("die: \xf0\x9f\x8e\xb2 Z9\n", 1, 8,
		"f.yaml:1:8: error: bad\n"
		"    1 | die: \xf0\x9f\x8e\xb2 Z9\n"
		"      |         ^\n");
	/* The caret under a multi-byte character itself. */
	ck_one("name: Zo\xc3\xab\n", 1, 9,
		"f.yaml:1:9: error: bad\n"
		"    1 | name: Zo\xc3\xab\n"
		"      |         ^\n");
}
END_TEST

START_TEST(line_breaks_as_libyaml_counts_them)
{
	const char *want = "f.yaml:2:4: error: bad\n"
			   "    2 | b: Z9\n"
			   "      |    ^\n";
	/* CRLF: the CR is part of the break, never shown. */
	ck_one("a: 1\r\nb: Z9\r\nc: 3\r\n", 2, 4, want);
	/* A lone CR, NEL, LS and PS end lines too (YAML 1.1, and so libyaml). */
	ck_one("a: 1\rb: Z9\r", 2, 4, want);
	ck_one("a: 1\xc2\x85"
	       "b: Z9\n",
		2, 4, want);
	ck_one("a: 1\xe2\x80\xa8"
	       "b: Z9\xe2\x80\xa9"
	       "c: 3\n",
		2, 4, want);
	ck_one("a: 1\xe2\x80\xa8"
	       "b: 2\xe2\x80\xa9"
	       "c: Z9",
		3, 4,
		"f.yaml:3:4: error: bad\n"
		"    3 | c: Z9\n"
		"      |    ^\n");
	/* CR CR LF: an empty line between. */
	ck_one("a: 1\r\r\nb: Z9\n", 2, 1,
		"f.yaml:2:1: error: bad\n"
		"    2 |\n"
		"      | ^\n");
}
END_TEST

START_TEST(past_end_of_line)
{
	/* The caret goes just after the line. */
	ck_one("a: 1\nb: 2\n", 1, 50,
		"f.yaml:1:50: error: bad\n"
		"    1 | a: 1\n"
		"      |     ^\n");
	ck_one("a: 1\r\n", 1, 5,
		"f.yaml:1:5: error: bad\n"
		"    1 | a: 1\n"
		"      |     ^\n");
	ck_one("\n", 1, 3,
		"f.yaml:1:3: error: bad\n"
		"    1 |\n"
		"      | ^\n");
}
END_TEST

START_TEST(past_end_of_file)
{
	/* No such line: the error line alone. What follows the final break is not a line. */
	ck_one("a: 1\nb: 2\n", 3, 1, "f.yaml:3:1: error: bad\n");
	ck_one("a: 1\nb: 2\n", 99, 7, "f.yaml:99:7: error: bad\n");
	ck_one("", 1, 1, "f.yaml:1:1: error: bad\n");
	/* A last line without a break is a line. */
	ck_one("a: 1\nb: 2", 2, 4,
		"f.yaml:2:4: error: bad\n"
		"    2 | b: 2\n"
		"      |    ^\n");
}
END_TEST

/* No byte a terminal could act on: only printable ASCII, tab, newline and valid UTF-8
 * without C1 controls. */
static void ck_terminal_safe(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		ck_assert_msg(*p >= 0x20 || *p == '\n' || *p == '\t', "raw byte %#x", *p);
		ck_assert_msg(*p != 0x7f, "raw DEL");
		ck_assert_msg(!(p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f), "raw C1 control");
		ck_assert_msg(*p < 0xf8 && *p != 0xc0 && *p != 0xc1, "raw invalid byte %#x", *p);
	}
}

#define ck_one_safe(text, len, line, column, expected) \
	do { \
		char *got_ = one_n((text), (len), (line), (column)); \
		ck_assert_str_eq(got_, (expected)); \
		ck_terminal_safe(got_); \
		free(got_); \
	} while (0)

START_TEST(control_characters_escaped)
{
	/* An ANSI colour sequence: ESC shown as \x1b, the caret counts the escape's width. */
	const char *ansi = "player: \x1b[31mred\x1b[0m Z9\n";
	ck_one_safe(ansi, strlen(ansi), 1, 22,
		"f.yaml:1:22: error: bad\n"
		"    1 | player: \\x1b[31mred\\x1b[0m Z9\n"
		"      |                            ^\n");
	/* The caret under an escaped character is under its backslash. */
	ck_one_safe(ansi, strlen(ansi), 1, 9,
		"f.yaml:1:9: error: bad\n"
		"    1 | player: \\x1b[31mred\\x1b[0m Z9\n"
		"      |         ^\n");
	/* Other C0 controls, DEL and NUL (the text is not NUL-terminated). */
	ck_one_safe("a:\x01\x7f\x00 Z9", 8, 1, 7,
		"f.yaml:1:7: error: bad\n"
		"    1 | a:\\x01\\x7f\\x00 Z9\n"
		"      |                ^\n");
	/* Form feed and vertical tab are not line breaks for YAML. */
	ck_one_safe("a:\x0b\x0c Z9\n", 8, 1, 6,
		"f.yaml:1:6: error: bad\n"
		"    1 | a:\\x0b\\x0c Z9\n"
		"      |            ^\n");
	/* C1 controls in UTF-8: CSI (U+009B) would start an escape sequence on some terminals. */
	const char *csi = "a: \xc2\x9b"
			  "31m Z9\n";
	ck_one_safe(csi, strlen(csi), 1, 9,
		"f.yaml:1:9: error: bad\n"
		"    1 | a: \\u009b31m Z9\n"
		"      |              ^\n");
	/* Invalid UTF-8: each byte one column, shown as \xHH: a bad lead byte, a cut sequence,
	 * an overlong '/', a surrogate. */
	const char *bad = "a: \xff\xc3 \xc0\xaf \xed\xa0\x80 Z9\n";
	ck_one_safe(bad, strlen(bad), 1, 14,
		"f.yaml:1:14: error: bad\n"
		"    1 | a: \\xff\\xc3 \\xc0\\xaf \\xed\\xa0\\x80 Z9\n"
		"      |                                   ^\n");
	/* A sequence cut by the end of the text. */
	ck_one_safe("a: \xe2\x80", 5, 1, 5,
		"f.yaml:1:5: error: bad\n"
		"    1 | a: \\xe2\\x80\n"
		"      |        ^\n");
	/* Characters that reorder or hide text (right-to-left override, byte order mark,
	 * zero-width space). */
	const char *hidden = "a: \xe2\x80\xae"
			     "Z9 \xef\xbb\xbf\xe2\x80\x8b!\n";
	ck_one_safe(hidden, strlen(hidden), 1, 10,
		"f.yaml:1:10: error: bad\n"
		"    1 | a: \\u202eZ9 \\ufeff\\u200b!\n"
		"      |                         ^\n");
}
END_TEST

START_TEST(file_and_message_escaped)
{
	struct diag d;
	diag_init(&d);
	diag_add(&d, "x\x1b]0;owned\x07.yaml", 1, 1, "value '\x1b[2J' \xc2\x9b\xff\tend");
	char *got = printed(&d);
	ck_assert_str_eq(got, "x\\x1b]0;owned\\x07.yaml:1:1: error: value '\\x1b[2J' "
			      "\\u009b\\xff\\x09end\n");
	ck_terminal_safe(got);
	free(got);
	/* Ordinary text, UTF-8 and backslashes pass as they are. */
	diag_release(&d);
	diag_add(&d, "z\xc3\xab.yaml", 1, 1,
		"\xc2\xa7"
		"24: 'C:\\x' is a path");
	got = printed(&d);
	ck_assert_str_eq(got, "z\xc3\xab.yaml:1:1: error: \xc2\xa7"
			      "24: 'C:\\x' is a path\n");
	free(got);
	diag_release(&d);
}
END_TEST

static void repeat(struct buf *b, const char *s, int n)
{
	for (int i = 0; i < n; i++)
		buf_puts(b, s);
}

START_TEST(long_lines_windowed)
{
	/* 100 'a', 'Z', 199 'b': 300 columns. */
	struct buf line = BUF_INIT, want = BUF_INIT;
	repeat(&line, "a", 100);
	buf_puts(&line, "Z");
	repeat(&line, "b", 199);
	buf_puts(&line, "\n");

	/* In the middle: 40 columns before the caret, 120 in all, cut on both sides. */
	buf_puts(&want, "f.yaml:1:101: error: bad\n    1 | ...");
	repeat(&want, "a", 40);
	buf_puts(&want, "Z");
	repeat(&want, "b", 79);
	buf_puts(&want, "...\n      |    ");
	repeat(&want, " ", 40);
	buf_puts(&want, "^\n");
	ck_one(buf_str(&line), 1, 101, buf_str(&want));

	/* Near the start: cut after only. */
	buf_clear(&want);
	buf_puts(&want, "f.yaml:1:5: error: bad\n    1 | ");
	repeat(&want, "a", 100);
	buf_puts(&want, "Z");
	repeat(&want, "b", 19);
	buf_puts(&want, "...\n      |     ^\n");
	ck_one(buf_str(&line), 1, 5, buf_str(&want));

	/* Near the end: the last 120 columns, cut before only. */
	buf_clear(&want);
	buf_puts(&want, "f.yaml:1:290: error: bad\n    1 | ...");
	repeat(&want, "b", 120);
	buf_puts(&want, "\n      |    ");
	repeat(&want, " ", 109);
	buf_puts(&want, "^\n");
	ck_one(buf_str(&line), 1, 290, buf_str(&want));

	/* Past the end of a long line: just after its last column. */
	buf_clear(&want);
	buf_puts(&want, "f.yaml:1:400: error: bad\n    1 | ...");
	repeat(&want, "b", 120);
	buf_puts(&want, "\n      |    ");
	repeat(&want, " ", 120);
	buf_puts(&want, "^\n");
	ck_one(buf_str(&line), 1, 400, buf_str(&want));

	/* Escapes are never cut in half: 200 ESC, then 'Z' at column 201 (screen column 801). */
	buf_clear(&line);
	repeat(&line, "\x1b", 200);
	buf_puts(&line, "Z");
	buf_clear(&want);
	buf_puts(&want, "f.yaml:1:201: error: bad\n    1 | ...");
	repeat(&want, "\\x1b", 29);
	buf_puts(&want, "Z\n      |    ");
	repeat(&want, " ", 116);
	buf_puts(&want, "^\n");
	char *got = one(buf_str(&line), 1, 201);
	ck_assert_str_eq(got, buf_str(&want));
	ck_terminal_safe(got);
	free(got);

	/* A line of exactly 120 columns is shown whole. */
	buf_clear(&line);
	repeat(&line, "c", 120);
	buf_clear(&want);
	buf_puts(&want, "f.yaml:1:120: error: bad\n    1 | ");
	repeat(&want, "c", 120);
	buf_puts(&want, "\n      | ");
	repeat(&want, " ", 119);
	buf_puts(&want, "^\n");
	ck_one(buf_str(&line), 1, 120, buf_str(&want));

	buf_release(&line);
	buf_release(&want);
}
END_TEST

/* one() for a source marked brief (diag_source_brief) after the error was added. */
static char *one_brief(const char *text, int line, int column)
{
	struct diag d;
	diag_init(&d);
	diag_source(&d, "f.yaml", text, strlen(text));
	diag_add(&d, "f.yaml", line, column, "bad");
	diag_source_brief(&d, "f.yaml");
	char *got = printed(&d);
	diag_release(&d);
	return got;
}

START_TEST(brief_sources_show_short_excerpts)
{
	/* A 64-digit secret-like line: 20 columns from the caret at 1:1, nothing more. */
	const char *hex = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n";
	char *got = one_brief(hex, 1, 1);
	ck_assert_str_eq(got, "f.yaml:1:1: error: bad\n"
			      "    1 | 0123456789abcdef0123...\n"
			      "      | ^\n");
	free(got);
	/* In the middle: 4 columns before the caret, 20 in all, cut on both sides. */
	got = one_brief(hex, 1, 33);
	ck_assert_str_eq(got, "f.yaml:1:33: error: bad\n"
			      "    1 | ...cdef0123456789abcdef...\n"
			      "      |        ^\n");
	free(got);
	/* Near the end: the last 20 columns; past the end: just after them. */
	got = one_brief(hex, 1, 65);
	ck_assert_str_eq(got, "f.yaml:1:65: error: bad\n"
			      "    1 | ...cdef0123456789abcdef\n"
			      "      |                        ^\n");
	free(got);
	/* Escaped as ever, and a short line is shown whole. */
	got = one_brief("a\x1b[2Jb\n", 1, 2);
	ck_assert_str_eq(got, "f.yaml:1:2: error: bad\n"
			      "    1 | a\\x1b[2Jb\n"
			      "      |  ^\n");
	free(got);
	/* What decides it: a line starting with the prefix, after a byte order mark. */
	ck_assert_int_eq(diag_text_has_line("x: 1\ncampaign: a\n", 15, "campaign:"), 1);
	ck_assert_int_eq(diag_text_has_line("\xef\xbb\xbf"
					    "campaign: a",
				 14, "campaign:"),
		1);
	ck_assert_int_eq(diag_text_has_line(" campaign: a\n", 14, "campaign:"), 0);
	ck_assert_int_eq(diag_text_has_line("x: campaign:\n", 14, "campaign:"), 0);
	ck_assert_int_eq(diag_text_has_line("campaign", 8, "campaign:"), 0);
	ck_assert_int_eq(diag_text_has_line("", 0, "campaign:"), 0);
	/* The same text not marked brief: the whole 64 columns. */
	got = one(hex, 1, 1);
	ck_assert_ptr_nonnull(
		strstr(got, "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n"));
	free(got);
}
END_TEST

START_TEST(several_errors_on_one_line)
{
	struct diag d;
	diag_init(&d);
	const char *text = "move: [Z9, Q8]\n";
	diag_source(&d, "f.yaml", text, strlen(text));
	diag_add(&d, "f.yaml", 1, 12, "second");
	diag_add(&d, "f.yaml", 1, 8, "first");
	diag_add(&d, "f.yaml", 1, 8, "first again");
	char *got = printed(&d);
	ck_assert_str_eq(got, "f.yaml:1:8: error: first\n"
			      "    1 | move: [Z9, Q8]\n"
			      "      |        ^\n"
			      "f.yaml:1:8: error: first again\n"
			      "    1 | move: [Z9, Q8]\n"
			      "      |        ^\n"
			      "f.yaml:1:12: error: second\n"
			      "    1 | move: [Z9, Q8]\n"
			      "      |            ^\n");
	free(got);
	diag_release(&d);
}
END_TEST

START_TEST(errors_in_two_files)
{
	struct diag d;
	diag_init(&d);
	diag_source(&d, "b.yaml", "y: 2\nz: 3\n", 10);
	diag_source(&d, "a.yaml", "x: 1\n", 5);
	diag_add(&d, "b.yaml", 2, 4, "in b");
	diag_add(&d, "c.yaml", 1, 1, "cannot open c.yaml");
	diag_add(&d, "a.yaml", 1, 4, "in a");
	diag_add(&d, "b.yaml", 1, 1, "first in b");
	d.limit = 4;
	diag_add(&d, "a.yaml", 1, 1, "dropped");
	char *got = printed(&d);
	/* A file without a registered text (one that could not be read) gets its line alone. */
	ck_assert_str_eq(got, "a.yaml:1:4: error: in a\n"
			      "    1 | x: 1\n"
			      "      |    ^\n"
			      "b.yaml:1:1: error: first in b\n"
			      "    1 | y: 2\n"
			      "      | ^\n"
			      "b.yaml:2:4: error: in b\n"
			      "    2 | z: 3\n"
			      "      |    ^\n"
			      "c.yaml:1:1: error: cannot open c.yaml\n"
			      "note: 1 more error not shown\n");
	free(got);
	/* The bare form: one line per error, as before the source lines. */
	got = formatted(&d, DIAG_BRIEF);
	ck_assert_str_eq(got, "a.yaml:1:4: error: in a\n"
			      "b.yaml:1:1: error: first in b\n"
			      "b.yaml:2:4: error: in b\n"
			      "c.yaml:1:1: error: cannot open c.yaml\n"
			      "note: 1 more error not shown\n");
	free(got);
	/* diag_print writes what diag_format gives. */
	char *full = formatted(&d, 0);
	got = printed(&d);
	ck_assert_str_eq(got, full);
	free(got);
	free(full);
	diag_release(&d);
}
END_TEST

START_TEST(entries_keep_their_text)
{
	struct diag d;
	diag_init(&d);
	/* Before its text is registered (the file could not be read yet): no source line. */
	diag_add(&d, "g.yaml", 1, 1, "early");
	diag_source(&d, "g.yaml", "g: 1\n", 5);
	diag_add(&d, "g.yaml", 1, 1, "late");
	/* A new version of a file applies to entries added after it. */
	const char *v1 = "old: 1\nold: 2\n", *v2 = "new: 1\n";
	diag_source(&d, "f.yaml", v1, strlen(v1));
	diag_add(&d, "f.yaml", 2, 1, "in the old text");
	diag_source(&d, "f.yaml", v2, strlen(v2));
	diag_add(&d, "f.yaml", 1, 1, "in the new text");
	ck_assert_uint_eq(d.n_sources, 3);
	/* The same text again is kept once; the caller's bytes may go at once. */
	char *copy = xstrdup(v2);
	diag_source(&d, "f.yaml", copy, strlen(copy));
	free(copy);
	ck_assert_uint_eq(d.n_sources, 3);
	diag_add(&d, "f.yaml", 1, 5, "in the new text again");
	/* NULL names "<input>", as in diag_add. */
	diag_source(&d, NULL, "in: 1\n", 6);
	diag_add(&d, NULL, 1, 1, "no name");
	char *got = printed(&d);
	ck_assert_str_eq(got, "<input>:1:1: error: no name\n"
			      "    1 | in: 1\n"
			      "      | ^\n"
			      "f.yaml:1:1: error: in the new text\n"
			      "    1 | new: 1\n"
			      "      | ^\n"
			      "f.yaml:1:5: error: in the new text again\n"
			      "    1 | new: 1\n"
			      "      |     ^\n"
			      "f.yaml:2:1: error: in the old text\n"
			      "    2 | old: 2\n"
			      "      | ^\n"
			      "g.yaml:1:1: error: early\n"
			      "g.yaml:1:1: error: late\n"
			      "    1 | g: 1\n"
			      "      | ^\n");
	free(got);
	/* Released: sources go with the entries; d is reusable. */
	diag_release(&d);
	ck_assert_uint_eq(d.n_sources, 0);
	ck_assert_ptr_null(d.sources);
	diag_add(&d, "f.yaml", 1, 1, "after release");
	got = printed(&d);
	ck_assert_str_eq(got, "f.yaml:1:1: error: after release\n");
	free(got);
	diag_release(&d);
}
END_TEST

START_TEST(many_entries_one_pass)
{
	/* Entries sorted by line walk the text once; lines asked for again, and in a file
	 * asked for after another, are found from the start. */
	struct diag d;
	struct buf text = BUF_INIT, want = BUF_INIT;
	diag_init(&d);
	for (int i = 1; i <= 150; i++)
		buf_printf(&text, "k%d: v\n", i);
	diag_source(&d, "f.yaml", buf_str(&text), text.len);
	diag_source(&d, "e.yaml", "e: 1\n", 5);
	for (int i = 150; i >= 1; i -= 7)
		diag_add(&d, "f.yaml", i, 2, "at %d", i);
	diag_add(&d, "e.yaml", 1, 1, "e");
	buf_puts(&want, "e.yaml:1:1: error: e\n    1 | e: 1\n      | ^\n");
	for (int i = 3; i <= 150; i += 7)
		buf_printf(&want, "f.yaml:%d:2: error: at %d\n %4d | k%d: v\n      |  ^\n", i, i, i,
			i);
	char *got = printed(&d);
	ck_assert_str_eq(got, buf_str(&want));
	free(got);
	buf_release(&text);
	buf_release(&want);
	diag_release(&d);
}
END_TEST

static Suite *diag_suite(void)
{
	Suite *s = suite_create("diag");
	TCase *tc = tcase_create("diag");
	tcase_add_test(tc, format_and_sort);
	tcase_add_test(tc, stable_for_many_equal);
	tcase_add_test(tc, null_file_and_clamping);
	tcase_add_test(tc, default_limit);
	tcase_add_test(tc, custom_limit_and_reuse);
	tcase_add_test(tc, warnings_shown_not_counted);
	tcase_add_test(tc, source_line_and_caret);
	tcase_add_test(tc, tabs_repeated_in_caret_line);
	tcase_add_test(tc, utf8_counts_characters);
	tcase_add_test(tc, line_breaks_as_libyaml_counts_them);
	tcase_add_test(tc, past_end_of_line);
	tcase_add_test(tc, past_end_of_file);
	tcase_add_test(tc, control_characters_escaped);
	tcase_add_test(tc, file_and_message_escaped);
	tcase_add_test(tc, long_lines_windowed);
	tcase_add_test(tc, brief_sources_show_short_excerpts);
	tcase_add_test(tc, several_errors_on_one_line);
	tcase_add_test(tc, errors_in_two_files);
	tcase_add_test(tc, entries_keep_their_text);
	tcase_add_test(tc, many_entries_one_pass);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(diag_suite)
