/* check_node.c — the YAML tree: every strict-parsing rejection at its exact line:column,
 * the limits, the source line shown under parse and node errors, canonical emitting
 * (golden bytes, quoting of ambiguous strings, round trips) and the messages of the
 * node_want_* readers. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "core/node.h"
#include "testutil.h"

/* The diagnostics of d, one line each: positions are what most cases check. */
static char *diag_text(const struct diag *d)
{
	struct buf b = BUF_INIT;
	diag_format(d, &b, DIAG_BRIEF);
	return buf_detach(&b);
}

/* The diagnostics of d as diag_print writes them, source lines and carets included. */
static char *diag_printed(const struct diag *d)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(f);
	diag_print(d, f);
	fclose(f);
	return text;
}

/* Parses src expecting failure; returns what diag_print writes. */
static char *parse_fail_printed(const char *src, size_t len)
{
	struct diag d;
	struct node *n = NULL;
	diag_init(&d);
	ck_assert_int_eq(node_parse(&n, "t.yaml", src, len, NULL, &d), -1);
	char *text = diag_printed(&d);
	diag_release(&d);
	return text;
}

#define ck_parse_fails_printed(src, expected) \
	do { \
		char *got_ = parse_fail_printed((src), strlen(src)); \
		ck_assert_str_eq(got_, (expected)); \
		free(got_); \
	} while (0)

/* Parses src (len bytes) expecting failure; returns the diagnostics printed. */
static char *parse_fail_n(const char *src, size_t len, const struct node_limits *lim)
{
	struct diag d;
	struct node *n = (struct node *)1;
	diag_init(&d);
	ck_assert_int_eq(node_parse(&n, "t.yaml", src, len, lim, &d), -1);
	ck_assert_ptr_null(n);
	ck_assert_uint_gt(diag_count(&d), 0);
	char *text = diag_text(&d);
	diag_release(&d);
	return text;
}

#define ck_parse_fails_lim(src, lim, expected) \
	do { \
		char *got_ = parse_fail_n((src), strlen(src), (lim)); \
		ck_assert_str_eq(got_, (expected)); \
		free(got_); \
	} while (0)
#define ck_parse_fails(src, expected) ck_parse_fails_lim((src), NULL, (expected))

static struct node *parse_ok(const char *src)
{
	struct diag d;
	struct node *n = NULL;
	diag_init(&d);
	int rc = node_parse(&n, "t.yaml", src, strlen(src), NULL, &d);
	if (rc != 0) {
		char *text = diag_text(&d);
		ck_abort_msg("unexpected parse failure:\n%s", text);
	}
	ck_assert_uint_eq(diag_count(&d), 0);
	ck_assert_ptr_nonnull(n);
	diag_release(&d);
	return n;
}

static char *emit(const struct node *n)
{
	struct buf b = BUF_INIT;
	ck_assert_int_eq(node_emit(n, &b), 0);
	return buf_detach(&b);
}

static int tree_equal(const struct node *a, const struct node *b)
{
	if (a->kind != b->kind || a->n != b->n)
		return 0;
	if (a->kind == NODE_SCALAR)
		return strcmp(a->scalar, b->scalar) == 0;
	for (size_t i = 0; i < a->n; i++) {
		if (a->kind == NODE_MAP && !tree_equal(a->keys[i], b->keys[i]))
			return 0;
		if (!tree_equal(a->items[i], b->items[i]))
			return 0;
	}
	return 1;
}

/* --- parsing: accepted documents and positions -------------------------------------- */

START_TEST(parse_positions)
{
	struct node *root = parse_ok("campaign: harbour-raid\n"
				     "turn: 3\n"
				     "orders:\n"
				     "  - unit: \"blood\"\n"
				     "    to: [4, 5]\n"
				     "name: é-x\n");
	ck_assert_int_eq(root->kind, NODE_MAP);
	ck_assert_str_eq(root->file, "t.yaml");
	ck_assert_int_eq(root->line, 1);
	ck_assert_int_eq(root->column, 1);
	ck_assert_uint_eq(root->n, 4);
	ck_assert_str_eq(root->keys[1]->scalar, "turn");
	ck_assert_int_eq(root->keys[1]->line, 2);

	const struct node *turn = node_get(root, "turn");
	ck_assert_str_eq(turn->scalar, "3");
	ck_assert_int_eq(turn->quoted, 0);
	ck_assert_int_eq(turn->line, 2);
	ck_assert_int_eq(turn->column, 7);

	const struct node *orders = node_get(root, "orders");
	ck_assert_int_eq(orders->kind, NODE_SEQ);
	ck_assert_int_eq(orders->line, 4);
	ck_assert_int_eq(orders->column, 3);
	const struct node *o = orders->items[0];
	ck_assert_int_eq(o->kind, NODE_MAP);
	ck_assert_int_eq(o->line, 4);
	ck_assert_int_eq(o->column, 5);
	const struct node *unit = node_get(o, "unit");
	ck_assert_str_eq(unit->scalar, "blood");
	ck_assert_int_eq(unit->quoted, 1);
	ck_assert_int_eq(unit->column, 11);
	const struct node *to = node_get(o, "to");
	ck_assert_int_eq(to->kind, NODE_SEQ);
	ck_assert_int_eq(to->line, 5);
	ck_assert_int_eq(to->column, 9);
	ck_assert_int_eq(to->items[1]->column, 13);
	ck_assert_ptr_eq(to->items[1]->file, root->file);
	ck_assert_str_eq(node_get(root, "name")->scalar, "é-x");
	node_free(root);
}
END_TEST

START_TEST(parse_file_name_owned_by_root)
{
	char file[] = "orders/attacker.yaml";
	char src[] = "a: [1]\n";
	struct diag d;
	struct node *n = NULL;
	diag_init(&d);
	ck_assert_int_eq(node_parse(&n, file, src, strlen(src), NULL, &d), 0);
	memset(file, 'x', sizeof(file) - 1);
	memset(src, 'x', sizeof(src) - 1);
	ck_assert_str_eq(n->file, "orders/attacker.yaml");
	ck_assert_str_eq(n->items[0]->items[0]->file, "orders/attacker.yaml");
	ck_assert_str_eq(n->items[0]->items[0]->scalar, "1");
	node_free(n);
	diag_release(&d);
}
END_TEST

START_TEST(parse_not_nul_terminated)
{
	const char src[] = "a: 1b: 2";
	struct diag d;
	struct node *n = NULL;
	diag_init(&d);
	ck_assert_int_eq(node_parse(&n, "t.yaml", src, 4, NULL, &d), 0);
	ck_assert_str_eq(node_get(n, "a")->scalar, "1");
	node_free(n);
	diag_release(&d);
}
END_TEST

START_TEST(parse_scalar_styles)
{
	struct node *n = parse_ok("plain: x\n"
				  "single: 'x'\n"
				  "double: \"x\\ty\"\n"
				  "literal: |\n  a\n  b\n"
				  "folded: >\n  a\n  b\n"
				  "null:\n");
	ck_assert_int_eq(node_get(n, "plain")->quoted, 0);
	ck_assert_int_eq(node_get(n, "single")->quoted, 1);
	ck_assert_str_eq(node_get(n, "double")->scalar, "x\ty");
	ck_assert_int_eq(node_get(n, "literal")->quoted, 1);
	ck_assert_str_eq(node_get(n, "literal")->scalar, "a\nb\n");
	ck_assert_str_eq(node_get(n, "folded")->scalar, "a b\n");
	ck_assert_str_eq(node_get(n, "null")->scalar, "");
	ck_assert_int_eq(node_get(n, "null")->quoted, 0);
	node_free(n);
}
END_TEST

START_TEST(parse_utf8_bom_and_explicit_start)
{
	struct node *n = parse_ok("\xef\xbb\xbf---\na: 1\n...\n");
	ck_assert_str_eq(node_get(n, "a")->scalar, "1");
	node_free(n);
}
END_TEST

/* --- parsing: rejections ------------------------------------------------------------ */

START_TEST(reject_empty)
{
	ck_parse_fails("", "t.yaml:1:1: error: document is empty (a YAML document expected)\n");
	ck_parse_fails("# only a comment\n\n",
		"t.yaml:1:1: error: document is empty (a YAML document expected)\n");
	ck_parse_fails("---\n",
		"t.yaml:1:1: error: document is empty (a YAML document expected)\n");
}
END_TEST

START_TEST(reject_second_document)
{
	ck_parse_fails("a: 1\n---\nb: 2\n", "t.yaml:2:1: error: a second document is not allowed "
					    "(one document per file expected)\n");
	ck_parse_fails("a: 1\n...\n---\nb: 2\n",
		"t.yaml:3:1: error: a second document is not allowed "
		"(one document per file expected)\n");
}
END_TEST

START_TEST(reject_anchor_alias_tag_all_at_once)
{
	ck_parse_fails("a: &x 1\n"
		       "b: *x\n"
		       "c: !!str 3\n"
		       "d: !local x\n"
		       "e: &m\n  f: 1\n"
		       "g: !!seq [1]\n",
		"t.yaml:1:4: error: anchor '&x' is not allowed (plain values expected)\n"
		"t.yaml:2:4: error: alias '*x' is not allowed (plain values expected)\n"
		"t.yaml:3:4: error: tag '!!str' is not allowed (untagged values expected)\n"
		"t.yaml:4:4: error: tag '!local' is not allowed (untagged values expected)\n"
		"t.yaml:5:4: error: anchor '&m' is not allowed (plain values expected)\n"
		"t.yaml:7:4: error: tag '!!seq' is not allowed (untagged values expected)\n");
}
END_TEST

START_TEST(reject_non_scalar_keys)
{
	ck_parse_fails("? [1, 2]\n: a\n? {b: c}\n: d\n",
		"t.yaml:1:3: error: a key is a sequence (a plain name expected)\n"
		"t.yaml:3:3: error: a key is a mapping (a plain name expected)\n");
	ck_parse_fails("{[a]: 1}\n",
		"t.yaml:1:2: error: a key is a sequence (a plain name expected)\n");
	ck_parse_fails("? \n: x\n", "t.yaml:1:2: error: a key is empty (a plain name expected)\n");
}
END_TEST

START_TEST(reject_duplicate_keys)
{
	/* Each repetition is reported at itself, naming the first; nested maps too. */
	ck_parse_fails("turn: 1\n"
		       "player: a\n"
		       "turn: 2\n"
		       "orders:\n"
		       "  - unit: x\n"
		       "    unit: y\n"
		       "turn: 3\n"
		       "'player': b\n",
		"t.yaml:3:1: error: duplicate key 'turn' (first at line 1, each key once expected)\n"
		"t.yaml:6:5: error: duplicate key 'unit' (first at line 5, each key once expected)\n"
		"t.yaml:7:1: error: duplicate key 'turn' (first at line 1, each key once expected)\n"
		"t.yaml:8:1: error: duplicate key 'player' (first at line 2, each key once expected)\n");
	ck_parse_fails("{a: 1, b: 2, a: 3}\n",
		"t.yaml:1:14: error: duplicate key 'a' (first at line 1, each key once expected)\n");
}
END_TEST

START_TEST(reject_depth)
{
	struct node_limits lim = { 0, 3, 0, 0 };
	struct diag d;
	struct node *n = NULL;
	const char *ok = "a:\n  b:\n    - 1\n";
	diag_init(&d);
	ck_assert_int_eq(node_parse(&n, "t.yaml", ok, strlen(ok), &lim, &d), 0);
	node_free(n);
	diag_release(&d);
	ck_parse_fails_lim("a:\n  b:\n    - [1]\n", &lim,
		"t.yaml:3:7: error: collections nested 4 deep (at most 3 levels expected)\n");
	/* The default is 16. */
	ck_parse_fails("[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]\n",
		"t.yaml:1:17: error: collections nested 17 deep (at most 16 levels expected)\n");
}
END_TEST

START_TEST(reject_node_count)
{
	struct node_limits lim = { 0, 0, 5, 0 };
	struct diag d;
	struct node *n = NULL;
	const char *ok = "a: 1\nb: 2\n"; /* the map, two keys, two values */
	diag_init(&d);
	ck_assert_int_eq(node_parse(&n, "t.yaml", ok, strlen(ok), &lim, &d), 0);
	node_free(n);
	diag_release(&d);
	ck_parse_fails_lim("a: 1\nb: [2]\n", &lim,
		"t.yaml:2:5: error: too many nodes: more than 5 (at most 5 expected)\n");
}
END_TEST

START_TEST(reject_long_scalar)
{
	struct node_limits lim = { 0, 0, 0, 4 };
	struct diag d;
	struct node *n = NULL;
	const char *ok = "abcd: \"wxyz\"\n";
	diag_init(&d);
	ck_assert_int_eq(node_parse(&n, "t.yaml", ok, strlen(ok), &lim, &d), 0);
	node_free(n);
	diag_release(&d);
	ck_parse_fails_lim("a: abcde\nbcdef: 1\n", &lim,
		"t.yaml:1:4: error: value is 5 bytes long (at most 4 expected)\n"
		"t.yaml:2:1: error: value is 5 bytes long (at most 4 expected)\n");
}
END_TEST

START_TEST(reject_too_many_bytes)
{
	struct node_limits lim = { 10, 0, 0, 0 };
	struct diag d;
	struct node *n = NULL;
	diag_init(&d);
	ck_assert_int_eq(node_parse(&n, "t.yaml", "a: 123456\n", 10, &lim, &d), 0);
	node_free(n);
	diag_release(&d);
	ck_parse_fails_lim("a: 1234567\n", &lim,
		"t.yaml:1:1: error: file is 11 bytes (at most 10 expected)\n");

	/* Default: 64 KiB. */
	size_t len = 64 * 1024 + 1;
	char *big = malloc(len);
	memset(big, '#', len);
	char *got = parse_fail_n(big, len, NULL);
	ck_assert_str_eq(got, "t.yaml:1:1: error: file is 65537 bytes (at most 65536 expected)\n");
	free(got);
	free(big);
}
END_TEST

START_TEST(reject_bad_bytes)
{
	static const char nul[] = "a: 1\nb: x\0y\n";
	char *got = parse_fail_n(nul, sizeof(nul) - 1, NULL);
	ck_assert_str_eq(got, "t.yaml:2:5: error: control characters are not allowed: #x00 "
			      "(UTF-8 text without control characters expected)\n");
	free(got);
	ck_parse_fails("a: 1\r\nb: caf\xc3\xa9 \x01\n",
		"t.yaml:2:9: error: control characters are not allowed: #x01 "
		"(UTF-8 text without control characters expected)\n");
	ck_parse_fails("a: \xff\n", "t.yaml:1:4: error: byte #xFF is not UTF-8, perhaps Latin-1 "
				    "'\xc3\xbf': save the file as UTF-8 "
				    "(UTF-8 text without control characters expected)\n");
	/* libyaml names the byte after a cut sequence ('('): the error is the sequence's lead. */
	ck_parse_fails("a: \xc3(\n", "t.yaml:1:4: error: byte #xC3 is not UTF-8, perhaps Latin-1 "
				     "'\xc3\x83': save the file as UTF-8 "
				     "(UTF-8 text without control characters expected)\n");
	ck_parse_fails("a: \x80\n", "t.yaml:1:4: error: byte #x80 is not UTF-8 "
				    "(UTF-8 text without control characters expected)\n");
	/* A UTF-16 byte order mark is not taken as a hint to switch encodings. */
	ck_parse_fails("\xff\xfe"
		       "a\0:\0 \0"
		       "1\0",
		"t.yaml:1:1: error: byte #xFF is not UTF-8, perhaps Latin-1 '\xc3\xbf': save the "
		"file as UTF-8 (UTF-8 text without control characters expected)\n");
	/* An escaped NUL would cut the C string short. */
	ck_parse_fails("a: \"x\\0y\"\n",
		"t.yaml:1:4: error: value contains a NUL character (text without NUL expected)\n");
}
END_TEST

START_TEST(reject_syntax)
{
	ck_parse_fails("campaign: x\nturn: 3\norders:\n  a: b: c\n",
		"t.yaml:4:7: error: mapping values are not allowed in this context "
		"(valid YAML expected)\n");
	ck_parse_fails("a: \"open\nb: 2\n",
		"t.yaml:3:1: error: found unexpected end of stream while scanning a quoted "
		"scalar started at line 1, column 4 (valid YAML expected)\n");
	ck_parse_fails("a: 1\n b: 2\n",
		"t.yaml:2:3: error: mapping values are not allowed in this context "
		"(valid YAML expected)\n");
	ck_parse_fails("a: [1, 2\n",
		"t.yaml:2:1: error: did not find expected ',' or ']' while parsing a flow "
		"sequence started at line 1, column 4 (valid YAML expected)\n");
	ck_parse_fails("a: 1\n\tb: 2\n",
		"t.yaml:2:1: error: found a tab character that violates indentation while "
		"scanning a plain scalar started at line 1, column 4 (valid YAML expected)\n");
}
END_TEST

START_TEST(reject_directives)
{
	ck_parse_fails("%YAML 1.1\n---\na: 1\n",
		"t.yaml:1:1: error: directives are not allowed (a plain YAML document expected)\n");
	ck_parse_fails("%TAG !e! tag:example.com,2000:\n---\na: 1\n",
		"t.yaml:1:1: error: directives are not allowed (a plain YAML document expected)\n");
}
END_TEST

START_TEST(reject_keeps_going_after_semantic_errors)
{
	/* Strictness errors do not stop the parse: a later syntax error is still found. */
	ck_parse_fails("a: &x 1\na: 2\nb: [\n",
		"t.yaml:1:4: error: anchor '&x' is not allowed (plain values expected)\n"
		"t.yaml:4:1: error: did not find expected node content while parsing a flow "
		"node started at line 4, column 1 (valid YAML expected)\n");
}
END_TEST

/* --- parsing: the source shown with diagnostics ------------------------------------- */

START_TEST(source_shown_for_parse_errors)
{
	/* libyaml's marks, made 1-based, land the caret on the spot. */
	ck_parse_fails_printed("campaign: x\nturn: 3\norders:\n  a: b: c\n",
		"t.yaml:4:7: error: mapping values are not allowed in this context "
		"(valid YAML expected)\n"
		"    4 |   a: b: c\n"
		"      |       ^\n");
	/* Reader errors come as a byte offset; node.c counts it into characters. */
	ck_parse_fails_printed("a: 1\r\nb: caf\xc3\xa9 \xff\r\n",
		"t.yaml:2:9: error: byte #xFF is not UTF-8, perhaps Latin-1 '\xc3\xbf': save the "
		"file as UTF-8 (UTF-8 text without control characters expected)\n"
		"    2 | b: caf\xc3\xa9 \\xff\n"
		"      |         ^\n");
	/* A Latin-1 'é' (one byte, then a space): the caret under it, not under the space
	 * libyaml noticed; a Latin-1 byte from 0x80 to 0xBF counts a column too (issue 33). */
	ck_parse_fails_printed("a: 1\nb: caf\xe9 bar\n",
		"t.yaml:2:7: error: byte #xE9 is not UTF-8, perhaps Latin-1 '\xc3\xa9': save the "
		"file as UTF-8 (UTF-8 text without control characters expected)\n"
		"    2 | b: caf\\xe9 bar\n"
		"      |       ^\n");
	ck_parse_fails_printed("a: \xe9\xe9 x\n",
		"t.yaml:1:4: error: byte #xE9 is not UTF-8, perhaps Latin-1 '\xc3\xa9': save the "
		"file as UTF-8 (UTF-8 text without control characters expected)\n"
		"    1 | a: \\xe9\\xe9 x\n"
		"      |    ^\n");
	/* An ANSI escape in an order file is shown escaped, never sent to the terminal. */
	ck_parse_fails_printed("a: 1\nb: \x1b[2J\x1b[31mred\n",
		"t.yaml:2:4: error: control characters are not allowed: #x1B "
		"(UTF-8 text without control characters expected)\n"
		"    2 | b: \\x1b[2J\\x1b[31mred\n"
		"      |    ^\n");
	/* At the end of the text, past its last line: the error line alone. */
	ck_parse_fails_printed("a: [1, 2\n",
		"t.yaml:2:1: error: did not find expected ',' or ']' while parsing a flow "
		"sequence started at line 1, column 4 (valid YAML expected)\n");
	ck_parse_fails_printed("",
		"t.yaml:1:1: error: document is empty (a YAML document expected)\n");
	/* Several strictness errors, each over its own line. */
	ck_parse_fails_printed("a: &x 1\nb: !!str 2\n",
		"t.yaml:1:4: error: anchor '&x' is not allowed (plain values expected)\n"
		"    1 | a: &x 1\n"
		"      |    ^\n"
		"t.yaml:2:4: error: tag '!!str' is not allowed (untagged values expected)\n"
		"    2 | b: !!str 2\n"
		"      |    ^\n");
}
END_TEST

START_TEST(source_not_kept_for_oversized_files)
{
	struct node_limits lim = { 10, 0, 0, 0 };
	struct diag d;
	struct node *n = NULL;
	diag_init(&d);
	ck_assert_int_eq(node_parse(&n, "t.yaml", "a: 1234567\n", 11, &lim, &d), -1);
	ck_assert_uint_eq(d.n_sources, 0);
	char *got = diag_printed(&d);
	ck_assert_str_eq(got, "t.yaml:1:1: error: file is 11 bytes (at most 10 expected)\n");
	free(got);
	diag_release(&d);
}
END_TEST

/* Parses src into d, reports "here" at the node the path leads to (keys, or "#N" for
 * sequence items) and returns what diag_print writes. */
static char *error_at(const char *src, const char *const *path)
{
	struct diag d;
	struct node *root = NULL;
	diag_init(&d);
	ck_assert_int_eq(node_parse(&root, "t.yaml", src, strlen(src), NULL, &d), 0);
	const struct node *n = root;
	for (size_t i = 0; path[i]; i++)
		n = path[i][0] == '#' ? n->items[atoi(path[i] + 1)] : node_get(n, path[i]);
	ck_assert_ptr_nonnull(n);
	node_error(&d, n, "here");
	/* Parsing the same text again into the same diag keeps one copy. */
	struct node *again = NULL;
	ck_assert_int_eq(node_parse(&again, "t.yaml", src, strlen(src), NULL, &d), 0);
	ck_assert_uint_eq(d.n_sources, 1);
	node_free(again);
	char *text = diag_printed(&d);
	diag_release(&d);
	node_free(root);
	return text;
}

START_TEST(source_shown_for_errors_at_nodes)
{
	/* Errors found after parsing (rule systems' checks) point into the registered text. */
	static const char *const move[] = { "orders", "#0", "move", NULL };
	char *got = error_at("campaign: x\norders:\n  - move: Z9\n", move);
	ck_assert_str_eq(got, "t.yaml:3:11: error: here\n"
			      "    3 |   - move: Z9\n"
			      "      |           ^\n");
	free(got);

	/* libyaml counts characters: two wide ones are two columns of its, four on screen. */
	static const char *const second[] = { "k", "#1", NULL };
	got = error_at("k: [\xe6\x9d\xb1\xe4\xba\xac, Z9]\n", second);
	ck_assert_str_eq(got, "t.yaml:1:9: error: here\n"
			      "    1 | k: [\xe6\x9d\xb1\xe4\xba\xac, Z9]\n"
			      "      |           ^\n");
	free(got);

	/* A tab (allowed between flow items) is one column and repeated in the caret line. */
	got = error_at("k: [x,\tZ9]\n", second);
	ck_assert_str_eq(got, "t.yaml:1:8: error: here\n"
			      "    1 | k: [x,\tZ9]\n"
			      "      |       \t^\n");
	free(got);

	/* CRLF line endings: the CR is not shown. */
	static const char *const b1[] = { "b", "#1", NULL };
	got = error_at("a: 1\r\nb: [x, Z9]\r\n", b1);
	ck_assert_str_eq(got, "t.yaml:2:8: error: here\n"
			      "    2 | b: [x, Z9]\n"
			      "      |        ^\n");
	free(got);

	/* A UTF-8 byte order mark is dropped before parsing, and so from the shown line. */
	static const char *const a[] = { "a", NULL };
	got = error_at("\xef\xbb\xbf"
		       "a: Z9\n",
		a);
	ck_assert_str_eq(got, "t.yaml:1:4: error: here\n"
			      "    1 | a: Z9\n"
			      "      |    ^\n");
	free(got);
}
END_TEST

/* --- emitting ---------------------------------------------------------------------- */

START_TEST(emit_golden)
{
	struct node *root = node_new_map();
	node_map_str(root, "campaign", "harbour-raid");
	node_map_int(root, "turn", 3);
	node_map_bool(root, "fair", 1);
	node_map_bool(root, "hidden", 0);
	struct node *players = node_map_add(root, "players", node_new_seq());
	struct node *p = node_seq_add(players, node_new_map());
	node_map_str(p, "id", "attacker");
	node_map_str(p, "name", "Captain Blood's crew");
	p = node_seq_add(players, node_new_map());
	node_map_str(p, "id", "defender");
	node_map_str(p, "name", "The Port Royal garrison");
	node_map_add(root, "options", node_new_map());
	node_map_add(root, "orders", node_new_seq());
	node_map_str(root, "answer", "yes");
	node_map_str(root, "number", "42");
	node_map_int(root, "negative", -7);
	node_map_str(root, "text", "two\nlines");
	node_map_str(root, "empty", "");
	node_map_str(root, "yes", "é");
	struct node *nested = node_map_add(root, "nested", node_new_seq());
	struct node *inner = node_seq_add(nested, node_new_seq());
	node_seq_add(inner, node_new_int(1));
	node_seq_add(inner, node_new_str("2d6"));
	char *got = emit(root);
	ck_assert_str_eq(got, "campaign: harbour-raid\n"
			      "turn: 3\n"
			      "fair: true\n"
			      "hidden: false\n"
			      "players:\n"
			      "- id: attacker\n"
			      "  name: \"Captain Blood's crew\"\n"
			      "- id: defender\n"
			      "  name: The Port Royal garrison\n"
			      "options: {}\n"
			      "orders: []\n"
			      "answer: \"yes\"\n"
			      "number: \"42\"\n"
			      "negative: -7\n"
			      "text: \"two\\nlines\"\n"
			      "empty: \"\"\n"
			      "\"yes\": é\n"
			      "nested:\n"
			      "- - 1\n"
			      "  - 2d6\n");
	/* Deterministic: the same tree gives the same bytes, and a clone does too. */
	char *again = emit(root);
	struct node *copy = node_clone(root);
	char *cloned = emit(copy);
	ck_assert_str_eq(again, got);
	ck_assert_str_eq(cloned, got);
	free(got);
	free(again);
	free(cloned);
	node_free(copy);
	node_free(root);
}
END_TEST

/* node_emit writes block collections of short scalars itself and anything else through
 * libyaml: both give these bytes (libyaml's, indent 2, a mapping's sequence not indented),
 * with the tree written directly and, with one key libyaml must decide ("y"), by libyaml. */
START_TEST(emit_direct_as_libyaml)
{
	for (int through_libyaml = 0; through_libyaml < 2; through_libyaml++) {
		struct node *root = node_new_map();
		struct node *a = node_map_add(root, "a", node_new_seq());
		struct node *s = node_seq_add(a, node_new_seq());
		node_seq_add(s, node_new_str("x"));
		node_seq_add(s, node_new_str("0101"));
		node_seq_add(a, node_new_seq());
		node_seq_add(a, node_new_map());
		s = node_seq_add(a, node_new_seq());
		struct node *deep = node_seq_add(s, node_new_seq());
		node_seq_add(deep, node_new_str("deep"));
		node_seq_add(deep, node_new_int(-2));
		struct node *m = node_seq_add(s, node_new_map());
		node_map_str(m, "k", "a b");
		struct node *ms = node_map_add(m, "m", node_new_seq());
		node_seq_add(ms, node_new_int(1));
		node_seq_add(node_seq_add(ms, node_new_seq()), node_new_bool(1));
		node_map_add(m, "e", node_new_map());
		node_map_add(m, "o", node_new_seq());
		struct node *c = node_map_add(root, "c", node_new_map());
		struct node *d = node_map_add(c, "d", node_new_map());
		struct node *e = node_map_add(d, "e", node_new_seq());
		struct node *f = node_seq_add(e, node_new_map());
		node_map_str(f, "f", "");
		node_map_str(node_map_add(f, "h", node_new_map()), "i", "yes");
		node_seq_add(node_map_add(f, "l", node_new_seq()), node_new_str("m"));
		node_map_str(c, through_libyaml ? "y" : "z", "-");
		char *got = emit(root);
		static const char common[] = "a:\n"
					     "- - x\n"
					     "  - \"0101\"\n"
					     "- []\n"
					     "- {}\n"
					     "- - - deep\n"
					     "    - -2\n"
					     "  - k: a b\n"
					     "    m:\n"
					     "    - 1\n"
					     "    - - true\n"
					     "    e: {}\n"
					     "    o: []\n"
					     "c:\n"
					     "  d:\n"
					     "    e:\n"
					     "    - f: \"\"\n"
					     "      h:\n"
					     "        i: \"yes\"\n"
					     "      l:\n"
					     "      - m\n";
		char want[sizeof(common) + 16];
		snprintf(want, sizeof(want), "%s%s", common,
			through_libyaml ? "  \"y\": \"-\"\n" : "  z: \"-\"\n");
		ck_assert_str_eq(got, want);
		free(got);
		node_free(root);
	}
}
END_TEST

/* Text outside ASCII: inside double quotes written as it is where libyaml does (these are
 * libyaml's bytes), escaped where it escapes (past U+FFFF, a line separator, a BOM); a
 * plain one is left to libyaml. */
START_TEST(emit_utf8_as_libyaml)
{
	static const struct {
		const char *value, *want;
	} cases[] = {
		{ "x: \u00e9 \u00a7", "k: \"x: \u00e9 \u00a7\"\n" },
		{ "nbsp: \u00a0", "k: \"nbsp: \u00a0\"\n" },
		{ "emoji: \U0001F600", "k: \"emoji: \\U0001F600\"\n" },
		{ "ls: \u2028", "k: \"ls: \\L\"\n" },
		{ "bom: \xef\xbb\xbf", "k: \"bom: \\uFEFF\"\n" },
		{ "\u00e9", "k: \u00e9\n" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct node *m = node_new_map();
		node_map_str(m, "k", cases[i].value);
		char *got = emit(m);
		ck_assert_str_eq(got, cases[i].want);
		struct buf entry = BUF_INIT;
		ck_assert_int_eq(node_emit_entry(&entry, 0, 1, "k", cases[i].value, 1), 0);
		ck_assert_str_eq(buf_str(&entry), cases[i].want);
		buf_release(&entry);
		free(got);
		node_free(m);
	}
}
END_TEST

/* '"' and '\\' inside double quotes, escaped with a backslash: written directly as libyaml
 * writes them (the same map with a key only libyaml writes, "y", is libyaml's bytes). */
START_TEST(emit_escapes_as_libyaml)
{
	static const char *const values[] = { "5\" of movement", "back\\slash", "\"quoted\"",
		"\u00e9 \"x\"", "a\\\"b", "\" lead", "trail \"", "\\" };
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		struct node *m = node_new_map(), *l = node_new_map();
		node_map_str(m, "k", values[i]);
		node_map_str(l, "k", values[i]);
		node_map_str(l, "y", "-");
		char *got = emit(m), *lib = emit(l);
		ck_assert_msg(strncmp(lib, got, strlen(got)) == 0 &&
				      strcmp(lib + strlen(got), "\"y\": \"-\"\n") == 0,
			"direct %s, libyaml %s", got, lib);
		struct buf entry = BUF_INIT;
		ck_assert_int_eq(node_emit_entry(&entry, 0, 1, "k", values[i], 1), 0);
		ck_assert_str_eq(buf_str(&entry), got);
		buf_release(&entry);
		free(got);
		free(lib);
		node_free(m);
		node_free(l);
	}
}
END_TEST

START_TEST(emit_appends)
{
	struct buf b = BUF_INIT;
	struct node *n = node_new_seq();
	buf_puts(&b, "# head\n");
	ck_assert_int_eq(node_emit(n, &b), 0);
	ck_assert_str_eq(buf_str(&b), "# head\n[]\n");
	buf_release(&b);
	node_free(n);
}
END_TEST

START_TEST(emit_root_scalar)
{
	struct node *n = node_new_str("hello world");
	char *got = emit(n);
	ck_assert_str_eq(got, "hello world\n");
	free(got);
	node_free(n);
}
END_TEST

START_TEST(emit_invalid_utf8_fails)
{
	struct buf b = BUF_INIT;
	struct node *n = node_new_map();
	node_map_str(n, "a", "\xff");
	buf_puts(&b, "kept");
	ck_assert_int_eq(node_emit(n, &b), -1);
	ck_assert_str_eq(buf_str(&b), "kept");
	buf_release(&b);
	node_free(n);
}
END_TEST

static const struct {
	const char *s, *emitted;
} quoting[] = {
	/* would read back as null, bool or number */
	{ "", "\"\"" },
	{ "~", "\"~\"" },
	{ "null", "\"null\"" },
	{ "Null", "\"Null\"" },
	{ "yes", "\"yes\"" },
	{ "No", "\"No\"" },
	{ "y", "\"y\"" },
	{ "n", "\"n\"" },
	{ "true", "\"true\"" },
	{ "FALSE", "\"FALSE\"" },
	{ "on", "\"on\"" },
	{ "off", "\"off\"" },
	{ "1", "\"1\"" },
	{ "0", "\"0\"" },
	{ "-3", "\"-3\"" },
	{ "+3", "\"+3\"" },
	{ "1.5", "\"1.5\"" },
	{ ".5", "\".5\"" },
	{ "1e5", "\"1e5\"" },
	{ "1_000", "\"1_000\"" },
	{ "0x10", "\"0x10\"" },
	{ "0o17", "\"0o17\"" },
	{ "0b101", "\"0b101\"" },
	{ "010", "\"010\"" },
	{ "1:30", "\"1:30\"" },
	{ ".inf", "\".inf\"" },
	{ "-.inf", "\"-.inf\"" },
	{ ".NaN", "\".NaN\"" },
	{ "2001-12-14", "\"2001-12-14\"" },
	/* would not read back as the same string */
	{ " lead", "\" lead\"" },
	{ "trail ", "\"trail \"" },
	{ "a: b", "\"a: b\"" },
	{ "a #b", "\"a #b\"" },
	{ "- x", "\"- x\"" },
	{ "-x", "\"-x\"" },
	{ "[x]", "\"[x]\"" },
	{ "&a", "\"&a\"" },
	{ "*a", "\"*a\"" },
	{ "!a", "\"!a\"" },
	{ "'q'", "\"'q'\"" },
	{ "\"", "\"\\\"\"" },
	{ "a\tb", "\"a\\tb\"" },
	{ "<<", "\"<<\"" },
	{ "=", "\"=\"" },
	{ "a\xc2\xa0"
	  "b",
		"\"a\xc2\xa0"
		"b\"" },
	{ "\xe2\x80\xa8", "\"\\L\"" },
	/* plain is safe */
	{ "harbour-raid", "harbour-raid" },
	{ "2d6", "2d6" },
	{ "d10", "d10" },
	{ "1st", "1st" },
	{ "a b", "a b" },
	{ "Port Royal", "Port Royal" },
	{ "x.y_z", "x.y_z" },
	{ "/path", "/path" },
	{ "été", "été" },
	{ "nullx", "nullx" },
	{ "yess", "yess" },
};

START_TEST(emit_quoting)
{
	size_t i = (size_t)_i;
	struct node *root = node_new_seq();
	node_seq_add(root, node_new_str(quoting[i].s));
	char *got = emit(root);
	char *want = xasprintf("- %s\n", quoting[i].emitted);
	ck_assert_msg(strcmp(got, want) == 0, "[%s]: got %s want %s", quoting[i].s, got, want);

	/* And it reads back as the same string. */
	struct node *back = parse_ok(got);
	ck_assert_str_eq(back->items[0]->scalar, quoting[i].s);
	free(got);
	free(want);
	node_free(back);
	node_free(root);
}
END_TEST

START_TEST(emit_round_trip)
{
	static const char src[] = "campaign: harbour-raid\n"
				  "turn: 3\n"
				  "player: attacker\n"
				  "title: 'The raid: on \"Port Royal\"'\n"
				  "orders:\n"
				  "  - {unit: blood, action: move, to: [3, 4]}\n"
				  "  - unit: \"7\"\n"
				  "    action: shoot\n"
				  "    note: |\n"
				  "      first line\n"
				  "      second line\n"
				  "    flag: yes\n"
				  "    quoted: 'true'\n"
				  "    none:\n"
				  "    empty: ''\n"
				  "standing: {}\n"
				  "list: []\n";
	struct node *a = parse_ok(src);
	char *e1 = emit(a);
	struct node *b = parse_ok(e1);
	ck_assert(tree_equal(a, b));
	/* Strings that look like numbers or bools stay strings; plain ones stay plain. */
	const struct node *o = node_get(b, "orders")->items[1];
	ck_assert_int_eq(node_get(o, "unit")->quoted, 1);
	ck_assert_int_eq(node_get(o, "quoted")->quoted, 1);
	ck_assert_int_eq(node_get(o, "flag")->quoted, 0);
	ck_assert_int_eq(node_get(o, "none")->quoted, 0);
	ck_assert_int_eq(node_get(o, "empty")->quoted, 1);
	ck_assert_int_eq(node_get(b, "turn")->quoted, 0);
	char *e2 = emit(b);
	ck_assert_str_eq(e1, e2);
	free(e1);
	free(e2);
	node_free(a);
	node_free(b);
}
END_TEST

START_TEST(build_and_clone)
{
	struct node *seq = node_new_seq();
	for (int i = 0; i < 100; i++)
		node_seq_add(seq, node_new_int(i));
	struct node *map = node_new_map();
	for (int i = 0; i < 100; i++) {
		char v[16];
		snprintf(v, sizeof(v), "v%d", i);
		node_map_add(map, "k", node_new_str(v));
	}
	ck_assert_uint_eq(seq->n, 100);
	ck_assert_str_eq(seq->items[99]->scalar, "99");
	ck_assert_int_eq(seq->items[99]->line, 0);
	ck_assert_ptr_null(seq->items[99]->file);
	ck_assert_str_eq(node_get(map, "k")->scalar, "v0");
	struct node *c = node_clone(seq);
	ck_assert(tree_equal(c, seq));
	/* The clone is independent and can still grow. */
	node_seq_add(c, node_new_bool(1));
	ck_assert_uint_eq(c->n, 101);
	ck_assert_uint_eq(seq->n, 100);
	struct node *mc = node_clone(map);
	node_map_int(mc, "extra", 5);
	ck_assert_uint_eq(mc->n, 101);
	ck_assert_ptr_null(node_clone(NULL));
	node_free(c);
	node_free(mc);
	node_free(seq);
	node_free(map);
	node_free(NULL);
}
END_TEST

/* --- readers ------------------------------------------------------------------------ */

/* Runs one reader call on the value of key "v" in src and checks the diagnostics. */
struct reader_case {
	struct node *root;
	const struct node *v;
	struct diag d;
};

static void rc_open(struct reader_case *rc, const char *src)
{
	rc->root = parse_ok(src);
	rc->v = node_get(rc->root, "v");
	diag_init(&rc->d);
}

static void rc_close(struct reader_case *rc, const char *expected)
{
	char *got = diag_text(&rc->d);
	ck_assert_str_eq(got, expected);
	free(got);
	diag_release(&rc->d);
	node_free(rc->root);
}

START_TEST(get_and_need)
{
	struct reader_case rc;
	rc_open(&rc, "x: 1\n"
		     "v:\n"
		     "  campaign: c\n");
	ck_assert_ptr_null(node_get(rc.root, "nope"));
	ck_assert_ptr_null(node_get(NULL, "x"));
	ck_assert_ptr_null(node_get(node_get(rc.root, "x"), "x"));
	ck_assert_str_eq(node_need(rc.v, "campaign", &rc.d)->scalar, "c");
	ck_assert_ptr_null(node_need(rc.v, "turn", &rc.d));
	ck_assert_ptr_null(node_need(node_get(rc.root, "x"), "turn", &rc.d));
	ck_assert_ptr_null(node_need(NULL, "turn", &rc.d));
	rc_close(&rc, "<input>:1:1: error: missing key 'turn' (a value for 'turn' expected)\n"
		      "t.yaml:1:4: error: expected a mapping with key 'turn', found '1'\n"
		      "t.yaml:3:3: error: missing key 'turn' (a value for 'turn' expected)\n");
}
END_TEST

START_TEST(check_map)
{
	static const char *const allowed[] = { "a", "b", "c", NULL };
	static const char *const none[] = { NULL };
	struct reader_case rc;
	rc_open(&rc, "v:\n"
		     "  a: 1\n"
		     "  foo: 2\n"
		     "  c: 3\n"
		     "  bar: 4\n"
		     "s: [1]\n"
		     "e:\n"
		     "n: x\n");
	ck_assert_int_eq(node_check_map(rc.v, "order", allowed, &rc.d), -1);
	ck_assert_int_eq(node_check_map(rc.v, "order", none, &rc.d), -1);
	ck_assert_int_eq(node_check_map(node_get(rc.root, "s"), "standing", allowed, &rc.d), -1);
	ck_assert_int_eq(node_check_map(node_get(rc.root, "e"), "standing", allowed, &rc.d), -1);
	ck_assert_int_eq(node_check_map(node_get(rc.root, "n"), "standing", allowed, &rc.d), -1);
	ck_assert_int_eq(node_check_map(NULL, "standing", allowed, &rc.d), -1);
	ck_assert_int_eq(node_check_map(rc.root, "file",
				 (const char *const[]){ "v", "s", "e", "n", NULL }, &rc.d),
		0);
	rc_close(&rc, "<input>:1:1: error: missing standing (a mapping expected)\n"
		      "t.yaml:2:3: error: unknown key 'a' in order (no keys expected)\n"
		      "t.yaml:3:3: error: unknown key 'foo' in order (expected one of: a, b, c)\n"
		      "t.yaml:3:3: error: unknown key 'foo' in order (no keys expected)\n"
		      "t.yaml:4:3: error: unknown key 'c' in order (no keys expected)\n"
		      "t.yaml:5:3: error: unknown key 'bar' in order (expected one of: a, b, c)\n"
		      "t.yaml:5:3: error: unknown key 'bar' in order (no keys expected)\n"
		      "t.yaml:6:4: error: expected a mapping for standing, found a sequence\n"
		      "t.yaml:7:3: error: expected a mapping for standing, found an empty value\n"
		      "t.yaml:8:4: error: expected a mapping for standing, found 'x'\n");
}
END_TEST

START_TEST(check_seq)
{
	struct reader_case rc;
	rc_open(&rc, "v: [1, 2, 3]\nm: {a: 1}\n");
	ck_assert_int_eq(node_check_seq(rc.v, "orders", 3, &rc.d), 0);
	ck_assert_int_eq(node_check_seq(rc.v, "orders", 0, &rc.d), 0);
	ck_assert_int_eq(node_check_seq(rc.v, "orders", 2, &rc.d), -1);
	ck_assert_int_eq(node_check_seq(node_get(rc.root, "m"), "orders", 2, &rc.d), -1);
	rc_close(&rc, "t.yaml:1:4: error: too many items in orders: 3 (at most 2 expected)\n"
		      "t.yaml:2:4: error: expected a sequence for orders, found a mapping\n");
}
END_TEST

START_TEST(want_int)
{
	struct reader_case rc;
	long long v = 0;
	rc_open(&rc, "v: 42\n"
		     "neg: -17\n"
		     "zero: 0\n"
		     "max: 9223372036854775807\n"
		     "min: -9223372036854775808\n"
		     "abc: abc\n"
		     "plus: +1\n"
		     "lead: 01\n"
		     "negzero: -0\n"
		     "quoted: \"3\"\n"
		     "over: 9223372036854775808\n"
		     "under: -9223372036854775809\n"
		     "float: 1.0\n"
		     "hex: 0x10\n"
		     "big: 10000\n"
		     "seq: [1]\n"
		     "empty:\n"
		     "long: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n"
		     "ctl: \"\\e\"\n");
	const struct node *r = rc.root;
	ck_assert_int_eq(node_want_int(rc.v, "turn", 1, 9999, &v, &rc.d), 0);
	ck_assert_int_eq(v, 42);
	ck_assert_int_eq(node_want_int(node_get(r, "neg"), "drm", -20, 20, &v, &rc.d), 0);
	ck_assert_int_eq(v, -17);
	ck_assert_int_eq(node_want_int(node_get(r, "zero"), "x", 0, 0, &v, &rc.d), 0);
	ck_assert_int_eq(v, 0);
	ck_assert_int_eq(node_want_int(node_get(r, "max"), "x", LLONG_MIN, LLONG_MAX, &v, &rc.d),
		0);
	ck_assert(v == LLONG_MAX);
	ck_assert_int_eq(node_want_int(node_get(r, "min"), "x", LLONG_MIN, LLONG_MAX, &v, &rc.d),
		0);
	ck_assert(v == LLONG_MIN);
	ck_assert_uint_eq(diag_count(&rc.d), 0);

	v = 99;
	static const char *const bad[] = { "abc", "plus", "lead", "negzero", "quoted", "over",
		"under", "float", "hex", "big", "seq", "empty", "long", "ctl", NULL };
	for (size_t i = 0; bad[i]; i++)
		ck_assert_int_eq(node_want_int(node_get(r, bad[i]), "turn", 1, 9999, &v, &rc.d),
			-1);
	ck_assert_int_eq(v, 99);
	ck_assert_int_eq(node_want_int(node_get(r, "neg"), "drm", 0, LLONG_MAX, &v, &rc.d), -1);
	ck_assert_int_eq(node_want_int(node_get(r, "big"), "drm", LLONG_MIN, 9, &v, &rc.d), -1);
	ck_assert_int_eq(node_want_int(node_get(r, "big"), "drm", LLONG_MIN, LLONG_MAX, &v, &rc.d),
		0);
	ck_assert_int_eq(node_want_int(node_get(r, "big"), "side", 6, 6, &v, &rc.d), -1);
	ck_assert_int_eq(node_want_int(NULL, "turn", 1, 9999, &v, &rc.d), -1);
	rc_close(&rc,
		"<input>:1:1: error: turn is missing (an integer from 1 to 9999 expected)\n"
		"t.yaml:2:6: error: drm is '-17' (an integer of at least 0 expected)\n"
		"t.yaml:6:6: error: turn is 'abc' (an integer from 1 to 9999 expected)\n"
		"t.yaml:7:7: error: turn is '+1' (an integer from 1 to 9999 expected)\n"
		"t.yaml:8:7: error: turn is '01' (an integer from 1 to 9999 expected)\n"
		"t.yaml:9:10: error: turn is '-0' (an integer from 1 to 9999 expected)\n"
		"t.yaml:10:9: error: turn is the quoted string '3' (an integer from 1 to 9999 "
		"expected)\n"
		"t.yaml:11:7: error: turn is '9223372036854775808' (an integer from 1 to 9999 "
		"expected)\n"
		"t.yaml:12:8: error: turn is '-9223372036854775809' (an integer from 1 to 9999 "
		"expected)\n"
		"t.yaml:13:8: error: turn is '1.0' (an integer from 1 to 9999 expected)\n"
		"t.yaml:14:6: error: turn is '0x10' (an integer from 1 to 9999 expected)\n"
		"t.yaml:15:6: error: turn is '10000' (an integer from 1 to 9999 expected)\n"
		"t.yaml:15:6: error: drm is '10000' (an integer of at most 9 expected)\n"
		"t.yaml:15:6: error: side is '10000' (the integer 6 expected)\n"
		"t.yaml:16:6: error: turn is a sequence (an integer from 1 to 9999 expected)\n"
		"t.yaml:17:7: error: turn is empty (an integer from 1 to 9999 expected)\n"
		"t.yaml:18:7: error: turn is 'aaaaaaaaaaaaaaaaaaaa...' (an "
		"integer from 1 to 9999 expected)\n"
		"t.yaml:19:6: error: turn is the quoted string '\\x1b' (an integer from 1 to 9999 "
		"expected)\n");
}
END_TEST

START_TEST(want_str_and_id)
{
	struct reader_case rc;
	const char *s = NULL;
	rc_open(&rc, "v: Captain Blood\n"
		     "id: blood_1.a-b\n"
		     "num: 12\n"
		     "q: ''\n"
		     "sp: a b\n"
		     "map: {a: 1}\n"
		     "empty:\n"
		     "long: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n"
		     "longer: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n");
	const struct node *r = rc.root;
	ck_assert_int_eq(node_want_str(rc.v, "name", 0, &s, &rc.d), 0);
	ck_assert_str_eq(s, "Captain Blood");
	ck_assert_int_eq(node_want_str(rc.v, "name", 13, &s, &rc.d), 0);
	ck_assert_int_eq(node_want_str(node_get(r, "num"), "name", 0, &s, &rc.d), 0);
	ck_assert_str_eq(s, "12");
	ck_assert_int_eq(node_want_str(node_get(r, "q"), "name", 0, &s, &rc.d), 0);
	ck_assert_str_eq(s, "");
	ck_assert_int_eq(node_want_id(node_get(r, "id"), "unit", &s, &rc.d), 0);
	ck_assert_str_eq(s, "blood_1.a-b");
	ck_assert_int_eq(node_want_id(node_get(r, "num"), "unit", &s, &rc.d), 0);
	ck_assert_int_eq(node_want_id(node_get(r, "long"), "unit", &s, &rc.d), 0);
	ck_assert_uint_eq(strlen(s), 64);
	ck_assert_uint_eq(diag_count(&rc.d), 0);

	s = NULL;
	ck_assert_int_eq(node_want_str(rc.v, "name", 12, &s, &rc.d), -1);
	ck_assert_int_eq(node_want_str(node_get(r, "map"), "name", 0, &s, &rc.d), -1);
	ck_assert_int_eq(node_want_str(node_get(r, "empty"), "name", 20, &s, &rc.d), -1);
	ck_assert_int_eq(node_want_id(node_get(r, "sp"), "unit", &s, &rc.d), -1);
	ck_assert_int_eq(node_want_id(node_get(r, "q"), "unit", &s, &rc.d), -1);
	ck_assert_int_eq(node_want_id(node_get(r, "longer"), "unit", &s, &rc.d), -1);
	ck_assert_int_eq(node_want_id(node_get(r, "map"), "unit", &s, &rc.d), -1);
	ck_assert_ptr_null(s);
	rc_close(&rc,
		"t.yaml:1:4: error: name is 13 bytes long (at most 12 expected)\n"
		"t.yaml:4:4: error: unit is the quoted string '' (an identifier of 1 to 64 "
		"letters, digits, '_', '.' or '-' expected)\n"
		"t.yaml:5:5: error: unit is 'a b' (an identifier of 1 to 64 letters, digits, '_', "
		"'.' or '-' expected)\n"
		"t.yaml:6:6: error: name is a mapping (a string expected)\n"
		"t.yaml:6:6: error: unit is a mapping (an identifier of 1 to 64 letters, digits, "
		"'_', '.' or '-' expected)\n"
		"t.yaml:7:7: error: name is empty (a string of at most 20 bytes expected)\n"
		"t.yaml:9:9: error: unit is 'aaaaaaaaaaaaaaaaaaaa...' (an "
		"identifier of 1 to 64 letters, digits, '_', '.' or '-' expected)\n");
}
END_TEST

/* Player ids (docs/formats.md, "Player ids"): both sides of the first-character rule and of
 * the length limit. */
START_TEST(player_ids)
{
	static const char *const good[] = { "a", "Z", "0", "attacker", "a.b", "a..b", "a-", "x_y",
		"0123456789012345678901234567890123456789012345678901234567890123", NULL };
	static const char *const bad[] = { "", ".", "..", ".git", "-x", "_x", "a/b", "a b", "é",
		"01234567890123456789012345678901234567890123456789012345678901234", NULL };
	for (size_t i = 0; good[i]; i++)
		ck_assert_msg(node_is_player_id(good[i]), "'%s' refused", good[i]);
	for (size_t i = 0; bad[i]; i++)
		ck_assert_msg(!node_is_player_id(bad[i]), "'%s' accepted", bad[i]);

	struct reader_case rc;
	const char *s = NULL;
	rc_open(&rc, "v: attacker\nd: ..\n");
	ck_assert_int_eq(node_want_player_id(rc.v, "player", &s, &rc.d), 0);
	ck_assert_str_eq(s, "attacker");
	ck_assert_int_eq(node_want_player_id(node_get(rc.root, "d"), "player", &s, &rc.d), -1);
	rc_close(&rc, "t.yaml:2:4: error: player is '..' (a player id: 1 to 64 letters, digits, "
		      "'_', '.' or '-', starting with a letter or a digit expected)\n");
}
END_TEST

START_TEST(want_bool)
{
	struct reader_case rc;
	int b = -1;
	rc_open(&rc, "v: true\nf: false\nyes: yes\nq: \"true\"\nT: True\n");
	const struct node *r = rc.root;
	ck_assert_int_eq(node_want_bool(rc.v, "hidden", &b, &rc.d), 0);
	ck_assert_int_eq(b, 1);
	ck_assert_int_eq(node_want_bool(node_get(r, "f"), "hidden", &b, &rc.d), 0);
	ck_assert_int_eq(b, 0);
	b = -1;
	ck_assert_int_eq(node_want_bool(node_get(r, "yes"), "hidden", &b, &rc.d), -1);
	ck_assert_int_eq(node_want_bool(node_get(r, "q"), "hidden", &b, &rc.d), -1);
	ck_assert_int_eq(node_want_bool(node_get(r, "T"), "hidden", &b, &rc.d), -1);
	ck_assert_int_eq(b, -1);
	rc_close(&rc, "t.yaml:3:6: error: hidden is 'yes' (true or false expected)\n"
		      "t.yaml:4:4: error: hidden is the quoted string 'true' (true or false "
		      "expected)\n"
		      "t.yaml:5:4: error: hidden is 'True' (true or false expected)\n");
}
END_TEST

START_TEST(want_enum)
{
	static const char *const actions[] = { "move", "shoot", "fight", NULL };
	struct reader_case rc;
	int a = -1;
	rc_open(&rc, "v: shoot\nq: 'fight'\nbad: fly\nseq: [move]\ncase: Move\n");
	const struct node *r = rc.root;
	ck_assert_int_eq(node_want_enum(rc.v, "action", actions, &a, &rc.d), 0);
	ck_assert_int_eq(a, 1);
	ck_assert_int_eq(node_want_enum(node_get(r, "q"), "action", actions, &a, &rc.d), 0);
	ck_assert_int_eq(a, 2);
	a = -1;
	ck_assert_int_eq(node_want_enum(node_get(r, "bad"), "action", actions, &a, &rc.d), -1);
	ck_assert_int_eq(node_want_enum(node_get(r, "seq"), "action", actions, &a, &rc.d), -1);
	ck_assert_int_eq(node_want_enum(node_get(r, "case"), "action", actions, &a, &rc.d), -1);
	ck_assert_int_eq(a, -1);
	rc_close(&rc,
		"t.yaml:3:6: error: unknown action 'fly' (expected one of: move, shoot, fight)\n"
		"t.yaml:4:6: error: action is a sequence (one of: move, shoot, fight expected)\n"
		"t.yaml:5:7: error: unknown action 'Move' (expected one of: move, shoot, fight)\n");
}
END_TEST

START_TEST(error_at_node)
{
	struct reader_case rc;
	rc_open(&rc, "a: 1\nv:\n  - x\n");
	node_error(&rc.d, rc.v->items[0], "unit '%s' is not yours (one of your units expected)",
		rc.v->items[0]->scalar);
	node_error(&rc.d, NULL, "no orders (at least one expected)");
	struct node *built = node_new_str("x");
	node_error(&rc.d, built, "built");
	node_free(built);
	rc_close(&rc, "<input>:1:1: error: no orders (at least one expected)\n"
		      "<input>:1:1: error: built\n"
		      "t.yaml:3:5: error: unit 'x' is not yours (one of your units expected)\n");
}
END_TEST

/* node_emit_entry writes an entry exactly as node_emit writes it in a whole document: in the
 * document's mapping, as the first and as a later key of a sequence item's mapping, for
 * plain, quoted, escaped, non-ASCII, invalid and over-wide strings, and integers and bools. */
static const struct {
	const char *s;
	int quoted;
} entries[] = {
	{ "", 1 },
	{ "plain", 1 },
	{ "two words", 1 },
	{ "yes", 1 },
	{ "No", 1 },
	{ "0000", 1 },
	{ "0x1F", 1 },
	{ "1e5", 1 },
	{ "-", 1 },
	{ "- x", 1 },
	{ "a: b", 1 },
	{ "#x", 1 },
	{ "x #y", 1 },
	{ "quote\"d", 1 },
	{ "back\\slash", 1 },
	{ " lead", 1 },
	{ "trail ", 1 },
	{ "tab\there", 1 },
	{ "line\nbreak", 1 },
	{ "\xc3\xa9t\xc3\xa9", 1 },
	{ "\xe2\x80\xae bidi", 1 },
	{ "\xe6\x97\xa5\xe6\x9c\xac", 1 },
	{ "[x]", 1 },
	{ "{x}", 1 },
	{ "*x", 1 },
	{ "&x", 1 },
	{ "!x", 1 },
	{ "%x", 1 },
	{ "@x", 1 },
	{ "`x", 1 },
	{ "'x'", 1 },
	{ "~", 1 },
	{ "null", 1 },
	{ "-5", 1 },
	{ "12", 1 },
	{ ":", 1 },
	{ "?", 1 },
	{ ",", 1 },
	{ "a,b", 1 },
	{ "umpire ruling 1: bench ruling 1 (100d6) [1/100]", 1 },
	{ "0", 0 },
	{ "-12", 0 },
	{ "true", 0 },
	{ "false", 0 },
	{ "9223372036854775807", 0 },
};

START_TEST(emit_entry_as_in_document)
{
	const char *s = entries[_i].s;
	int q = entries[_i].quoted;
	for (int form = 0; form < 3; form++) {
		struct node *doc = node_new_map(), *m = doc;
		struct buf want = BUF_INIT, got = BUF_INIT;
		struct node *v = node_new_str(s);
		v->quoted = q; /* not quoted: a number or a bool as node_map_int, node_map_bool */
		if (form > 0) {
			struct node *seq = node_map_add(doc, "list", node_new_seq());
			m = node_seq_add(seq, node_new_map());
			buf_puts(&got, "list:\n");
		}
		if (form != 1) {
			node_map_int(m, "k0", 1);
			ck_assert_int_eq(node_emit_entry(&got, form > 0, 1, "k0", "1", 0), 0);
		}
		node_map_add(m, "key", v);
		ck_assert_int_eq(node_emit_entry(&got, form > 0, form == 1, "key", s, q), 0);
		ck_assert_int_eq(node_emit(doc, &want), 0);
		ck_assert_str_eq(buf_str(&got), buf_str(&want));
		node_free(doc);
		buf_release(&want);
		buf_release(&got);
	}
}
END_TEST

/* a and b alike as node_parse gives them: kinds, sizes, texts and quoted flags. */
static int same_as_read(const struct node *a, const struct node *b)
{
	if (a->kind != b->kind || a->n != b->n)
		return 0;
	if (a->kind == NODE_SCALAR)
		return a->quoted == b->quoted && strcmp(a->scalar, b->scalar) == 0;
	for (size_t i = 0; i < a->n; i++)
		if ((a->keys && !same_as_read(a->keys[i], b->keys[i])) ||
			!same_as_read(a->items[i], b->items[i]))
			return 0;
	return 1;
}

/* node_as_read on a tree node_emit_how wrote without libyaml gives the tree node_parse reads
 * from its bytes, quoted flags included (each scalar of the table as a value, in a sequence
 * and in a mapping in one); what libyaml writes is left to parsing. */
START_TEST(as_read_is_what_parse_reads)
{
	const char *s = entries[_i].s;
	struct node *doc = node_new_map(), *root = NULL;
	struct buf text = BUF_INIT;
	struct diag d;
	int fast = -1;

	diag_init(&d);
	node_map_int(doc, "k0", 1);
	node_map_add(doc, "key", node_new_str(s))->quoted = (unsigned char)entries[_i].quoted;
	struct node *seq = node_map_add(doc, "list", node_new_seq());
	node_seq_add(seq, node_new_str(s))->quoted = (unsigned char)entries[_i].quoted;
	node_map_str(node_seq_add(seq, node_new_map()), "in", s);
	node_map_add(doc, "none", node_new_seq());
	node_map_add(doc, "empty", node_new_map());
	buf_puts(&text, "# a comment first, as a state has\n");
	ck_assert_int_eq(node_emit_how(doc, &text, &fast), 0);
	ck_assert_int_eq(node_parse(&root, "t", text.data, text.len, NULL, &d), 0);
	if (fast) {
		ck_assert_int_eq(node_as_read(doc, text.len, NULL), 0);
		ck_assert_msg(same_as_read(doc, root), "'%s' reads otherwise:\n%s", s,
			buf_str(&text));
	}
	node_free(root);
	node_free(doc);
	buf_release(&text);
	diag_release(&d);
}
END_TEST

/* The scalars and keys of random_doc: pieces YAML reads specially (indicators, spaces at
 * either end, words that resolve to bools or nulls, numbers, escapes, UTF-8 breaks, marks and
 * no-break spaces, a tab), joined at random. */
static const char *const pieces[] = { "a", "Z", "0", "7", "_", "-", ".", "/", " ", "  ", ":", ": ",
	"#", " #", "?", "!", "&", "*", "|", ">", "'", "\"", "\\", "%", "@", "`", ",", "[", "]", "{",
	"}", "~", "yes", "No", "true", "null", "0x1F", "1e3", "1:30", ".inf", "+", "e", "\t",
	"\xc3\xa9", "\xe2\x80\x94", "\xe2\x80\xa8", "\xef\xbb\xbf", "\xc2\xa0", "\xc2\x85" };

/* xorshift64: the same documents on every run. */
static uint64_t next_random(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* A scalar: one time in five unquoted (an integer or a bool, as the rules write them, or now
 * and then random pieces), else quoted, of up to four random pieces. */
static struct node *random_scalar(uint64_t *x)
{
	static const long long ints[] = { 0, -12, 345 };
	char text[64] = "";
	int unquoted = next_random(x) % 5 == 0;

	if (unquoted && next_random(x) % 8 != 0) {
		uint64_t k = next_random(x) % 5;
		return k < 3 ? node_new_int(ints[k]) : node_new_bool(k == 3);
	}
	for (size_t i = 0, parts = next_random(x) % 5; i < parts; i++) {
		const char *p = pieces[next_random(x) % (sizeof pieces / sizeof *pieces)];
		if (strlen(text) + strlen(p) < sizeof text)
			strcat(text, p);
	}
	struct node *n = node_new_str(text);
	n->quoted = (unsigned char)!unquoted;
	return n;
}

/* A key: three times in four a plain name (of few letters, so that some repeat), else random
 * pieces. */
static char *random_key(uint64_t *x)
{
	if (next_random(x) % 4 != 0)
		return xasprintf("k%c", (char)('a' + next_random(x) % 12));
	struct node *k = random_scalar(x);
	char *s = xstrdup(k->scalar);
	node_free(k);
	return s;
}

/* A mapping (a sequence at depth > 0 one time in three) of up to 5 items: scalars, or below
 * depth 2 collections of their own. */
static struct node *random_doc(uint64_t *x, int depth)
{
	int seq = depth > 0 && next_random(x) % 3 == 0;
	struct node *n = seq ? node_new_seq() : node_new_map();
	size_t items = next_random(x) % 6;

	for (size_t i = 0; i < items; i++) {
		struct node *v = depth < 2 && next_random(x) % 4 == 0 ? random_doc(x, depth + 1) :
									random_scalar(x);
		if (seq) {
			node_seq_add(n, v);
		} else {
			char *k = random_key(x);
			node_map_add(n, k, v);
			free(k);
		}
	}
	return n;
}

/* The same on 50,000 random documents: whenever node_emit_how writes one without libyaml,
 * node_as_read gives what node_parse reads from the bytes (or both refuse them). */
START_TEST(as_read_is_what_parse_reads_random)
{
	uint64_t x = 0x9e3779b97f4a7c15u;
	int fast_seen = 0, refused = 0;

	for (int i = 0; i < 50000; i++) {
		struct node *doc = random_doc(&x, 0), *root = NULL;
		struct buf text = BUF_INIT;
		struct diag d;
		int fast = -1;
		diag_init(&d);
		if (node_emit_how(doc, &text, &fast) == 0 && fast) {
			fast_seen++;
			int parsed = node_parse(&root, "t", text.data, text.len, NULL, &d);
			int as_read = node_as_read(doc, text.len, NULL);
			ck_assert_msg(parsed == as_read, "document %d: parse %d, as read %d:\n%s",
				i, parsed, as_read, buf_str(&text));
			refused += parsed < 0;
			ck_assert_msg(parsed < 0 || same_as_read(doc, root),
				"document %d reads otherwise:\n%s", i, buf_str(&text));
		}
		node_free(root);
		node_free(doc);
		buf_release(&text);
		diag_release(&d);
	}
	/* the pieces reach both paths: most documents fast, some refused (a key twice) */
	ck_assert_int_gt(fast_seen, 5000);
	ck_assert_int_gt(refused, 10);
}
END_TEST

/* node_as_read refuses (-1) whatever node_parse would refuse in the bytes: a key twice, too
 * many nodes, too deep, a value too long, too many bytes, each one past its limit. */
START_TEST(as_read_refuses_what_parse_refuses)
{
	/* k: 0 a key twice, 1 too many nodes, 2 too deep, 3 a value too long, 4 too many bytes;
	 * 5 nothing past a limit (both take it, alike). */
	for (int k = 0; k < 6; k++) {
		struct node *doc = node_new_map(), *root = NULL;
		struct node_limits lim = { 0 };
		struct buf text = BUF_INIT;
		struct diag d;
		int fast = 0;
		diag_init(&d);
		for (int i = 0; i < 10; i++) {
			char key[16];
			snprintf(key, sizeof key, "k%d", i);
			node_map_str(doc, key, "value");
		}
		node_map_add(node_map_add(doc, "d", node_new_map()), "dd", node_new_seq());
		if (k == 0)
			node_map_str(doc, "k3", "again");
		/* 1 + 10 pairs + "d", its mapping, "dd" and the sequence: 25 (27 with k3 again) */
		lim.max_nodes = k == 1 ? 24 : k == 0 ? 27 : 25;
		lim.max_depth = k == 2 ? 2 : 3;
		lim.max_scalar = k == 3 ? 4 : 5;
		ck_assert_int_eq(node_emit_how(doc, &text, &fast), 0);
		ck_assert_int_eq(fast, 1);
		lim.max_bytes = k == 4 ? text.len - 1 : text.len;
		int want = k == 5 ? 0 : -1;
		ck_assert_int_eq(node_parse(&root, "t", text.data, text.len, &lim, &d), want);
		ck_assert_int_eq(node_as_read(doc, text.len, &lim), want);
		if (root)
			ck_assert(same_as_read(doc, root));
		node_free(root);
		node_free(doc);
		buf_release(&text);
		diag_release(&d);
	}
}
END_TEST

START_TEST(emit_entry_wide_and_invalid)
{
	struct buf wide = BUF_INIT, want = BUF_INIT, got = BUF_INIT;
	for (int i = 0; i < 3000; i++)
		buf_puts(&wide, "a ");
	buf_puts(&wide, "end");
	struct node *doc = node_new_map();
	node_map_str(doc, "key", buf_str(&wide));
	ck_assert_int_eq(node_emit(doc, &want), 0);
	ck_assert_int_eq(node_emit_entry(&got, 0, 0, "key", buf_str(&wide), 1), 0);
	ck_assert_str_eq(buf_str(&got), buf_str(&want));
	node_free(doc);
	buf_clear(&got);
	buf_puts(&got, "kept\n");
	ck_assert_int_eq(node_emit_entry(&got, 0, 0, "key", "bad \xff byte", 1), -1);
	ck_assert_str_eq(buf_str(&got), "kept\n");
	buf_release(&wide);
	buf_release(&want);
	buf_release(&got);
}
END_TEST

static Suite *node_suite(void)
{
	Suite *s = suite_create("node");
	TCase *tc = tcase_create("parse");
	tcase_add_test(tc, parse_positions);
	tcase_add_test(tc, parse_file_name_owned_by_root);
	tcase_add_test(tc, parse_not_nul_terminated);
	tcase_add_test(tc, parse_scalar_styles);
	tcase_add_test(tc, parse_utf8_bom_and_explicit_start);
	suite_add_tcase(s, tc);

	tc = tcase_create("reject");
	tcase_add_test(tc, reject_empty);
	tcase_add_test(tc, reject_second_document);
	tcase_add_test(tc, reject_anchor_alias_tag_all_at_once);
	tcase_add_test(tc, reject_non_scalar_keys);
	tcase_add_test(tc, reject_duplicate_keys);
	tcase_add_test(tc, reject_depth);
	tcase_add_test(tc, reject_node_count);
	tcase_add_test(tc, reject_long_scalar);
	tcase_add_test(tc, reject_too_many_bytes);
	tcase_add_test(tc, reject_bad_bytes);
	tcase_add_test(tc, reject_syntax);
	tcase_add_test(tc, reject_directives);
	tcase_add_test(tc, reject_keeps_going_after_semantic_errors);
	tcase_add_test(tc, source_shown_for_parse_errors);
	tcase_add_test(tc, source_not_kept_for_oversized_files);
	tcase_add_test(tc, source_shown_for_errors_at_nodes);
	suite_add_tcase(s, tc);

	tc = tcase_create("emit");
	tcase_add_test(tc, emit_golden);
	tcase_add_test(tc, emit_direct_as_libyaml);
	tcase_add_test(tc, emit_utf8_as_libyaml);
	tcase_add_test(tc, emit_escapes_as_libyaml);
	tcase_add_test(tc, emit_appends);
	tcase_add_test(tc, emit_root_scalar);
	tcase_add_test(tc, emit_invalid_utf8_fails);
	tcase_add_loop_test(tc, emit_quoting, 0, (int)(sizeof(quoting) / sizeof(quoting[0])));
	tcase_add_test(tc, emit_round_trip);
	tcase_add_test(tc, build_and_clone);
	tcase_add_loop_test(tc, emit_entry_as_in_document, 0,
		(int)(sizeof(entries) / sizeof(entries[0])));
	tcase_add_loop_test(tc, as_read_is_what_parse_reads, 0,
		(int)(sizeof(entries) / sizeof(entries[0])));
	tcase_add_test(tc, as_read_refuses_what_parse_refuses);
	tcase_add_test(tc, as_read_is_what_parse_reads_random);
	tcase_add_test(tc, emit_entry_wide_and_invalid);
	suite_add_tcase(s, tc);

	tc = tcase_create("read");
	tcase_add_test(tc, get_and_need);
	tcase_add_test(tc, check_map);
	tcase_add_test(tc, check_seq);
	tcase_add_test(tc, want_int);
	tcase_add_test(tc, want_str_and_id);
	tcase_add_test(tc, player_ids);
	tcase_add_test(tc, want_bool);
	tcase_add_test(tc, want_enum);
	tcase_add_test(tc, error_at_node);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(node_suite)
