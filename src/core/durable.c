/* durable.c — counts durable writes and simulates a crash after the Nth
 * ($UMPIRE_CRASH_AFTER), so the crash-point test can cover every write of a turn. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/durable.h"
#include "core/banned.h"

static int durable_writes;

/* N from $UMPIRE_CRASH_AFTER, or 0 (never crash) when it is unset or not a positive int. */
static int crash_after(void)
{
	const char *s = getenv("UMPIRE_CRASH_AFTER");
	char *end;
	long n;

	if (!s || !*s)
		return 0;
	errno = 0;
	n = strtol(s, &end, 10);
	if (errno != 0 || *end != '\0' || n < 1 || n > INT_MAX)
		return 0;
	return (int)n;
}

void durable_point(const char *what)
{
	durable_writes++;
	if (crash_after() == durable_writes) {
		fprintf(stderr, "umpire: simulated crash after durable write %d (%s)\n",
			durable_writes, what);
		_exit(99);
	}
}
