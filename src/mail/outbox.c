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
	static const char *const done[] = { "sent", "failed", "dropped" };
	char *file = xasprintf("%s.eml", name);
	char *dir = xasprintf("%s/.umpire/outbox/new", c->dir);
	struct stat st;
	int rc = 0, seen = 0;

	for (size_t i = 0; i < 3 && !seen; i++) {
		char *path = xasprintf("%s/.umpire/outbox/%s/%s", c->dir, done[i], file);
		seen = lstat(path, &st) == 0;
		free(path);
	}
	if (!seen)
		rc = file_write_durable(dir, file, message->data, message->len);
	free(file);
	free(dir);
	return rc;
}

/* Replies to the players' mail first (reply-*, in the order the mail came), then the rest
 * by name: a player reads "your orders are accepted" before the receipt of the close it
 * took part in, even when the same pass queued both. */
static int cmp_str(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	int rx = strncmp(x, "reply-", 6) == 0, ry = strncmp(y, "reply-", 6) == 0;
	return rx != ry ? ry - rx : strcmp(x, y);
}

/* The *.eml names in dir, replies first (cmp_str); *n their count. NULL and 0 when dir is
 * absent. */
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
	return outbox_count(c, "new");
}

size_t outbox_count(const struct campaign *c, const char *folder)
{
	char *dir = xasprintf("%s/.umpire/outbox/%s", c->dir, folder);
	size_t n;
	char **v = list_eml(dir, &n);
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
	free(dir);
	return n;
}

/* Renames .umpire/outbox/FROM/name to TO/name and syncs the target directory. 0 / -1. */
static int move_between(const struct campaign *c, const char *from_dir, const char *to_dir,
	const char *name)
{
	char *dst = xasprintf("%s/.umpire/outbox/%s", c->dir, to_dir);
	char *from = xasprintf("%s/.umpire/outbox/%s/%s", c->dir, from_dir, name);
	char *to = xasprintf("%s/%s", dst, name);
	int rc = file_mkdir_p(dst, 0700);

	if (rc == 0)
		rc = file_rename_durable(from, to);
	free(dst);
	free(from);
	free(to);
	return rc;
}

/* Moves new/name to failed/ with failed/name.reason (the server's answer), for good. */
static int move_failed(const struct campaign *c, const char *name, const char *reason)
{
	char *dir = xasprintf("%s/.umpire/outbox/failed", c->dir);
	char *why = xasprintf("%s.reason", name);
	char *text = xasprintf("%s\n", reason);
	int rc = file_mkdir_p(dir, 0700);
	if (rc == 0)
		rc = file_write_durable(dir, why, text, strlen(text));
	if (rc == 0)
		rc = move_between(c, "new", "failed", name);
	free(dir);
	free(why);
	free(text);
	return rc;
}

/* Sends one queued message; 0 sent, 1 not sent (item->reason; item->failed when moved to
 * failed/ for good), -1 could not move it. */
static int send_one(const struct campaign *c, const struct smtp_settings *s, const char *dir,
	long long now, struct outbox_item *item)
{
	char *path = xasprintf("%s/%s", dir, item->name), *from = NULL;
	struct buf msg = BUF_INIT;
	int rc = 1;

	if (file_read(path, MAIL_MAX_BYTES, &msg) < 0 || mail_set_date(&msg, now) < 0 ||
		mail_envelope(msg.data, msg.len, &from, &item->to) < 0 ||
		(s->sendmail ? sendmail_send(s->sendmail, from, item->to, msg.data, msg.len) :
			       smtp_send(s, from, item->to, msg.data, msg.len)) < 0) {
		item->reason = xstrdup(error_last()->message);
		/* What can never go (no message, a 5xx answer) stops jamming the queue. */
		if (error_last()->klass == ERROR_INPUT) {
			if (move_failed(c, item->name, item->reason) < 0)
				rc = -1;
			else
				item->failed = 1;
		}
	} else {
		durable_point("outbox sent");
		rc = move_between(c, "new", "sent", item->name) < 0 ? -1 : 0;
		item->sent = rc == 0;
	}
	free(path);
	free(from);
	buf_release(&msg);
	return rc;
}

int outbox_send(const struct campaign *c, const struct smtp_settings *s, long long now,
	struct outbox_report *rep)
{
	char *dir = xasprintf("%s/.umpire/outbox/new", c->dir);
	size_t n;
	char **names = list_eml(dir, &n);
	int rc = 0, stalled = 0;

	memset(rep, 0, sizeof(*rep));
	rep->items = xcalloc(n + 1, sizeof(*rep->items));
	for (size_t i = 0; i < n; i++) {
		struct outbox_item *it = &rep->items[rep->n_items++];
		it->name = names[i];
		if (rc < 0 || stalled) {
			it->reason = xstrdup(
				rc < 0 ? "not tried: an earlier message could not be moved" :
					 "not tried: the server stalled on an earlier message");
			rep->n_failed++;
			continue;
		}
		int r = send_one(c, s, dir, now, it);
		/* A server or program that stalls would stall each message of the pass: the
		 * rest wait for the next pass. */
		stalled = r == 1 && !it->failed && error_last()->klass == ERROR_BUSY;
		if (r != 0 && it->failed)
			rep->n_moved++;
		else if (r != 0)
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

int outbox_list(const struct campaign *c, const char *folder, char ***names, size_t *n)
{
	char *dir = xasprintf("%s/.umpire/outbox/%s", c->dir, folder);
	*names = list_eml(dir, n);
	free(dir);
	return 0;
}

char *outbox_reason(const struct campaign *c, const char *name)
{
	char *path = xasprintf("%s/.umpire/outbox/failed/%s.reason", c->dir, name);
	struct buf b = BUF_INIT;
	char *r = NULL;
	if (file_read(path, 4096, &b) == 0) {
		r = xstrdup(buf_str(&b));
		r[strcspn(r, "\n")] = '\0';
	}
	error_clear();
	buf_release(&b);
	free(path);
	return r;
}

/* 1 if name is NAME.eml with no path in it. */
static int plain_name(const char *name)
{
	size_t n = strlen(name);
	return n > 4 && name[0] != '.' && !strchr(name, '/') && strcmp(name + n - 4, ".eml") == 0;
}

/* move_between from failed/ to to, then the message's NAME.reason beside it removed (a
 * failure to remove it cleared, not reported). */
static int move_out_of_failed(const struct campaign *c, const char *to, const char *name)
{
	int rc = move_between(c, "failed", to, name);
	if (rc == 0) {
		char *dir = xasprintf("%s/.umpire/outbox/failed", c->dir);
		char *why = xasprintf("%s.reason", name);
		if (file_remove_durable(dir, why) < 0)
			error_clear();
		free(dir);
		free(why);
	}
	return rc;
}

int outbox_retry(const struct campaign *c, const char *name)
{
	if (!plain_name(name))
		return error_set(ERROR_INPUT, "'%s' is no message name (NAME.eml expected)", name);
	int rc = move_out_of_failed(c, "new", name);
	if (rc == 0) {
		error_clear();
	} else if (error_last()->klass == ERROR_MISSING) {
		rc = error_set(ERROR_MISSING, "no message '%s' in the outbox's failed/", name);
	}
	return rc;
}

int outbox_drop(const struct campaign *c, const char *name)
{
	if (!plain_name(name))
		return error_set(ERROR_INPUT, "'%s' is no message name (NAME.eml expected)", name);
	int rc = move_out_of_failed(c, "dropped", name);
	if (rc < 0 && error_last()->klass == ERROR_MISSING)
		rc = move_between(c, "new", "dropped", name);
	if (rc < 0 && error_last()->klass == ERROR_MISSING)
		rc = error_set(ERROR_MISSING, "no message '%s' waiting or failed in the outbox",
			name);
	return rc;
}
