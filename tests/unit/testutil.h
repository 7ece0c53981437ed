/* testutil.h — shared helpers for the Check suites. Each check_*.c defines its suites and
 * a main() via TEST_MAIN(suite_fn). */
#ifndef UMPIRE_TESTUTIL_H
#define UMPIRE_TESTUTIL_H

#include <check.h>
#include <stdlib.h>

#define TEST_MAIN(make_suite)                                                          \
	int main(void)                                                                       \
	{                                                                                     \
		SRunner *sr = srunner_create(make_suite());                                      \
		srunner_run_all(sr, CK_NORMAL);                                                   \
		int failed = srunner_ntests_failed(sr);                                           \
		srunner_free(sr);                                                                 \
		return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;                                 \
	}

#endif
