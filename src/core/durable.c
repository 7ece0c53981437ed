/* durable.c — counts durable writes and simulates a crash after the Nth
 * ($UMPIRE_CRASH_AFTER), so the crash-point test can cover every write of a turn. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/durable.h"

static int durable_writes;

void durable_point(const char *what)
{
	durable_writes++;
	const char *s = getenv("UMPIRE_CRASH_AFTER");
	if (s && atoi(s) == durable_writes) {
		fprintf(stderr, "umpire: simulated crash after durable write %d (%s)\n", durable_writes,
			what);
		_exit(99);
	}
}

int durable_count(void)
{
	return durable_writes;
}
