/* notify.c — receipts, reports and reminders by mail (notify.h): each built with GMime
 * (mail.h) and queued in the outbox. The recipient is the player's first address. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail/notify.h"
#include "core/campaign.h"
#include "core/close.h"
#include "core/file.h"
#include "mail/inbox.h"
#include "core/layout.h"
#include "mail/mail.h"
#include "mail/outbox.h"
#include "core/turn.h"
#include "core/banned.h"

/* The message of one notification. */
struct notice {
	const char *kind;    /* "receipt", "report", "remind": the outbox name's start */
	int turn;            /* the turn it is about */
	const char *subject; /* UTF-8 */
	const char *body;    /* UTF-8 */
	struct mail_attachment attachments[MAIL_MAX_ATTACHMENTS];
	size_t n_attachments;
};

/* Queues n to player i (who has an address) as KIND-NNNN-PLAYER. 0 / -1. */
static int queue_notice(const struct campaign *c, size_t i, const struct notice *n, long long now)
{
	const char *from = c->pbem.mail.from ? c->pbem.mail.from : "umpire@localhost";
	char name[128], id[300];
	struct buf msg = BUF_INIT;

	snprintf(name, sizeof(name), "%s-%04d-%s", n->kind, n->turn, c->players[i]);
	snprintf(id, sizeof(id), "umpire.%s.%s@%s", name, c->id, strchr(from, '@') + 1);
	struct mail_out m = {
		.from = from,
		.to = c->pbem.contacts[i].emails[0],
		.subject = n->subject,
		.message_id = id,
		.date = now,
		.body = n->body,
		.n_attachments = n->n_attachments,
	};
	memcpy(m.attachments, n->attachments, sizeof(m.attachments));
	int rc = mail_build(&msg, &m);
	if (rc == 0)
		rc = outbox_queue(c, name, &msg);
	buf_release(&msg);
	return rc;
}

static int has_address(const struct campaign *c, size_t i)
{
	return i < c->pbem.n_contacts && c->pbem.contacts[i].n_emails > 0;
}

int notify_receipts(struct campaign *c, int turn, long long now, size_t *n)
{
	struct close_record r;
	char commit[41], file[64];
	int rc = turn_read_close(c, turn, &r, commit, NULL);

	*n = 0;
	if (rc != 0)
		return rc;
	for (size_t i = 0; i < c->n_players && rc == 0; i++) {
		if (!has_address(c, i) || !close_find(&r, c->players[i]))
			continue;
		struct buf receipt = BUF_INIT, body = BUF_INIT;
		close_receipt(&receipt, &r, c, c->players[i], commit);
		buf_printf(&body,
			"Turn %d of %s is closed: its orders are fixed before any die is known.\n"
			"Your receipt follows (also attached). Keep it: 'umpire verify DIR --receipt FILE'\n"
			"on a clone of the campaign shows the turn was resolved with exactly your file.\n\n",
			turn, c->id);
		buf_append(&body, receipt.data, receipt.len);
		snprintf(file, sizeof(file), "receipt-%04d.yaml", turn);
		char *subject = xasprintf("[%s] turn %d closed: your receipt", c->id, turn);
		struct notice nt = { "receipt", turn, subject, buf_str(&body),
			{ { file, receipt.data, receipt.len } }, 1 };
		rc = queue_notice(c, i, &nt, now);
		*n += rc == 0;
		free(subject);
		buf_release(&receipt);
		buf_release(&body);
	}
	close_release(&r);
	return rc;
}

/* Sealed: player i's private files of turn (.umpire/outbox/PLAYER/turn-NNNN, written by the
 * turn): his report as the body, it and his view, salt and own orders attached under their
 * names, so saving them into a folder gives `umpire verify --view` its input. 0 / -1. */
static int queue_sealed_report(struct campaign *c, size_t i, int turn, long long now)
{
	static const char *const names[] = { "report.md", "state.yaml", "salt.yaml", "orders.yaml",
		LAYOUT_OUTBOX_MAP };
	struct buf files[5] = { BUF_INIT, BUF_INIT, BUF_INIT, BUF_INIT, BUF_INIT };
	struct notice nt = { "report", turn, NULL, NULL, { { 0 } }, 0 };
	char *pdir;
	int rc = 0;

	pdir = xasprintf("%s/.umpire/outbox/%s/" LAYOUT_TAG_PREFIX "%04d", c->dir, c->players[i],
		turn);
	for (size_t k = 0; k < 5; k++) {
		char *path = xasprintf("%s/%s", pdir, names[k]);
		if (file_read(path, REPO_MAX_OBJECT_BYTES, &files[k]) == 0)
			nt.attachments[nt.n_attachments++] = (struct mail_attachment){ names[k],
				files[k].data, files[k].len };
		else if (k == 0)
			rc = ERROR_NOTFOUND;
		free(path);
	}
	error_clear();
	if (rc == 0) {
		char *subject = xasprintf("[%s] turn %d: your report", c->id, turn);
		nt.subject = subject;
		nt.body = buf_str(&files[0]);
		rc = queue_notice(c, i, &nt, now);
		free(subject);
	}
	for (size_t k = 0; k < 5; k++)
		buf_release(&files[k]);
	free(pdir);
	return rc;
}

/* Open: player i's committed report of turn, the body and an attachment. 0, ERROR_NOTFOUND
 * when he has none, -1. */
static int queue_open_report(struct campaign *c, size_t i, int turn, long long now)
{
	char tag[LAYOUT_TAG_MAX], path[LAYOUT_PATH_MAX], file[64], mapfile[64];
	struct buf report = BUF_INIT, map = BUF_INIT;
	int rc;

	layout_tag(tag, turn);
	layout_report_path(path, turn, c->players[i]);
	rc = repo_read(c->repo, tag, path, &report);
	if (rc == 0) {
		snprintf(file, sizeof(file), "turn-%04d-%s.md", turn, c->players[i]);
		char *subject = xasprintf("[%s] turn %d: your report", c->id, turn);
		struct notice nt = { "report", turn, subject, buf_str(&report),
			{ { file, report.data, report.len } }, 1 };
		/* His map beside it, when the rule system draws one. */
		layout_map_path(path, turn, c->players[i]);
		snprintf(mapfile, sizeof(mapfile), "turn-%04d-%s.svg", turn, c->players[i]);
		if (repo_read(c->repo, tag, path, &map) == 0)
			nt.attachments[nt.n_attachments++] = (struct mail_attachment){ mapfile,
				map.data, map.len };
		error_clear();
		rc = queue_notice(c, i, &nt, now);
		free(subject);
	}
	buf_release(&report);
	buf_release(&map);
	return rc;
}

int notify_reports(struct campaign *c, int turn, long long now, size_t *n)
{
	char tag[LAYOUT_TAG_MAX];
	int rc = 0;

	*n = 0;
	layout_tag(tag, turn);
	if (!repo_has(c->repo, tag))
		return ERROR_NOTFOUND;
	for (size_t i = 0; i < c->n_players && rc >= 0; i++) {
		if (!has_address(c, i))
			continue;
		rc = c->visibility == CAMPAIGN_SEALED ? queue_sealed_report(c, i, turn, now) :
							queue_open_report(c, i, turn, now);
		*n += rc == 0;
		if (rc == ERROR_NOTFOUND)
			rc = 0;
	}
	return rc < 0 ? -1 : 0;
}

int notify_reminders(struct campaign *c, int turn, long long now, size_t *n)
{
	struct inbox_status s;
	char when[32];
	int rc = inbox_status(c, &s);

	*n = 0;
	if (rc < 0)
		return -1;
	long long dl = pbem_deadline(&c->pbem, turn);
	if (dl >= 0)
		pbem_format_utc(when, sizeof(when), dl);
	for (size_t i = 0; i < s.n_players && rc == 0 && !s.closed; i++) {
		if (!s.players[i].due || s.players[i].sent || !has_address(c, i))
			continue;
		char *subject = xasprintf("[%s] turn %d: your orders are missing", c->id, turn);
		char *body = xasprintf(
			"umpire has no orders from you (%s) for turn %d of %s yet.\n%s%s%s"
			"Send your order file to %s, attached or in the body.\n",
			c->players[i], turn, c->id, dl >= 0 ? "The deadline is " : "",
			dl >= 0 ? when : "", dl >= 0 ? ".\n" : "",
			c->pbem.mail.from ? c->pbem.mail.from : "the umpire");
		struct notice nt = { "remind", turn, subject, body, { { 0 } }, 0 };
		rc = queue_notice(c, i, &nt, now);
		*n += rc == 0;
		free(subject);
		free(body);
	}
	inbox_status_release(&s);
	return rc;
}
