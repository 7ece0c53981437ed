/* outbox.h — umpire's mail waiting to go (.umpire/outbox/): every reply, receipt and report
 * is queued in new/ first, durably, then `umpire send` hands each to SMTP and moves it to
 * sent/ only after the server took it: one that failed is tried again on the next run, and
 * one sent is never sent again, unless a crash falls between the server's answer and the
 * move (then the next run sends it once more, with the same Message-ID). One the server
 * refuses for good (a 5xx answer), or that is no message at all, moves to failed/ with its
 * reason in failed/NAME.eml.reason, so it neither jams the queue nor is told twice; `umpire
 * outbox` lists those, puts one back in new/ (retry) or moves it to dropped/. */
#ifndef UMPIRE_OUTBOX_H
#define UMPIRE_OUTBOX_H

#include <stddef.h>
#include "core/buf.h"
#include "core/net.h"

struct campaign;

#define OUTBOX_MAX_MESSAGES 1000 /* messages sent in one run (the rest wait for the next) */

/* Queues a message in .umpire/outbox/new/NAME.eml (durably; the same name replaces a
 * message not yet sent, and a name already in sent/, failed/ or dropped/ is not queued
 * again). Returns 0 / -1. */
int outbox_queue(const struct campaign *c, const char *name, const struct buf *message);

/* One message of a send run. */
struct outbox_item {
	char *name;   /* NAME.eml */
	char *to;     /* the recipient, or NULL when the file is no message */
	int sent;     /* 1 sent and moved to sent/; 0 left in new/ or moved to failed/ */
	int failed;   /* refused for good: moved to failed/ (told once, on this run) */
	char *reason; /* not sent: why */
};
struct outbox_report {
	struct outbox_item *items; /* in name order */
	size_t n_items;
	size_t n_failed; /* left in new/ for the next run */
	size_t n_moved;  /* moved to failed/ on this run */
};

/* Sends every message of .umpire/outbox/new in name order through s, each dated now (UTC
 * seconds: when it is sent) and moved to sent/ once the server took it. A message that fails
 * for now stays for the next run; one refused for good (smtp_send's or sendmail_send's class
 * ERROR_INPUT) or unreadable moves to failed/; the others are still tried, unless the server or
 * program stalled (class ERROR_BUSY): then the pass ends there, the rest stay queued and are
 * reported "not tried", so a stall costs one timeout a pass, not one a message. rep says what
 * happened (outbox_report_release). Returns 0 when the outbox could be read (rep->n_failed
 * may be > 0), -1 otherwise. */
int outbox_send(const struct campaign *c, const struct smtp_settings *s, long long now,
	struct outbox_report *rep);
void outbox_report_release(struct outbox_report *rep);

/* The number of messages waiting in .umpire/outbox/new. */
size_t outbox_pending(const struct campaign *c);
/* The number of messages in .umpire/outbox/FOLDER (new, sent, failed, dropped). */
size_t outbox_count(const struct campaign *c, const char *folder);
/* The NAME.eml files of .umpire/outbox/FOLDER in name order (each and *names freed by the
 * caller; NULL and 0 when none). Returns 0. */
int outbox_list(const struct campaign *c, const char *folder, char ***names, size_t *n);
/* Why failed/name was refused (its first line, a new string), or NULL. */
char *outbox_reason(const struct campaign *c, const char *name);
/* Puts failed/name back in new/ for the next send. 0, or -1 (ERROR_MISSING: no such). */
int outbox_retry(const struct campaign *c, const char *name);
/* Moves failed/name, else new/name, to dropped/ (kept, never sent). 0, or -1 (ERROR_MISSING). */
int outbox_drop(const struct campaign *c, const char *name);

#endif
