/* outbox.c — queueing and sending umpire's mail (outbox.h). The move to sent/ is a rename
 * in one file system, made durable before the next message is tried. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mail/outbox.h"
#include "core/campaign.h"
#include "core/durable.h"
#include "core/file.h"
#include "mail/mail.h"
#include "mail/sendmail.h"
#include "core/banned.h"

int outbox_queue(const struct campaign *c, const char *name, const struct buf *message)
{
	char *file = xasprintf("%s.eml", name);
	char *sent = xasprintf("%s/.umpire/outbox/sent/%s", c->dir, file);
	char *dir = xasprintf("%s/.umpire/outbox/new", c->dir);
	struct stat st;
	int rc = 0;

	if (stat(sent, &st) != 0)
		rc = file_write_durable(dir, file, message->data, message->len);
	free(file);
	free(sent);
	free(dir);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The *.eml names in dir, sorted; *n their count. NULL and 0 when dir is absent. */
static char **list_eml(const char *dir, size_t *n)
{
	DIR *d = file_opendir(dir);
	struct dirent *e;
	char **v = NULL;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d)) && *n < OUTBOX_MAX_MESSAGES) {
		size_t len = strlen(e->d_name);
		if (e->d_name[0] == '.' || len < 5 || strcmp(e->d_name + len - 4, ".eml") != 0)
			continue;
		v = xrealloc(v, (*n + 1) * sizeof(*v));
		v[(*n)++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), cmp_str);
	return v;
}

size_t outbox_pending(const struct campaign *c)
{
	char *dir = xasprintf("%s/.umpire/outbox/new", c->dir);
	size_t n;
	char **v = list_eml(dir, &n);
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	free(dir);
	return n;
}

/* Renames new/name to sent/name and syncs both directories. 0 / -1. */
static int move_sent(const struct campaign *c, const char *name)
{
	char *sent = xasprintf("%s/.umpire/outbox/sent", c->dir);
	char *from = xasprintf("%s/.umpire/outbox/new/%s", c->dir, name);
	char *to = xasprintf("%s/%s", sent, name);
	int rc = file_mkdir_p(sent, 0700);

	if (rc == 0)
		rc = file_rename_durable(from, to);
	free(sent);
	free(from);
	free(to);
	return rc;
}

/* Sends one queued message; 0 sent, 1 not sent (item->reason), -1 could not move it. */
static int send_one(const struct campaign *c, const struct smtp_settings *s, const char *dir,
	struct outbox_item *item)
{
	char *path = xasprintf("%s/%s", dir, item->name), *from = NULL;
	struct buf msg = BUF_INIT;
	int rc = 1;

	if (file_read(path, MAIL_MAX_BYTES, &msg) < 0 ||
		mail_envelope(msg.data, msg.len, &from, &item->to) < 0 ||
		(s->sendmail ? sendmail_send(s->sendmail, from, item->to, msg.data, msg.len) :
			       smtp_send(s, from, item->to, msg.data, msg.len)) < 0) {
		item->reason = xstrdup(error_last()->message);
	} else {
		durable_point("outbox sent");
		rc = move_sent(c, item->name) < 0 ? -1 : 0;
		item->sent = rc == 0;
	}
	free(path);
	free(from);
	buf_release(&msg);
	return rc;
}

int outbox_send(const struct campaign *c, const struct smtp_settings *s, struct outbox_report *rep)
{
	char *dir = xasprintf("%s/.umpire/outbox/new", c->dir);
	size_t n;
	char **names = list_eml(dir, &n);
	int rc = 0;

	memset(rep, 0, sizeof(*rep));
	rep->items = xcalloc(n + 1, sizeof(*rep->items));
	for (size_t i = 0; i < n; i++) {
		struct outbox_item *it = &rep->items[rep->n_items++];
		it->name = names[i];
		if (rc < 0) {
			it->reason = xstrdup("not tried: an earlier message could not be moved");
			rep->n_failed++;
			continue;
		}
		int r = send_one(c, s, dir, it);
		if (r != 0)
			rep->n_failed++;
		if (r < 0)
			rc = -1;
	}
	free(names);
	free(dir);
	return rc;
}

void outbox_report_release(struct outbox_report *rep)
{
	for (size_t i = 0; i < rep->n_items; i++) {
		free(rep->items[i].name);
		free(rep->items[i].to);
		free(rep->items[i].reason);
	}
	free(rep->items);
	memset(rep, 0, sizeof(*rep));
}
