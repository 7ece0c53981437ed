/* outbox.h — umpire's mail waiting to go (.umpire/outbox/): every reply, receipt and report
 * is queued in new/ first, durably, then `umpire send` hands each to SMTP and moves it to
 * sent/ only after the server took it: one that failed is tried again on the next run, and
 * one sent is never sent again, unless a crash falls between the server's answer and the
 * move (then the next run sends it once more, with the same Message-ID). */
#ifndef UMPIRE_OUTBOX_H
#define UMPIRE_OUTBOX_H

#include <stddef.h>
#include "core/buf.h"
#include "core/net.h"

struct campaign;

#define OUTBOX_MAX_MESSAGES 1000 /* messages sent in one run (the rest wait for the next) */

/* Queues a message in .umpire/outbox/new/NAME.eml (durably; the same name replaces a
 * message not yet sent, and a name already in sent/ is not queued again). Returns 0 / -1. */
int outbox_queue(const struct campaign *c, const char *name, const struct buf *message);

/* One message of a send run. */
struct outbox_item {
	char *name;   /* NAME.eml */
	char *to;     /* the recipient, or NULL when the file is no message */
	int sent;     /* 1 sent and moved to sent/; 0 left in new/ */
	char *reason; /* not sent: why */
};
struct outbox_report {
	struct outbox_item *items; /* in name order */
	size_t n_items;
	size_t n_failed;
};

/* Sends every message of .umpire/outbox/new in name order through s, each moved to sent/
 * once the server took it. A message that fails stays for the next run; the others are
 * still tried. rep says what happened (outbox_report_release). Returns 0 when the outbox
 * could be read (rep->n_failed may be > 0), -1 otherwise. */
int outbox_send(const struct campaign *c, const struct smtp_settings *s, struct outbox_report *rep);
void outbox_report_release(struct outbox_report *rep);

/* The number of messages waiting in .umpire/outbox/new. */
size_t outbox_pending(const struct campaign *c);

#endif
