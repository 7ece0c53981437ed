/* when.h — times as people read them in messages: UTC dates and the wait until a moment
 * (when.c). Never used in anything rendered into the history: only messages and receipts. */
#ifndef UMPIRE_WHEN_H
#define UMPIRE_WHEN_H

#include <stddef.h>

#define WHEN_MAX 96 /* room for when_describe's longest text and its NUL */

/* When moment at is (UTC seconds), and how far it is from now, rounded to what is worth
 * saying: "2026-11-27 10:04:51 UTC, in about 9 minutes" (or "in 40 seconds", "in about 3
 * hours", "in about 2 days", "now", "about 5 minutes ago"; the seconds themselves when at
 * cannot be represented as a date) into out. */
void when_describe(char out[WHEN_MAX], long long at, long long now);

#endif
