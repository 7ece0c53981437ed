/* check_limits.c — the YAML reader's default limits (node.h: 64 KiB, depth 16, 20 000 nodes,
 * 4 096-byte scalars) and the integer rule of node_want_int, each at its exact edge from both
 * sides, and clock_now's reading of SOURCE_DATE_EPOCH. The end-to-end side of the same limits,
 * through the umpire binary, is tests/e2e/t_limits.sh. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/node.h"
#include "core/clock.h"
#include "testutil.h"

enum {
	MAX_BYTES = 64 * 1024, /* node.h: max_bytes 0 = 64 KiB */
	MAX_DEPTH = 16,        /* max_depth 0 = 16 */
	MAX_NODES = 20000,     /* max_nodes 0 = 20000 */
	MAX_SCALAR = 4096,     /* max_scalar 0 = 4096 */
};

/* Parses b with the default limits (NULL, and an all-zero struct, which must mean the same);
 * returns the diagnostics printed ("" when it parsed). Caller frees. */
static char *parse_defaults(const struct buf *b)
{
	static const struct node_limits zero = { 0, 0, 0, 0 };
	const struct node_limits *lims[] = { NULL, &zero };
	char *first = NULL;
	for (size_t i = 0; i < 2; i++) {
		struct diag d;
		struct node *n = NULL;
		char *text = NULL;
		diag_init(&d);
		int rc = node_parse(&n, "t.yaml", b->data, b->len, lims[i], &d);
		ck_assert_int_eq(rc == 0, diag_count(&d) == 0);
		ck_assert_int_eq(rc == 0, n != NULL);
		/* The one-line form: the limits, not the caret layout, are under test. */
		struct buf one = BUF_INIT;
		diag_format(&d, &one, DIAG_BRIEF);
		text = buf_detach(&one);
		if (!text)
			text = xstrdup("");
		diag_release(&d);
		node_free(n);
		if (!first) {
			first = text;
		} else {
			ck_assert_str_eq(text, first);
			free(text);
		}
	}
	return first;
}

#define ck_parses(b) \
	do { \
		char *got_ = parse_defaults(b); \
		ck_assert_str_eq(got_, ""); \
		free(got_); \
	} while (0)
#define ck_refused(b, expected) \
	do { \
		char *got_ = parse_defaults(b); \
		ck_assert_str_eq(got_, (expected)); \
		free(got_); \
	} while (0)

static void put_n(struct buf *b, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		buf_puts(b, s);
}

/* "a: 1\n" then a comment line, len bytes in all. */
static void doc_of_size(struct buf *b, const char *prefix, size_t len)
{
	buf_puts(b, prefix);
	buf_puts(b, "a: 1\n#");
	ck_assert_uint_ge(len, b->len + 1);
	put_n(b, "x", len - b->len - 1);
	buf_puts(b, "\n");
	ck_assert_uint_eq(b->len, len);
}

START_TEST(bytes_at_limit_accepted)
{
	struct buf b = BUF_INIT;
	doc_of_size(&b, "", MAX_BYTES);
	ck_parses(&b);
	buf_release(&b);
	/* The limit counts the bytes received: a byte order mark is one of them. */
	doc_of_size(&b, "\xef\xbb\xbf", MAX_BYTES);
	ck_parses(&b);
	buf_release(&b);
}
END_TEST

START_TEST(bytes_one_over_refused)
{
	struct buf b = BUF_INIT;
	doc_of_size(&b, "", MAX_BYTES + 1);
	ck_refused(&b, "t.yaml:1:1: error: file is 65537 bytes (at most 65536 expected)\n");
	buf_release(&b);
	doc_of_size(&b, "\xef\xbb\xbf", MAX_BYTES + 1);
	ck_refused(&b, "t.yaml:1:1: error: file is 65537 bytes (at most 65536 expected)\n");
	buf_release(&b);
}
END_TEST

/* depth collections: flow sequences, or block maps k1: k2: … */
static void nested_seqs(struct buf *b, size_t depth)
{
	put_n(b, "[", depth);
	buf_puts(b, "1");
	put_n(b, "]", depth);
	buf_puts(b, "\n");
}

static void nested_maps(struct buf *b, size_t depth)
{
	for (size_t i = 0; i < depth; i++) {
		put_n(b, " ", i);
		buf_printf(b, "k%zu:%s\n", i, i + 1 == depth ? " 1" : "");
	}
}

START_TEST(depth_at_limit_accepted)
{
	struct buf b = BUF_INIT;
	nested_seqs(&b, MAX_DEPTH);
	ck_parses(&b);
	buf_release(&b);
	nested_maps(&b, MAX_DEPTH);
	ck_parses(&b);
	buf_release(&b);
}
END_TEST

START_TEST(depth_one_over_refused)
{
	struct buf b = BUF_INIT;
	nested_seqs(&b, MAX_DEPTH + 1);
	ck_refused(&b,
		"t.yaml:1:17: error: collections nested 17 deep (at most 16 levels expected)\n");
	buf_release(&b);
	nested_maps(&b, MAX_DEPTH + 1);
	ck_refused(&b, "t.yaml:17:17: error: collections nested 17 deep (at most 16 levels "
		       "expected)\n");
	buf_release(&b);
}
END_TEST

/* One sequence of n - 1 scalars: n nodes. */
static void n_nodes(struct buf *b, size_t n)
{
	buf_puts(b, "[");
	for (size_t i = 1; i < n; i++)
		buf_puts(b, i + 1 < n ? "1," : "1");
	buf_puts(b, "]\n");
}

/* Keys are nodes too: a map of 100 pairs (201 nodes with the map) and a key z whose
 * sequence holds the rest, n nodes in all. */
static void keys_and_items(struct buf *b, size_t n)
{
	for (int i = 0; i < 100; i++)
		buf_printf(b, "k%d: 1\n", i);
	buf_puts(b, "z: ");
	n_nodes(b, n - 202);
}

START_TEST(nodes_at_limit_accepted)
{
	struct buf b = BUF_INIT;
	n_nodes(&b, MAX_NODES);
	ck_parses(&b);
	buf_release(&b);
	keys_and_items(&b, MAX_NODES);
	ck_parses(&b);
	buf_release(&b);
}
END_TEST

START_TEST(nodes_one_over_refused)
{
	struct buf b = BUF_INIT;
	n_nodes(&b, MAX_NODES + 1);
	ck_refused(&b, "t.yaml:1:40000: error: too many nodes: more than 20000 (at most 20000 "
		       "expected)\n");
	buf_release(&b);
	keys_and_items(&b, MAX_NODES + 1);
	ck_refused(&b, "t.yaml:101:39599: error: too many nodes: more than 20000 (at most 20000 "
		       "expected)\n");
	buf_release(&b);
}
END_TEST

START_TEST(scalar_at_limit_accepted)
{
	struct buf b = BUF_INIT;
	/* As a value, as a key, and counted after escapes: "\t" is one byte. */
	buf_puts(&b, "v: ");
	put_n(&b, "a", MAX_SCALAR);
	buf_puts(&b, "\n");
	buf_puts(&b, "? "); /* libyaml allows 1024 characters in an implicit key */
	put_n(&b, "k", MAX_SCALAR);
	buf_puts(&b, "\n: 1\nq: \"");
	put_n(&b, "\\t", MAX_SCALAR);
	buf_puts(&b, "\"\n");
	ck_parses(&b);
	buf_release(&b);
}
END_TEST

START_TEST(scalar_one_over_refused)
{
	struct buf b = BUF_INIT;
	buf_puts(&b, "v: ");
	put_n(&b, "a", MAX_SCALAR + 1);
	buf_puts(&b, "\n");
	buf_puts(&b, "? ");
	put_n(&b, "k", MAX_SCALAR + 1);
	buf_puts(&b, "\n: 1\nq: \"");
	put_n(&b, "\\t", MAX_SCALAR + 1);
	buf_puts(&b, "\"\n");
	ck_refused(&b, "t.yaml:1:4: error: value is 4097 bytes long (at most 4096 expected)\n"
		       "t.yaml:2:3: error: value is 4097 bytes long (at most 4096 expected)\n"
		       "t.yaml:4:4: error: value is 4097 bytes long (at most 4096 expected)\n");
	buf_release(&b);
}
END_TEST

/* --- node_want_int: "0", or an optional '-' and digits without a leading zero ---------- */

struct int_case {
	const char *text;   /* the plain scalar */
	long long min, max; /* the range asked for */
	int ok;             /* accepted? */
	long long value;    /* then this */
};

static const struct int_case int_cases[] = {
	/* -0 is refused where 0 itself is in range: only the syntax rule stands in its way. */
	{ "0", -5, 5, 1, 0 },
	{ "-0", -5, 5, 0, 0 },
	{ "-0", LLONG_MIN, LLONG_MAX, 0, 0 },
	{ "-0", 0, 0, 0, 0 },
	{ "0", 0, 0, 1, 0 },
	{ "+0", -5, 5, 0, 0 },
	{ "00", -5, 5, 0, 0 },
	{ "-00", -5, 5, 0, 0 },
	/* No '+', no leading zeros, nothing but digits. */
	{ "+1", -5, 5, 0, 0 },
	{ "01", -5, 5, 0, 0 },
	{ "-01", -5, 5, 0, 0 },
	{ "1.0", -5, 5, 0, 0 },
	{ "0x1", -5, 5, 0, 0 },
	{ "1e0", -5, 5, 0, 0 },
	{ "1_0", -100, 100, 0, 0 },
	{ "-a", -5, 5, 0, 0 },
	{ "--1", -5, 5, 0, 0 },
	/* The range's edges, both sides. */
	{ "-5", -5, 5, 1, -5 },
	{ "-6", -5, 5, 0, 0 },
	{ "5", -5, 5, 1, 5 },
	{ "6", -5, 5, 0, 0 },
	{ "10", 10, 10, 1, 10 },
	{ "9", 10, 10, 0, 0 },
	{ "11", 10, 10, 0, 0 },
	{ "1000000", 1, 1000000, 1, 1000000 },
	{ "1000001", 1, 1000000, 0, 0 },
	{ "9223372036854775807", LLONG_MIN, LLONG_MAX, 1, LLONG_MAX },
	{ "9223372036854775808", LLONG_MIN, LLONG_MAX, 0, 0 },
	{ "-9223372036854775808", LLONG_MIN, LLONG_MAX, 1, LLONG_MIN },
	{ "-9223372036854775809", LLONG_MIN, LLONG_MAX, 0, 0 },
	{ "18446744073709551616", LLONG_MIN, LLONG_MAX, 0, 0 },
};

START_TEST(want_int_edges)
{
	const struct int_case *c = &int_cases[_i];
	struct buf src = BUF_INIT;
	struct node *root = NULL;
	struct diag d;
	long long v = 4242;

	buf_printf(&src, "v: %s\n", c->text);
	diag_init(&d);
	ck_assert_int_eq(node_parse(&root, "t.yaml", src.data, src.len, NULL, &d), 0);
	int rc = node_want_int(node_get(root, "v"), "v", c->min, c->max, &v, &d);
	ck_assert_msg(rc == (c->ok ? 0 : -1), "'%s' in [%lld, %lld]: %s expected", c->text, c->min,
		c->max, c->ok ? "accepted" : "refused");
	ck_assert_uint_eq(diag_count(&d), c->ok ? 0 : 1);
	if (c->ok)
		ck_assert(v == c->value);
	else
		ck_assert(v == 4242);
	diag_release(&d);
	node_free(root);
	buf_release(&src);
}
END_TEST

START_TEST(want_int_quoted_refused)
{
	static const char *const srcs[] = { "v: \"0\"\n", "v: '0'\n", "v: |\n  0\n" };
	for (size_t i = 0; i < sizeof(srcs) / sizeof(srcs[0]); i++) {
		struct node *root = NULL;
		struct diag d;
		long long v = 7;
		diag_init(&d);
		ck_assert_int_eq(node_parse(&root, "t.yaml", srcs[i], strlen(srcs[i]), NULL, &d),
			0);
		ck_assert_int_eq(node_want_int(node_get(root, "v"), "v", LLONG_MIN, LLONG_MAX, &v,
					 &d),
			-1);
		ck_assert(v == 7);
		diag_release(&d);
		node_free(root);
	}
}
END_TEST

/* --- clock_now: SOURCE_DATE_EPOCH, a decimal from 0; anything else: the clock ------------ */

START_TEST(source_date_epoch_honoured)
{
	static const struct {
		const char *env;
		long long want;
	} ok[] = {
		{ "0", 0 },
		{ "1", 1 },
		{ "1767225600", 1767225600LL },
		{ "9223372036854775807", LLONG_MAX },
	};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		ck_assert_int_eq(setenv("SOURCE_DATE_EPOCH", ok[i].env, 1), 0);
		ck_assert_msg(clock_now() == ok[i].want, "SOURCE_DATE_EPOCH=%s not honoured",
			ok[i].env);
	}
}
END_TEST

static long long realtime_seconds(void)
{
	struct timespec now;
	ck_assert_int_eq(clock_gettime(CLOCK_REALTIME, &now), 0);
	return (long long)now.tv_sec;
}

START_TEST(source_date_epoch_bogus_is_the_clock)
{
	static const char *const bogus[] = { "-1", "-0x1", "abc", "12abc", "1.5", "",
		"9223372036854775808", "99999999999999999999", NULL };
	for (size_t i = 0; i < sizeof(bogus) / sizeof(bogus[0]); i++) {
		if (bogus[i])
			ck_assert_int_eq(setenv("SOURCE_DATE_EPOCH", bogus[i], 1), 0);
		else
			ck_assert_int_eq(unsetenv("SOURCE_DATE_EPOCH"), 0);
		/* The same clock as clock_now (time() may read a coarser clock that lags it by
		 * a tick), and a second either side for a clock stepped meanwhile: a bogus
		 * value taken as a time (0, -1, LLONG_MAX) is still far outside. */
		long long t0 = realtime_seconds();
		long long got = clock_now();
		long long t1 = realtime_seconds();
		ck_assert_msg(got >= t0 - 1 && got <= t1 + 1,
			"SOURCE_DATE_EPOCH='%s': %lld is not the clock",
			bogus[i] ? bogus[i] : "(unset)", got);
	}
}
END_TEST

static Suite *limits_suite(void)
{
	Suite *s = suite_create("limits");
	TCase *tc = tcase_create("node");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, bytes_at_limit_accepted);
	tcase_add_test(tc, bytes_one_over_refused);
	tcase_add_test(tc, depth_at_limit_accepted);
	tcase_add_test(tc, depth_one_over_refused);
	tcase_add_test(tc, nodes_at_limit_accepted);
	tcase_add_test(tc, nodes_one_over_refused);
	tcase_add_test(tc, scalar_at_limit_accepted);
	tcase_add_test(tc, scalar_one_over_refused);
	suite_add_tcase(s, tc);

	tc = tcase_create("int");
	tcase_add_loop_test(tc, want_int_edges, 0, (int)(sizeof(int_cases) / sizeof(int_cases[0])));
	tcase_add_test(tc, want_int_quoted_refused);
	suite_add_tcase(s, tc);

	tc = tcase_create("time");
	tcase_add_test(tc, source_date_epoch_honoured);
	tcase_add_test(tc, source_date_epoch_bogus_is_the_clock);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(limits_suite)
