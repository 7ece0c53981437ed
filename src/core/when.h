/* when.h — times as people read them in messages: UTC dates and the wait until a moment
 * (when.c). Never used in anything rendered into the history: only messages and receipts. */
#ifndef UMPIRE_WHEN_H
#define UMPIRE_WHEN_H

#include <stddef.h>

#define WHEN_MAX 96 /* room for when_describe's longest text and its NUL */

/* "2026-11-27 10:04:51 UTC" for UTC seconds t (the seconds themselves when t cannot be
 * represented) into out. */
void when_utc(char out[WHEN_MAX], long long t);
/* How far moment at is from now, rounded to what is worth saying: "in about 9 minutes",
 * "in 40 seconds", "in about 3 hours", "in about 2 days", "now", or for a moment past
 * "about 5 minutes ago". */
void when_wait(char out[WHEN_MAX], long long at, long long now);
/* when_utc and when_wait together: "2026-11-27 10:04:51 UTC, in about 9 minutes". */
void when_describe(char out[WHEN_MAX], long long at, long long now);

#endif
