/* clock.c — the one clock umpire reads the time from (clock.h): the only reader of
 * CLOCK_REALTIME (core/banned.h bans time()). The C library only: the front program links it
 * as well as umpire-core. */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "core/clock.h"
#include "core/banned.h"

long long clock_now(void)
{
	const char *s = getenv("SOURCE_DATE_EPOCH");
	if (s && *s) {
		char *end;
		errno = 0;
		long long v = strtoll(s, &end, 10);
		if (errno == 0 && *end == '\0' && v >= 0)
			return v;
	}
	struct timespec now;
	if (clock_gettime(CLOCK_REALTIME, &now) != 0)
		abort(); /* only for a bad clock id or pointer */
	return (long long)now.tv_sec;
}
