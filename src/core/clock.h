/* clock.h — the one clock umpire reads the time from (clock.c): $SOURCE_DATE_EPOCH when set,
 * else the system's. The C library alone, so the front program (src/front.c), which answers
 * an idle `umpire run` pass by itself, reads the same clock as umpire-core. */
#ifndef UMPIRE_CLOCK_H
#define UMPIRE_CLOCK_H

/* The processing time, UTC seconds: $SOURCE_DATE_EPOCH when set to a whole number >= 0 in
 * decimal, nothing else (reproducible-builds convention: tests and replays pin the time),
 * else the system's CLOCK_REALTIME. Never fails (aborts only if the clock cannot be read). */
long long clock_now(void);

#endif
