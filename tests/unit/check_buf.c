/* check_buf.c — the byte buffer, the x-allocators, hex encoding and the event list. */
#include <limits.h>
#include <string.h>

#include "core/buf.h"
#include "core/events.h"
#include "core/dice.h"
#include "testutil.h"

START_TEST(buf_basics)
{
	struct buf b = BUF_INIT;
	ck_assert_str_eq(buf_str(&b), "");
	buf_puts(&b, "turn ");
	buf_printf(&b, "%d of %s", 3, "12");
	ck_assert_str_eq(buf_str(&b), "turn 3 of 12");
	ck_assert_uint_eq(b.len, 12);
	buf_append(&b, "\0x", 2);
	ck_assert_uint_eq(b.len, 14);
	ck_assert_int_eq(memcmp(b.data, "turn 3 of 12\0x", 15), 0);
	buf_clear(&b);
	ck_assert_uint_eq(b.len, 0);
	ck_assert_str_eq(buf_str(&b), "");
	ck_assert_uint_gt(b.cap, 0);
	/* Growth across many appends keeps every byte. */
	for (int i = 0; i < 1000; i++)
		buf_printf(&b, "%03d", i);
	ck_assert_uint_eq(b.len, 3000);
	ck_assert_int_eq(memcmp(b.data + 2997, "999", 4), 0);
	char *s = buf_detach(&b);
	ck_assert_ptr_null(b.data);
	ck_assert_uint_eq(b.len, 0);
	ck_assert_int_eq(strncmp(s, "000001002", 9), 0);
	free(s);
	s = buf_detach(&b);
	ck_assert_str_eq(s, "");
	free(s);
	buf_puts(&b, "reused");
	ck_assert_str_eq(buf_str(&b), "reused");
	buf_release(&b);
	ck_assert_ptr_null(b.data);
	buf_release(&b);
}
END_TEST

START_TEST(x_allocators)
{
	char *s = xasprintf("%s-%d", "d", 10);
	ck_assert_str_eq(s, "d-10");
	char *t = xstrdup(s);
	ck_assert_str_eq(t, "d-10");
	ck_assert_ptr_ne(s, t);
	int *z = xcalloc(4, sizeof(*z));
	ck_assert_int_eq(z[0] | z[1] | z[2] | z[3], 0);
	z = xrealloc(z, 100 * sizeof(*z));
	ck_assert_int_eq(z[3], 0);
	void *m = xmalloc(0);
	ck_assert_ptr_nonnull(m);
	free(m);
	free(z);
	free(s);
	free(t);
}
END_TEST

START_TEST(hex)
{
	const unsigned char in[] = { 0x00, 0x7f, 0xa5, 0xff };
	unsigned char out[4] = { 1, 1, 1, 1 };
	char text[9];
	hex_encode(text, in, 4);
	ck_assert_str_eq(text, "007fa5ff");
	ck_assert_int_eq(hex_decode(out, 4, "007FA5ff"), 0);
	ck_assert_int_eq(memcmp(out, in, 4), 0);
	hex_encode(text, in, 0);
	ck_assert_str_eq(text, "");
	ck_assert_int_eq(hex_decode(out, 0, ""), 0);

	memset(out, 1, sizeof(out));
	ck_assert_int_eq(hex_decode(out, 4, "007fa5f"), -1);   /* short */
	ck_assert_int_eq(hex_decode(out, 4, "007fa5ff0"), -1); /* long */
	ck_assert_int_eq(hex_decode(out, 4, "007fa5fg"), -1);  /* not hex */
	ck_assert_int_eq(hex_decode(out, 4, " 07fa5ff"), -1);
	ck_assert_int_eq(hex_decode(out, 1, "0x"), -1);
	/* A failed decode leaves out untouched. */
	ck_assert_int_eq(out[0] & out[1] & out[2] & out[3], 1);
}
END_TEST

START_TEST(events)
{
	struct events e;
	struct dice d;
	static const int script[] = { 1, 2, 3 };
	dice_init_script(&d, script, 3);
	events_init(&e);
	e.dice = &d;
	events_add(&e, "movement", "%s moves to %d", "blood", 42);
	dice_roll_many(&d, 3, 6, (int[3]){ 0 }, "test");
	char phase[] = "shooting";
	events_void(&e, phase, "attacker", 2, "target %s is %s", "x", "gone\nnow");
	phase[0] = 'X';
	for (int i = 0; i < 40; i++)
		events_add(&e, "events", "event %d", i);
	ck_assert_uint_eq(e.n, 42);
	ck_assert_int_eq(e.v[0].kind, EVENT_EVENT);
	ck_assert_str_eq(e.v[0].phase, "movement");
	ck_assert_str_eq(e.v[0].text, "blood moves to 42");
	ck_assert_ptr_null(e.v[0].player);
	ck_assert_uint_eq(e.v[0].first_die, 0);
	ck_assert_int_eq(e.v[1].kind, EVENT_VOID);
	ck_assert_str_eq(e.v[1].phase, "shooting");
	ck_assert_str_eq(e.v[1].player, "attacker");
	ck_assert_int_eq(e.v[1].order_index, 2);
	/* One line each: a newline would break the report. */
	ck_assert_str_eq(e.v[1].text, "target x is gone now");
	ck_assert_uint_eq(e.v[1].first_die, 3);
	ck_assert_str_eq(e.v[41].text, "event 39");
	events_release(&e);
	dice_release(&d);
	ck_assert_uint_eq(e.n, 0);
	events_add(&e, "p", "after release");
	ck_assert_uint_eq(e.n, 1);
	events_release(&e);
}
END_TEST

/* Sorted by the value mod 3; equal values keep their order (stable). */
static int mod3_cmp(size_t a, size_t b, const void *ctx)
{
	const int *val = ctx;
	return val[a] % 3 - val[b] % 3;
}

/* buf_put_u64 writes what "%llu" does, 2^64 - 1 included. */
START_TEST(put_u64)
{
	struct buf b = BUF_INIT;
	const uint64_t v[] = { 0, 9, 10, 18446744073709551615ull };
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		buf_put_u64(&b, v[i]);
		buf_puts(&b, " ");
	}
	ck_assert_str_eq(buf_str(&b), "0 9 10 18446744073709551615 ");
	buf_release(&b);
}
END_TEST

/* buf_put_int writes what "%lld" does, at both ends of the range; buf_printf gives the same
 * text whether it fits the room at hand or needs a second pass (longer than 128 bytes). */
START_TEST(put_int_and_long_printf)
{
	struct buf b = BUF_INIT, want = BUF_INIT;
	const long long v[] = { 0, 7, -1, 10, -10, 1234567890123LL, LLONG_MAX, LLONG_MIN };
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		buf_put_int(&b, v[i]);
		buf_puts(&b, " ");
		buf_printf(&want, "%lld ", v[i]);
	}
	ck_assert_str_eq(buf_str(&b), buf_str(&want));
	ck_assert_str_eq(buf_str(&b), "0 7 -1 10 -10 1234567890123 9223372036854775807 "
				      "-9223372036854775808 ");
	char wide[400];
	memset(wide, 'w', sizeof(wide) - 1);
	wide[sizeof(wide) - 1] = '\0';
	for (int round = 0; round < 3; round++) {
		size_t at = b.len;
		buf_printf(&b, "<%s|%d>", wide + round * 150, round);
		ck_assert_uint_eq(b.len - at, strlen(wide + round * 150) + 4);
		ck_assert_int_eq(b.data[b.len - 3], '|');
		ck_assert_int_eq(b.data[b.len], '\0');
	}
	buf_release(&b);
	buf_release(&want);
}
END_TEST

START_TEST(index_sort_stable)
{
	const int val[] = { 5, 3, 4, 0, 2, 1, 8, 6, 7 };
	size_t v[9], tmp[9];
	const size_t want[9] = { 1, 3, 7, 2, 5, 8, 0, 4, 6 };

	for (size_t i = 0; i < 9; i++)
		v[i] = i;
	index_sort(v, tmp, 9, mod3_cmp, val);
	for (size_t i = 0; i < 9; i++)
		ck_assert_uint_eq(v[i], want[i]);
	index_sort(v, tmp, 0, mod3_cmp, val); /* nothing to sort */
	index_sort(v, tmp, 1, mod3_cmp, val);
	ck_assert_uint_eq(v[0], 1);
}
END_TEST

static Suite *buf_suite(void)
{
	Suite *s = suite_create("buf");
	TCase *tc = tcase_create("buf");
	tcase_add_test(tc, buf_basics);
	tcase_add_test(tc, x_allocators);
	tcase_add_test(tc, hex);
	tcase_add_test(tc, events);
	tcase_add_test(tc, index_sort_stable);
	tcase_add_test(tc, put_int_and_long_printf);
	tcase_add_test(tc, put_u64);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(buf_suite)
