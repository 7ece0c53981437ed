/* check_svg.c — the SVG writer of the maps (core/svg.h): the exact bytes of each element (fixed
 * attribute order, integers only), XML escaping of text (entities, control characters and
 * invalid UTF-8), arrowheads placed by integer arithmetic, the integer square root. */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "core/buf.h"
#include "core/svg.h"
#include "testutil.h"

static void want_escape(const char *in, const char *out)
{
	struct buf b = BUF_INIT;

	svg_escape(&b, in);
	ck_assert_str_eq(buf_str(&b), out);
	buf_release(&b);
}

START_TEST(test_escape)
{
	want_escape("dw-slayers", "dw-slayers");
	want_escape("<a & 'b'> \"c\"", "&lt;a &amp; &apos;b&apos;&gt; &quot;c&quot;");
	want_escape("caf\xc3\xa9 \xe2\x80\x94 \xf0\x9f\x8e\xb2",
		"caf\xc3\xa9 \xe2\x80\x94 \xf0\x9f\x8e\xb2");
	want_escape("tab\there\nnew\x7f", "tab?here?new?");
	want_escape("\xff\xc3", "??");           /* invalid bytes, a truncated sequence */
	want_escape("\xc0\xaf", "??");           /* an overlong '/' */
	want_escape("\xed\xa0\x80", "???");      /* a UTF-16 surrogate */
	want_escape("\xf4\x90\x80\x80", "????"); /* beyond U+10FFFF */
}
END_TEST

START_TEST(test_elements)
{
	struct buf b = BUF_INIT;
	struct svg s;
	struct svg_style red = { "#c0392b", "#000000", 2, SVG_DASHED };
	struct svg_style text = { "#000000", NULL, 0, SVG_MIDDLE | SVG_BOLD };
	int tri[6] = { 0, 0, 10, 0, 5, -8 };

	svg_begin(&s, &b, 200, 100, 400, "a & b");
	svg_group(&s, "table");
	svg_rect(&s, -5, 6, 7, 8, &red);
	svg_circle(&s, 1, 2, 3, NULL);
	svg_poly(&s, tri, 3, 1, 0, &red);
	svg_text(&s, 10, 20, 12, "A1 <b>", &text);
	svg_end(&s);
	ck_assert_str_eq(buf_str(&b),
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"400\" height=\"200\" "
		"viewBox=\"0 0 200 100\" font-family=\"sans-serif\">\n"
		"<title>a &amp; b</title>\n"
		"<rect x=\"0\" y=\"0\" width=\"200\" height=\"100\" fill=\"#ffffff\"/>\n"
		"<g class=\"table\">\n"
		"<rect x=\"-5\" y=\"6\" width=\"7\" height=\"8\" fill=\"#c0392b\" stroke=\"#000000\" "
		"stroke-width=\"2\" stroke-dasharray=\"8 5\"/>\n"
		"<circle cx=\"1\" cy=\"2\" r=\"3\" fill=\"none\"/>\n"
		"<polygon points=\"0,0 10,0 5,-8\" fill=\"#c0392b\" stroke=\"#000000\" "
		"stroke-width=\"2\" stroke-dasharray=\"8 5\"/>\n"
		"<text x=\"10\" y=\"20\" font-size=\"12\" text-anchor=\"middle\" "
		"font-weight=\"bold\" fill=\"#000000\">A1 &lt;b&gt;</text>\n"
		"</g>\n"
		"</svg>\n");
	buf_release(&b);
}
END_TEST

/* One line of style st drawn alone on a 100 x 100 map (no run: its paint on itself). */
static void one_line(struct buf *b, int x1, int y1, int x2, int y2, int head,
	const struct svg_style *st)
{
	struct svg s;

	buf_clear(b);
	svg_begin(&s, b, 100, 100, 100, "t");
	svg_line(&s, x1, y1, x2, y2, head, st);
	svg_end(&s);
}

START_TEST(test_arrow)
{
	struct buf b = BUF_INIT;
	struct svg_style st = { NULL, "#1f4e9c", 4, SVG_ARROW };

	/* Along x, 100 long, a head of 20: its base 20 back, 10 to either side. */
	one_line(&b, 0, 50, 100, 50, 20, &st);
	ck_assert_ptr_nonnull(strstr(buf_str(&b),
		"<polyline points=\"0,50 100,50\" fill=\"none\" stroke=\"#1f4e9c\" "
		"stroke-width=\"4\" stroke-linejoin=\"round\"/>\n"
		"<polygon points=\"100,50 80,60 80,40\" fill=\"#1f4e9c\"/>\n</svg>\n"));
	/* A 3-4-5 diagonal of length 50, head 10: base at (32, 24), half-width 5 across. */
	one_line(&b, 0, 0, 40, 30, 10, &st);
	ck_assert_ptr_nonnull(strstr(buf_str(&b), "<polygon points=\"40,30 29,28 35,20\""));
	/* A zero-length line has no head (no division by zero). */
	one_line(&b, 7, 7, 7, 7, 10, &st);
	ck_assert_ptr_null(strstr(buf_str(&b), "<polygon"));
	buf_release(&b);
}
END_TEST

/* Shapes of the same paint one after another (a side's figures, its moves) go in one <path>
 * with the paint, each a subpath on a line of its own; their arrowheads in one more <path>,
 * filled, no stroke; a text, a group or another paint ends the run; a shape alone keeps its
 * element and paint (issue 38: the 9,600-figure map in fewer bytes). Runs are on only when
 * asked for (render_map, for a map over SVG_RUNS_FROM). */
START_TEST(test_runs)
{
	struct buf b = BUF_INIT;
	struct svg s;
	struct svg_style red = { "#c0392b", "#000000", 1, 0 };
	struct svg_style blue = { "#1f4e9c", "#000000", 1, 0 };
	struct svg_style move = { NULL, "#c0392b", 2, SVG_ARROW };

	/* runs off (the default): the same drawing, each shape with its paint */
	svg_begin(&s, &b, 100, 100, 100, "t");
	svg_rect(&s, 1, 2, 10, 10, &red);
	svg_rect(&s, 3, 4, 10, 10, &red);
	svg_line(&s, 0, 50, 0, 30, 8, &move);
	svg_line(&s, 20, 50, 20, 30, 8, &move);
	svg_end(&s);
	ck_assert_ptr_null(strstr(buf_str(&b), "<g"));
	ck_assert_ptr_nonnull(strstr(buf_str(&b),
		"<rect x=\"3\" y=\"4\" width=\"10\" height=\"10\" fill=\"#c0392b\" "
		"stroke=\"#000000\" stroke-width=\"1\"/>\n"
		"<polyline points=\"0,50 0,30\" fill=\"none\" stroke=\"#c0392b\" stroke-width=\"2\" "
		"stroke-linejoin=\"round\"/>\n"
		"<polygon points=\"0,30 4,38 -4,38\" fill=\"#c0392b\"/>\n"
		"<polyline points=\"20,50"));
	buf_clear(&b);

	svg_set_runs(1);
	svg_begin(&s, &b, 100, 100, 100, "t");
	svg_set_runs(0); /* what svg_begin saw holds for its drawing */
	svg_rect(&s, 1, 2, 10, 10, &red);
	svg_rect(&s, 3, 4, 10, 10, &red);
	svg_rect(&s, 5, 6, 10, 10, &red);
	svg_rect(&s, 7, 8, 10, 10, &blue);
	svg_line(&s, 0, 50, 0, 30, 8, &move);
	svg_line(&s, 20, 50, 20, 30, 8, &move);
	svg_text(&s, 1, 1, 10, "x", NULL);
	svg_rect(&s, 9, 9, 10, 10, &red);
	svg_end(&s);
	ck_assert_str_eq(buf_str(&b),
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"100\" "
		"viewBox=\"0 0 100 100\" font-family=\"sans-serif\">\n"
		"<title>t</title>\n"
		"<rect x=\"0\" y=\"0\" width=\"100\" height=\"100\" fill=\"#ffffff\"/>\n"
		"<path d=\"M1 2h10v10h-10z\n"
		"M3 4h10v10h-10z\n"
		"M5 6h10v10h-10z\" fill=\"#c0392b\" stroke=\"#000000\" stroke-width=\"1\"/>\n"
		"<rect x=\"7\" y=\"8\" width=\"10\" height=\"10\" fill=\"#1f4e9c\" stroke=\"#000000\" "
		"stroke-width=\"1\"/>\n"
		"<path d=\"M0 50l0 -20\n"
		"M20 50l0 -20\" fill=\"none\" stroke=\"#c0392b\" stroke-width=\"2\" "
		"stroke-linejoin=\"round\"/>\n"
		"<path d=\"M0 30l4 8 -8 0z\n"
		"M20 30l4 8 -8 0z\" fill=\"#c0392b\" stroke=\"none\"/>\n"
		"<text x=\"1\" y=\"1\" font-size=\"10\" fill=\"#000000\">x</text>\n"
		"<rect x=\"9\" y=\"9\" width=\"10\" height=\"10\" fill=\"#c0392b\" stroke=\"#000000\" "
		"stroke-width=\"1\"/>\n"
		"</svg>\n");
	buf_release(&b);
}
END_TEST

/* svg_plain_bytes: a drawing with runs tells the length it would have had without them, to
 * the byte (render_map draws a big map once), whatever its shapes, arrowheads, labels and
 * escaped text; only for the drawing that ends where out ends. */
static void draw_mixed(struct buf *b, int runs, const char *title)
{
	struct svg s;
	struct svg_style red = { "#c0392b", "#000000", 1, 0 };
	struct svg_style move = { NULL, "#c0392b", 2, SVG_ARROW | SVG_DASHED };
	struct svg_style txt = { "#000000", NULL, 0, 0 };
	int xy[6] = { 0, 0, 10, 0, 10, 10 };

	svg_set_runs(runs);
	svg_begin(&s, b, 100, 100, 100, title);
	svg_set_runs(0);
	svg_group(&s, "grp");
	for (int i = 0; i < 5; i++)
		svg_rect(&s, i, 2 * i, 10, 10, &red);
	svg_circle(&s, 10, 10, 5, &red);
	svg_line(&s, 0, 50, 0, 30, 8, &move);
	svg_line(&s, 20, 50, 20, 30, 8, &move);
	svg_poly(&s, xy, 3, 0, 6, &move);
	svg_text(&s, 1, 1, 10, "x <y> 'z'", &txt);
	svg_label(&s, 5, 5, 9, "g1 (hidden)", &txt);
	svg_line(&s, 40, 50, 40, 30, 8, &move);
	svg_group_end(&s);
	svg_end(&s);
}

START_TEST(test_plain_bytes)
{
	struct buf plain = BUF_INIT, runs = BUF_INIT;

	draw_mixed(&plain, 0, "t & u");
	ck_assert_uint_eq(svg_plain_bytes(&plain, 0), plain.len);
	buf_puts(&runs, "before");
	draw_mixed(&runs, 1, "t & u");
	ck_assert_uint_lt(runs.len - 6, plain.len);
	ck_assert_uint_eq(svg_plain_bytes(&runs, 6), plain.len);
	ck_assert_uint_eq(svg_plain_bytes(&runs, 0), SIZE_MAX);
	ck_assert_uint_eq(svg_plain_bytes(&plain, 0), SIZE_MAX);
	buf_puts(&runs, "after");
	ck_assert_uint_eq(svg_plain_bytes(&runs, 6), SIZE_MAX);
	buf_release(&plain);
	buf_release(&runs);
}
END_TEST

/* A run's closed subpaths all turn clockwise on the page (the shoelace sum positive, y down),
 * so the run's fill (nonzero) is the union of its shapes' and no overlap is a hole: a rect, a
 * circle (two arcs), a polygon given clockwise as it is, one given anticlockwise reversed. */
START_TEST(test_run_paths)
{
	struct buf b = BUF_INIT;
	struct svg s;
	struct svg_style red = { "#c0392b", "#000000", 1, 0 };
	int cw[6] = { 0, 0, 10, 0, 10, 10 }, ccw[6] = { 0, 0, 10, 10, 10, 0 };

	svg_set_runs(1);
	svg_begin(&s, &b, 100, 100, 100, "t");
	svg_set_runs(0);
	svg_rect(&s, 1, 2, 3, 4, &red);
	svg_circle(&s, 10, 10, 5, &red);
	svg_poly(&s, cw, 3, 1, 0, &red);
	svg_poly(&s, ccw, 3, 1, 0, &red);
	svg_end(&s);
	ck_assert_ptr_nonnull(strstr(buf_str(&b),
		"<path d=\"M1 2h3v4h-3z\n"
		"M5 10a5 5 0 1 1 10 0a5 5 0 1 1 -10 0z\n"
		"M0 0l10 0 0 10z\n"
		"M10 0l0 10 -10 -10z\" fill=\"#c0392b\" stroke=\"#000000\" stroke-width=\"1\"/>\n"
		"</svg>\n"));
	buf_release(&b);
}
END_TEST

/* Labels (issue 33): kept for svg_end, placed clear of every text drawn and of the labels
 * before them, slid into the viewBox, cut with "…" where nothing else fits. */
START_TEST(test_labels)
{
	struct svg s;
	struct buf b = BUF_INIT;
	struct svg_style end = { "#555555", NULL, 0, SVG_END };
	struct svg_style txt = { "#000000", NULL, 0, 0 };

	struct svg_box box = svg_text_box(10, 20, 10, "ab", 0);
	ck_assert_int_eq(box.x0, 10);
	ck_assert_int_eq(box.x1, 10 + (613 + 635) * 10 / 1000 + 1 + 1);
	ck_assert_int_eq(box.y0, 20 - 10);
	ck_assert_int_eq(box.y1, 20 + 3);
	svg_begin(&s, &b, 120, 100, 120, "t");
	svg_text(&s, 4, 15, 13, "D2", &txt);
	/* Over the grid name: lower (a line, still over it; a line up, off the map; two lines). */
	svg_label(&s, 116, 15, 11, "important-building", &end);
	/* Off the right edge: slid left, its end 1 unit inside (RIGHT_MARGIN). */
	svg_label(&s, 100, 60, 10, "orc-wolves", &txt);
	/* The same place twice: the second a line lower. */
	svg_label(&s, 4, 80, 10, "x", &txt);
	svg_label(&s, 4, 80, 10, "y", &txt);
	svg_end(&s);
	ck_assert_ptr_nonnull(strstr(buf_str(&b),
		"<g class=\"labels\">\n"
		"<text x=\"116\" y=\"43\" font-size=\"11\" text-anchor=\"end\" fill=\"#555555\">"
		"important-building</text>\n"
		"<text x=\"66\" y=\"60\" font-size=\"10\" fill=\"#000000\">orc-wolves</text>\n"
		"<text x=\"4\" y=\"80\" font-size=\"10\" fill=\"#000000\">x</text>\n"
		"<text x=\"4\" y=\"93\" font-size=\"10\" fill=\"#000000\">y</text>\n"
		"</g>\n</svg>\n"));
	buf_release(&b);

	/* Nowhere free on a small map: cut to fit, "…" (U+2026) at the end. */
	svg_begin(&s, &b, 60, 20, 60, "t");
	svg_label(&s, 0, 14, 10, "a-very-long-label", &txt);
	svg_end(&s);
	ck_assert_ptr_nonnull(strstr(buf_str(&b), "a-very-lo\xe2\x80\xa6</text>"));
	buf_release(&b);
}
END_TEST

/* Two drawings the same but for their titles (a player's view and the public one of a shared
 * turn), and one that differs elsewhere. */
START_TEST(test_same_but_title)
{
	struct buf a = BUF_INIT, b = BUF_INIT, c = BUF_INIT;
	struct svg s;
	struct svg_style st = { "#c0392b", NULL, 0, 0 };

	svg_begin(&s, &a, 100, 50, 200, "turn 3, as red sees it");
	svg_rect(&s, 1, 2, 3, 4, &st);
	svg_end(&s);
	svg_begin(&s, &b, 100, 50, 200, "turn 3, public view");
	svg_rect(&s, 1, 2, 3, 4, &st);
	svg_end(&s);
	svg_begin(&s, &c, 100, 50, 200, "turn 3, public view");
	svg_rect(&s, 1, 2, 3, 5, &st);
	svg_end(&s);
	ck_assert_int_eq(svg_same_but_title(&a, &b), 1);
	ck_assert_int_eq(svg_same_but_title(&b, &a), 1);
	ck_assert_int_eq(svg_same_but_title(&a, &c), 0);
	ck_assert_int_eq(svg_same_but_title(&b, &c), 0);
	buf_release(&a);
	buf_release(&b);
	buf_release(&c);
}
END_TEST

START_TEST(test_isqrt)
{
	ck_assert_uint_eq(svg_isqrt(0), 0);
	ck_assert_uint_eq(svg_isqrt(1), 1);
	ck_assert_uint_eq(svg_isqrt(24), 4);
	ck_assert_uint_eq(svg_isqrt(25), 5);
	ck_assert_uint_eq(svg_isqrt(26), 5);
	ck_assert_uint_eq(svg_isqrt(2500), 50);
	ck_assert_uint_eq(svg_isqrt(18446744073709551615ULL), 4294967295ULL);
}
END_TEST

static Suite *svg_suite(void)
{
	Suite *s = suite_create("svg");
	TCase *tc = tcase_create("writer");
	tcase_add_test(tc, test_escape);
	tcase_add_test(tc, test_elements);
	tcase_add_test(tc, test_arrow);
	tcase_add_test(tc, test_runs);
	tcase_add_test(tc, test_plain_bytes);
	tcase_add_test(tc, test_run_paths);
	tcase_add_test(tc, test_isqrt);
	tcase_add_test(tc, test_same_but_title);
	tcase_add_test(tc, test_labels);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(svg_suite)
