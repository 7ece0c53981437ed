/* check_diag.c — collected diagnostics: the printed format, the stable sort by file, line
 * and column, position clamping, and the limit with its closing note. */
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

static Suite *diag_suite(void)
{
	Suite *s = suite_create("diag");
	TCase *tc = tcase_create("diag");
	tcase_add_test(tc, format_and_sort);
	tcase_add_test(tc, stable_for_many_equal);
	tcase_add_test(tc, null_file_and_clamping);
	tcase_add_test(tc, default_limit);
	tcase_add_test(tc, custom_limit_and_reuse);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(diag_suite)
