/* testutil.h — shared helpers for the Check suites. Each check_*.c defines its suites and
 * a main() via TEST_MAIN(suite_fn). */
#ifndef UMPIRE_TESTUTIL_H
#define UMPIRE_TESTUTIL_H

#include <check.h>
#include <stdlib.h>

struct buf;

/* Creates the suite's temporary root /tmp/umpire-check-SUITE-XXXXXX (aborts on failure)
 * and returns it; call from an unchecked fixture so it outlives forked tests. */
const char *test_root_make(const char *suite);
/* Removes the root and everything under it. */
void test_root_remove(void);
/* A new path NAME under the root (free it). */
char *test_path(const char *name);
/* Runs a shell command (printf-style), stdout and stderr into out; returns its exit status. */
int test_run(struct buf *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define TEST_MAIN(make_suite) \
	int main(void) \
	{ \
		SRunner *sr = srunner_create(make_suite()); \
		srunner_run_all(sr, CK_NORMAL); \
		int failed = srunner_ntests_failed(sr); \
		srunner_free(sr); \
		return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE; \
	}

#endif
