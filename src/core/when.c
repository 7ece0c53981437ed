/* when.c — UTC dates and waits for messages ("round 3 is out at 2026-11-27 10:04:51 UTC, in
 * about 9 minutes"), so nobody has to convert epoch seconds by hand. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/when.h"
#include "core/banned.h"

/* "2026-11-27 10:04:51 UTC" for UTC seconds t (the seconds themselves when t cannot be
 * represented) into out. */
static void when_utc(char out[WHEN_MAX], long long t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) || strftime(out, WHEN_MAX, "%Y-%m-%d %H:%M:%S UTC", &tm) == 0)
		snprintf(out, WHEN_MAX, "%lld (seconds since 1970, UTC)", t);
}

/* "9 minutes" for d > 0 seconds, rounded to the nearest unit worth saying. */
static void span(char out[32], long long d, const char **about)
{
	static const struct {
		long long seconds;
		const char *one, *many;
	} units[] = { { 86400, "day", "days" }, { 3600, "hour", "hours" },
		{ 60, "minute", "minutes" } };

	*about = "";
	if (d < 60) {
		snprintf(out, 32, "%lld second%s", d, d == 1 ? "" : "s");
		return;
	}
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		/* Two of a unit or more say it in that unit; below, the next one down. */
		if (d < 2 * units[i].seconds && units[i].seconds != 60)
			continue;
		long long n = (d + units[i].seconds / 2) / units[i].seconds;
		*about = d % units[i].seconds ? "about " : "";
		snprintf(out, 32, "%lld %s", n, n == 1 ? units[i].one : units[i].many);
		return;
	}
}

/* How far moment at is from now: "in about 9 minutes", "now", "about 5 minutes ago". */
static void when_wait(char out[WHEN_MAX], long long at, long long now)
{
	char s[32];
	const char *about;

	if (at == now) {
		snprintf(out, WHEN_MAX, "now");
		return;
	}
	span(s, at > now ? at - now : now - at, &about);
	if (at > now)
		snprintf(out, WHEN_MAX, "in %s%s", about, s);
	else
		snprintf(out, WHEN_MAX, "%s%s ago", about, s);
}

void when_describe(char out[WHEN_MAX], long long at, long long now)
{
	char wait[WHEN_MAX];
	size_t n;

	when_utc(out, at);
	when_wait(wait, at, now);
	n = strlen(out);
	snprintf(out + n, WHEN_MAX - n, ", %.*s", (int)(WHEN_MAX - n), wait);
}
