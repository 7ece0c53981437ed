/* check_escape.c — escaping per sink (core/escape.h): the terminal, a Markdown report, one
 * line of a commit message, an HTML page; text without special characters passes unchanged. */
#include <check.h>
#include <string.h>

#include "core/buf.h"
#include "core/escape.h"
#include "testutil.h"

static void (*sink)(struct buf *, const char *);

static void want(const char *in, const char *out)
{
	struct buf b = BUF_INIT;

	sink(&b, in);
	ck_assert_str_eq(buf_str(&b), out);
	buf_release(&b);
}

START_TEST(test_terminal)
{
	sink = escape_terminal;
	want("to-hit (d6) [1/3]", "to-hit (d6) [1/3]");
	want("\033[2Jcleared", "\\x1b[2Jcleared");
	want("two\nlines\ttab", "two\\x0alines\\x09tab");
	want("caf\xc3\xa9!", "caf\xc3\xa9!");
	want("\xe2\x80\xae"
	     "evil",
		"\\u202e"
		"evil"); /* right-to-left override */
	want("\xc2\x9b"
	     "31m",
		"\\u009b31m"); /* C1 CSI */
	want("\xff", "\\xff");
}
END_TEST

START_TEST(test_html)
{
	sink = escape_html;
	want("to-hit (d6) [1/3]", "to-hit (d6) [1/3]");
	want("<script>alert('x')</script>", "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
	want("a \"quoted\" & <b>", "a &quot;quoted&quot; &amp; &lt;b&gt;");
	want("x\" onload=\"f()", "x&quot; onload=&quot;f()"); /* no way out of an attribute */
	want("&lt;", "&amp;lt;");                             /* an entity is text, not markup */
	want("two\nlines\n", "two\nlines\n");                 /* new lines kept for a <pre> */
	want("tab\there", "tab\\x09here");
	want("\033[2J<", "\\x1b[2J&lt;");
	want("caf\xc3\xa9", "caf\xc3\xa9");
	want("\xe2\x80\xae"
	     "evil",
		"\\u202e"
		"evil"); /* right-to-left override */
	want("\xff<", "\\xff&lt;");
	want(NULL, "");
}
END_TEST

START_TEST(test_markup)
{
	/* the one switch under escape_html and svg_escape: the sinks differ in the apostrophe */
	static const char in[] = "a'b\"c<d>e&f\0g";
	struct buf html = BUF_INIT, xml = BUF_INIT;

	escape_markup(&html, in, sizeof(in) - 1, ESCAPE_HTML);
	escape_markup(&xml, in, sizeof(in) - 1, ESCAPE_XML);
	ck_assert_uint_eq(html.len, strlen("a&#39;b&quot;c&lt;d&gt;e&amp;f") + 2);
	ck_assert_str_eq(buf_str(&html), "a&#39;b&quot;c&lt;d&gt;e&amp;f");
	ck_assert_str_eq(buf_str(&xml), "a&apos;b&quot;c&lt;d&gt;e&amp;f");
	ck_assert_mem_eq(html.data + html.len - 2, "\0g", 2); /* n bytes, a NUL among them */
	buf_release(&html);
	buf_release(&xml);
}
END_TEST

START_TEST(test_markdown)
{
	sink = escape_markdown;
	want("storm at sea (2d6+1) [1/2]", "storm at sea (2d6+1) [1/2]");
	want("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;");
	want("[click](javascript:alert(1))", "[click]\\(javascript:alert(1))");
	want("<javascript:alert(1)>", "&lt;javascript:alert(1)&gt;");
	want("a | b", "a \\| b");
	want("`code`", "\\`code\\`");
	want("AT&T", "AT&amp;T");
	want("x\n# heading", "x\\x0a# heading");
	want("\033]8;;http://x\033\\", "\\x1b]8;;http://x\\x1b\\");
	/* plain printable ASCII is copied whole (the fast path): each special character, and a
	 * '(' only after ']', sends the text through the escaping */
	want("(x) a]b ]c( \\ ~", "(x) a]b ]c( \\ ~");
	want("(x) a](b", "(x) a]\\(b");
	want("(at the start)", "(at the start)");
	want("]", "]");
	want("x\x7f", "x\\x7f");
	want("", "");
}
END_TEST

START_TEST(test_message_line)
{
	sink = escape_message_line;
	want("the attacker's turn: event 5", "the attacker's turn: event 5");
	want("x\n\nJournal-Head: 00", "x\\x0a\\x0aJournal-Head: 00");
}
END_TEST

static Suite *escape_suite(void)
{
	Suite *s = suite_create("escape");
	TCase *tc = tcase_create("sinks");
	tcase_add_test(tc, test_terminal);
	tcase_add_test(tc, test_markdown);
	tcase_add_test(tc, test_message_line);
	tcase_add_test(tc, test_html);
	tcase_add_test(tc, test_markup);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(escape_suite)
