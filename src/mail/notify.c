/* notify.c — receipts, reports and reminders by mail (notify.h): each built with GMime
 * (mail.h) and queued in the outbox. The recipient is the player's first address. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail/notify.h"
#include "core/schedule.h"
#include "core/campaign.h"
#include "core/close.h"
#include "core/fair.h"
#include "core/file.h"
#include "core/receipt.h"
#include "core/timelock.h"
#include "mail/inbox.h"
#include "core/layout.h"
#include "core/missed.h"
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

const char *notify_from(const struct campaign *c)
{
	return c->pbem.mail.from ? c->pbem.mail.from : "umpire@localhost";
}

void notify_message_id(char *out, size_t size, const struct campaign *c, const char *what)
{
	const char *from = notify_from(c);
	char hex[65];
	hex_encode(hex, c->commitment, 32);
	snprintf(out, size, "umpire.%.100s.%.64s.%.12s@%.100s", what, c->id, hex,
		strchr(from, '@') + 1);
}

/* The Message-ID of player's last accepted orders mail of turn (a new string), or NULL. */
static char *orders_mail(struct campaign *c, int turn, const char *player)
{
	struct journal_submission *subs = NULL;
	size_t n = 0;
	char *id = NULL;
	if (journal_submissions(c->journal, turn, &subs, &n) < 0) {
		error_clear();
		return NULL;
	}
	for (size_t k = 0; k < n; k++)
		if (subs[k].accepted && subs[k].player && strcmp(subs[k].player, player) == 0 &&
			subs[k].message_id && strncmp(subs[k].message_id, "sha256:", 7) != 0) {
			free(id);
			id = xstrdup(subs[k].message_id);
		}
	journal_submissions_free(subs, n);
	return id;
}

/* Queues n to player i (who has an address) as KIND-NNNN-PLAYER: in the thread of his
 * orders mail of that turn when there is one, else in one thread per turn and player.
 * 0 / -1. */
/* Set while a stand-in's welcome is queued (notify_standin): the names his briefing and
 * report go out under, so they are not the old player's names (sent, never queued again). */
static char name_prefix[48];

static int queue_notice(struct campaign *c, size_t i, const struct notice *n, long long now)
{
	const char *from = notify_from(c);
	char name[192], id[400], root[400], what[160];
	struct buf msg = BUF_INIT;

	snprintf(name, sizeof(name), "%s%s-%04d-%s", name_prefix, n->kind, n->turn, c->players[i]);
	notify_message_id(id, sizeof(id), c, name);
	snprintf(what, sizeof(what), "turn-%04d-%s", n->turn, c->players[i]);
	notify_message_id(root, sizeof(root), c, what);
	char *orders = n->turn > 0 ? orders_mail(c, n->turn, c->players[i]) : NULL;
	struct mail_out m = {
		.from = from,
		.to = c->pbem.contacts[i].emails[0],
		.subject = n->subject,
		.in_reply_to = orders,
		.references = orders ? NULL : root,
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
	free(orders);
	return rc;
}

static int has_address(const struct campaign *c, size_t i)
{
	return i < c->pbem.n_contacts && c->pbem.contacts[i].n_emails > 0;
}

/* Player's contribution template for turn (entropy players, a player not due: docs/
 * fairness.md, "Contributions"): campaign, turn, player and the `entropy:` placeholder, with
 * how to fill it in as comments. `umpire check` refuses it until the placeholder is filled in
 * (no entropy); filled in, it is the file the inbox takes. Appended to out. */
static void contribution_template(struct buf *out, const struct campaign *c, int turn,
	const char *player)
{
	buf_printf(out,
		"# Your contribution to turn %d of %s (docs/fairness.md, \"Contributions\"): you\n"
		"# are not due, so no orders; your entropy joins the turn's randomness.\n"
		"# 1. umpire nonce --campaign %s --turn %d --player %s > reveal-%04d.yaml\n"
		"#    draws your nonce: keep that file secret, and mail it once the turn is closed.\n"
		"# 2. Replace the placeholder after entropy: below with the entropy: value of that\n"
		"#    file (the SHA-256 of your nonce, 64 hex digits), and mail this file to\n"
		"#    %s before the turn closes.\n"
		"campaign: %s\nturn: %d\nplayer: %s\n"
		"entropy: # the SHA-256 'umpire nonce' prints\n",
		turn, c->id, c->id, turn, player, turn, notify_from(c), c->id, turn, player);
}

/* 1 if a contribution from a player who is not due counts in c (entropy players). */
static int takes_contributions(const struct campaign *c)
{
	return c->entropy == CAMPAIGN_ENTROPY_PLAYERS;
}

/* Player's receipt of close r: his file's raw SHA-256 from the closed file the umpire kept
 * (.umpire/closed/turn-NNNN/PLAYER.yaml) and, sealed, its salt from the secret, checked to
 * open the commitment the close holds. 0 / -1. */
static int close_receipt_of(struct campaign *c, const struct close_record *r, const char *player,
	const char *commit, struct buf *out)
{
	const struct close_order *o = close_find(r, player);
	uint8_t sha[FAIR_HASH_BYTES], salt[FAIR_HASH_BYTES], h[FAIR_HASH_BYTES];
	struct buf bytes = BUF_INIT;
	int sealed = c->visibility == CAMPAIGN_SEALED, rc = 0;

	if (o) {
		char *dir = turn_private_dir(c, "closed", r->turn);
		char *path = xasprintf("%s/%s.yaml", dir, player);
		rc = file_read(path, REPO_MAX_OBJECT_BYTES, &bytes);
		free(path);
		free(dir);
		if (rc == 0) {
			fair_sha256(sha, bytes.data, bytes.len);
			if (sealed) {
				rc = receipt_sealed_hashes(c, r->turn, player, bytes.data,
					bytes.len, salt, h);
			} else {
				memcpy(h, sha, FAIR_HASH_BYTES);
			}
			if (rc == 0 && memcmp(h, o->sha256, FAIR_HASH_BYTES) != 0)
				rc = error_set(ERROR_INPUT,
					"the closed file of %s for turn %d is not the one the close fixed",
					player, r->turn);
		}
	}
	if (rc == 0)
		receipt_close(out, r, c, player, o ? sha : NULL, o && sealed ? salt : NULL, commit);
	buf_release(&bytes);
	return rc;
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
		if (!has_address(c, i)) /* every player, due or not: each is a witness */
			continue;
		struct buf receipt = BUF_INIT, body = BUF_INIT;
		rc = close_receipt_of(c, &r, c->players[i], commit, &receipt);
		if (rc < 0) {
			buf_release(&receipt);
			break;
		}
		buf_printf(&body,
			"Turn %d of %s is closed: its orders are fixed before any die is known.\n"
			"Your receipt follows (also attached). Keep this mail as it came (save it as\n"
			"a .eml file): 'umpire verify DIR --receipt FILE' on a clone of the campaign\n"
			"shows the turn was resolved with exactly your file, and from the time your\n"
			"mail server received it, that the close was made before its randomness.\n\n",
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

int notify_reveal_receipt(struct campaign *c, int turn, const char *player,
	const uint8_t nonce[FAIR_HASH_BYTES], long long now)
{
	char file[64];
	size_t i;

	for (i = 0; i < c->n_players && strcmp(c->players[i], player) != 0; i++)
		;
	if (i == c->n_players || !has_address(c, i))
		return 1;
	struct buf receipt = BUF_INIT, body = BUF_INIT;
	receipt_reveal(&receipt, c->id, turn, player, nonce);
	buf_printf(&body,
		"Your nonce for turn %d of %s is in: it matches the entropy your orders committed\n"
		"to. Keep this mail as it came (.eml): should the turn journal \"no reveal from\n"
		"%s\", 'umpire verify DIR --receipt FILE' shows it was dropped.\n\n",
		turn, c->id, player);
	buf_append(&body, receipt.data, receipt.len);
	snprintf(file, sizeof(file), "reveal-receipt-%04d.yaml", turn);
	char *subject = xasprintf("[%s] turn %d: your reveal receipt", c->id, turn);
	struct notice nt = { "reveal-receipt", turn, subject, buf_str(&body),
		{ { file, receipt.data, receipt.len } }, 1 };
	int rc = queue_notice(c, i, &nt, now);
	free(subject);
	buf_release(&receipt);
	buf_release(&body);
	return rc;
}

/* What a report mail adds for a player not due on the next turn of a campaign that takes
 * contributions: his contribution template (contribution-NNNN.yaml, NNNN the next turn),
 * attached after the report's files, and a paragraph after the report in the body. The
 * report itself, committed or in his outbox, is not changed (verify compares those). */
struct next_contribution {
	int turn;        /* the next turn; 0: none to send */
	struct buf file; /* the template */
	char name[40];   /* contribution-NNNN.yaml */
};

static void add_contribution(struct notice *nt, struct buf *body, struct next_contribution *nc,
	const struct campaign *c)
{
	if (!nc || !nc->turn)
		return;
	buf_printf(body,
		"\n---\n\nYou are not due on turn %d, but %s takes every player's entropy: send your\n"
		"contribution for turn %d before it closes. Attached, %s is the file to\n"
		"send, its entropy: placeholder replaced as its comments say (docs/fairness.md,\n"
		"\"Contributions\"). A turn with fewer than two players' nonces is not proven fair.\n",
		nc->turn, c->id, nc->turn, nc->name);
	nt->body = buf_str(body);
	if (nt->n_attachments < MAIL_MAX_ATTACHMENTS)
		nt->attachments[nt->n_attachments++] = (struct mail_attachment){ nc->name,
			nc->file.data, nc->file.len };
}

/* Sealed: player i's private files of turn (.umpire/outbox/PLAYER/turn-NNNN, written by the
 * turn): his report as the body, it and his view, salt and own orders attached under names
 * of the turn (report-NNNN.md, view-NNNN.yaml, salt-NNNN.yaml, orders-NNNN.yaml, map-NNNN.svg), so saving
 * several turns' mails into one folder gives `umpire verify --view` its input; nc: his
 * contribution for the next turn, or NULL. 0 / -1. */
static int queue_sealed_report(struct campaign *c, size_t i, int turn, long long now,
	struct next_contribution *nc)
{
	static const char *const names[] = { "report.md", "state.yaml", "salt.yaml", "orders.yaml",
		LAYOUT_OUTBOX_MAP };
	static const char *const sent[] = { "report-%04d.md", "view-%04d.yaml", "salt-%04d.yaml",
		"orders-%04d.yaml", "map-%04d.svg" };
	struct buf files[5] = { BUF_INIT, BUF_INIT, BUF_INIT, BUF_INIT, BUF_INIT };
	char as[5][32];
	struct notice nt = { "report", turn, NULL, NULL, { { 0 } }, 0 };
	char *pdir;
	int rc = 0;

	pdir = xasprintf("%s/.umpire/outbox/%s/" LAYOUT_TAG_PREFIX "%04d", c->dir, c->players[i],
		turn);
	for (size_t k = 0; k < 5; k++) {
		char *path = xasprintf("%s/%s", pdir, names[k]);
		snprintf(as[k], sizeof(as[k]), sent[k], turn);
		if (file_read(path, REPO_MAX_OBJECT_BYTES, &files[k]) == 0)
			nt.attachments[nt.n_attachments++] = (struct mail_attachment){ as[k],
				files[k].data, files[k].len };
		else if (k == 0)
			rc = ERROR_NOTFOUND;
		free(path);
	}
	error_clear();
	if (rc == 0) {
		char *subject = xasprintf("[%s] turn %d: your report", c->id, turn);
		struct buf body = BUF_INIT;
		buf_puts(&body, buf_str(&files[0]));
		nt.subject = subject;
		nt.body = buf_str(&files[0]);
		add_contribution(&nt, &body, nc, c);
		rc = queue_notice(c, i, &nt, now);
		free(subject);
		buf_release(&body);
	}
	for (size_t k = 0; k < 5; k++)
		buf_release(&files[k]);
	free(pdir);
	return rc;
}

/* Open: player i's committed report of turn, the body and an attachment; nc: his
 * contribution for the next turn, or NULL. 0, ERROR_NOTFOUND when he has none, -1. */
static int queue_open_report(struct campaign *c, size_t i, int turn, long long now,
	struct next_contribution *nc)
{
	char tag[LAYOUT_TAG_MAX], path[LAYOUT_PATH_MAX], file[64], mapfile[64], sharedfile[64];
	struct buf report = BUF_INIT, map = BUF_INIT, shared = BUF_INIT;
	int rc;

	layout_tag(tag, turn);
	layout_report_path(path, turn, c->players[i]);
	rc = repo_read(c->repo, tag, path, &report);
	if (rc == 0) {
		snprintf(file, sizeof(file), "report-%04d.md", turn);
		char *subject = xasprintf("[%s] turn %d: your report", c->id, turn);
		struct notice nt = { "report", turn, subject, buf_str(&report),
			{ { file, report.data, report.len } }, 1 };
		/* His map beside it, when the rule system draws one. */
		layout_map_path(path, turn, c->players[i]);
		snprintf(mapfile, sizeof(mapfile), "turn-%04d-%s.svg", turn, c->players[i]);
		int has_map = repo_read(c->repo, tag, path, &map) == 0;
		/* A big turn's shared report and map (docs/formats.md "Shared reports"), which
		 * his report links: attached, the map in his own map's place when he has none. */
		layout_public_map_path(path, turn);
		if (!has_map)
			has_map = repo_read(c->repo, tag, path, &map) == 0;
		if (has_map)
			nt.attachments[nt.n_attachments++] = (struct mail_attachment){ mapfile,
				map.data, map.len };
		layout_public_report_path(path, turn);
		snprintf(sharedfile, sizeof(sharedfile), "turn-%04d.md", turn);
		if (repo_read(c->repo, tag, path, &shared) == 0)
			nt.attachments[nt.n_attachments++] = (struct mail_attachment){ sharedfile,
				shared.data, shared.len };
		error_clear();
		struct buf body = BUF_INIT;
		buf_puts(&body, buf_str(&report));
		add_contribution(&nt, &body, nc, c);
		rc = queue_notice(c, i, &nt, now);
		free(subject);
		buf_release(&body);
	}
	buf_release(&report);
	buf_release(&map);
	buf_release(&shared);
	return rc;
}

/* Whether player i, in the state after turn (read from its tag), is not due on turn + 1 of a
 * game that goes on, in a campaign that takes contributions: then nc holds his template.
 * A state that cannot be read gives none (the report goes out as ever). */
static void next_contribution_of(struct campaign *c, const void *state, size_t i, int turn,
	struct next_contribution *nc)
{
	nc->turn = 0;
	buf_clear(&nc->file);
	if (!state || c->rules->player_due(&c->rc, state, turn + 1, c->players[i]))
		return;
	nc->turn = turn + 1;
	snprintf(nc->name, sizeof(nc->name), "contribution-%04d.yaml", nc->turn);
	contribution_template(&nc->file, c, nc->turn, c->players[i]);
}

/* The state after turn when its players may send contributions for turn + 1 (a game that
 * goes on, entropy players), else NULL; free with c->rules->state_free. */
static void *state_for_contributions(struct campaign *c, int turn, const char *tag)
{
	void *state = NULL;
	char *over = NULL;
	int at;
	if (!takes_contributions(c))
		return NULL;
	if (campaign_load_state(c, tag, &at, &state) < 0 || inbox_game_over(c, &over) < 0 || over ||
		(c->rules->game_over && c->rules->game_over(&c->rc, state, turn + 1, NULL))) {
		if (state)
			c->rules->state_free(state);
		state = NULL;
	}
	free(over);
	error_clear();
	return state;
}

int notify_reports(struct campaign *c, int turn, long long now, size_t *n)
{
	char tag[LAYOUT_TAG_MAX];
	int rc = 0;

	*n = 0;
	layout_tag(tag, turn);
	if (!repo_has(c->repo, tag))
		return ERROR_NOTFOUND;
	void *state = state_for_contributions(c, turn, tag);
	struct next_contribution nc = { 0, BUF_INIT, "" };
	for (size_t i = 0; i < c->n_players && rc >= 0; i++) {
		if (!has_address(c, i))
			continue;
		next_contribution_of(c, state, i, turn, &nc);
		rc = c->visibility == CAMPAIGN_SEALED ? queue_sealed_report(c, i, turn, now, &nc) :
							queue_open_report(c, i, turn, now, &nc);
		*n += rc == 0;
		if (rc == ERROR_NOTFOUND)
			rc = 0;
	}
	buf_release(&nc.file);
	if (state)
		c->rules->state_free(state);
	return rc < 0 ? -1 : 0;
}

/* Player i's briefing: report and map, from his outbox folder (sealed) or the Setup's tag
 * (open). 0, ERROR_NOTFOUND when there is none, -1. */
static int queue_briefing(struct campaign *c, size_t i, long long now)
{
	char tag[LAYOUT_TAG_MAX], rp[LAYOUT_PATH_MAX], mp[LAYOUT_PATH_MAX];
	struct buf report = BUF_INIT, map = BUF_INIT;
	int rc;

	layout_tag(tag, 0);
	if (c->visibility == CAMPAIGN_SEALED) {
		char *dir = xasprintf("%s/.umpire/outbox/%s/" LAYOUT_OUTBOX_BRIEFING, c->dir,
			c->players[i]);
		char *path = xasprintf("%s/report.md", dir);
		rc = file_read(path, REPO_MAX_OBJECT_BYTES, &report) == 0 ? 0 : ERROR_NOTFOUND;
		free(path);
		path = xasprintf("%s/%s", dir, LAYOUT_OUTBOX_MAP);
		if (rc == 0 && file_read(path, REPO_MAX_OBJECT_BYTES, &map) < 0)
			buf_clear(&map);
		free(path);
		free(dir);
	} else {
		layout_report_path(rp, 0, c->players[i]);
		layout_map_path(mp, 0, c->players[i]);
		rc = repo_read(c->repo, tag, rp, &report) == 0 ? 0 : ERROR_NOTFOUND;
		if (rc == 0 && repo_read(c->repo, tag, mp, &map) < 0)
			buf_clear(&map);
	}
	error_clear();
	if (rc == 0) {
		char *subject = xasprintf("[%s] your briefing: the table before turn 1", c->id);
		struct notice nt = { "briefing", 0, subject, buf_str(&report),
			{ { "briefing.md", report.data, report.len } }, 1 };
		if (map.len)
			nt.attachments[nt.n_attachments++] = (struct mail_attachment){
				"briefing.svg", map.data, map.len
			};
		rc = queue_notice(c, i, &nt, now);
		free(subject);
	}
	buf_release(&report);
	buf_release(&map);
	return rc;
}

int notify_briefings(struct campaign *c, long long now, size_t *n)
{
	int rc = 0;

	*n = 0;
	for (size_t i = 0; i < c->n_players && rc >= 0; i++) {
		if (!has_address(c, i))
			continue;
		rc = queue_briefing(c, i, now);
		*n += rc == 0;
		if (rc == ERROR_NOTFOUND)
			rc = 0;
	}
	return rc < 0 ? -1 : 0;
}

/* The reminder to player i, not due on turn of a campaign that takes contributions, who has
 * sent no contribution: what it is for, the deadline, and his template in the body and
 * attached (contribution-NNNN.yaml). 0 / -1. */
static int remind_contribution(struct campaign *c, size_t i, int turn, const char *deadline,
	long long now)
{
	struct buf body = BUF_INIT, file = BUF_INIT;
	char name[40];
	contribution_template(&file, c, turn, c->players[i]);
	snprintf(name, sizeof(name), "contribution-%04d.yaml", turn);
	buf_printf(&body,
		"umpire has no contribution from you (%s) for turn %d of %s yet. You are not\n"
		"due on turn %d, so you send no orders; but this campaign's dice take every\n"
		"player's entropy, and the turn's close needs your contribution for them to be\n"
		"more than the due players' and the umpire's (a turn with fewer than two players'\n"
		"nonces is not proven fair: docs/fairness.md, \"Contributions\").\n%s%s%s"
		"Send this file to %s, attached or in the body, its entropy: placeholder\n"
		"replaced as its comments say (also attached: %s):\n\n",
		c->players[i], turn, c->id, turn, deadline ? "The deadline is " : "",
		deadline ? deadline : "", deadline ? ".\n" : "", notify_from(c), name);
	buf_append(&body, file.data, file.len);
	char *subject = xasprintf("[%s] turn %d: your contribution is missing", c->id, turn);
	struct notice nt = { "remind", turn, subject, buf_str(&body),
		{ { name, file.data, file.len } }, 1 };
	int rc = queue_notice(c, i, &nt, now);
	free(subject);
	buf_release(&body);
	buf_release(&file);
	return rc;
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
	struct missed *m = xcalloc(c->n_players + 1, sizeof(*m));
	struct buf missed = BUF_INIT;
	if (missed_count(m, c, turn) < 0)
		rc = -1;
	for (size_t i = 0; i < s.n_players && rc == 0 && !s.closed && !s.game_over; i++) {
		if (s.players[i].sent || !has_address(c, i))
			continue;
		if (!s.players[i].due) {
			/* entropy players: the player not due is reminded of his contribution */
			if (takes_contributions(c)) {
				rc = remind_contribution(c, i, turn, dl >= 0 ? when : NULL, now);
				*n += rc == 0;
			}
			continue;
		}
		buf_clear(&missed);
		missed_remind(&missed, c, missed_find(m, c, c->players[i]));
		char *subject = xasprintf("[%s] turn %d: your orders are missing", c->id, turn);
		char *body = xasprintf(
			"umpire has no orders from you (%s) for turn %d of %s yet.\n%s%s%s%s"
			"Send your order file to %s, attached or in the body.\n",
			c->players[i], turn, c->id, dl >= 0 ? "The deadline is " : "",
			dl >= 0 ? when : "", dl >= 0 ? ".\n" : "", buf_str(&missed),
			c->pbem.mail.from ? c->pbem.mail.from : "the umpire");
		struct notice nt = { "remind", turn, subject, body, { { 0 } }, 0 };
		rc = queue_notice(c, i, &nt, now);
		*n += rc == 0;
		free(subject);
		free(body);
	}
	buf_release(&missed);
	free(m);
	inbox_status_release(&s);
	return rc;
}

int notify_game_end(struct campaign *c, const char *why, const char *result, long long now,
	size_t *n)
{
	char tag[LAYOUT_TAG_MAX];
	int last, rc = 0;

	*n = 0;
	if (journal_last_turn(c->journal, &last) < 0)
		return -1;
	layout_tag(tag, last);
	int revealed = repo_has(c->repo, LAYOUT_REVEAL_TAG);
	const char *remote = c->pbem.publish.remote;
	for (size_t i = 0; i < c->n_players && rc == 0; i++) {
		if (!has_address(c, i))
			continue;
		struct buf body = BUF_INIT;
		buf_printf(&body, "The game of %s is over: %s.\nThe result: %s.\n\n", c->id, why,
			result);
		buf_printf(&body, "Its last turn is %d (tag %s).\n", last, tag);
		if (c->visibility == CAMPAIGN_SEALED && revealed)
			buf_printf(&body,
				"Everything the sealed turns withheld (every order file, state and salt) is\n"
				"published in the commit tagged '%s'.\n",
				LAYOUT_REVEAL_TAG);
		else if (c->visibility == CAMPAIGN_SEALED)
			buf_printf(&body,
				"What the sealed turns withheld is published once the umpire runs\n"
				"'umpire reveal': the commit tagged '%s'.\n",
				LAYOUT_REVEAL_TAG);
		buf_printf(&body,
			"\nTo verify the whole game yourself:\n\n"
			"  git clone %s %s\n"
			"  git -C %s fetch --tags\n"
			"  umpire verify %s\n"
			"  node tools/umpire-verify.mjs %s    (the independent verifier, JavaScript;\n"
			"  or the verifier page, build/web/index.html, in a browser)\n\n"
			"Both re-check every key, die and turn from the public history%s.\n",
			remote ? remote : "REMOTE", c->id, c->id, c->id, c->id,
			revealed ? ", and re-run every turn in full from the reveal" : "");
		struct buf why_not = BUF_INIT;
		if (campaign_unproven(c, &why_not))
			buf_printf(&body,
				"\nNot provably fair: %s. The verifiers will end 'consistent, not proven\n"
				"fair', never 'fair'.\n",
				buf_str(&why_not));
		else
			buf_printf(&body,
				"\nGive each with --receipt every receipt mail you kept, as it came (.eml),\n"
				"and --receipts-of YOU: with a witness of every close the verdict is 'fair'.\n");
		buf_release(&why_not);
		char *subject = xasprintf("[%s] the game is over", c->id);
		struct notice nt = { "end", 0, subject, buf_str(&body), { { 0 } }, 0 };
		rc = queue_notice(c, i, &nt, now);
		*n += rc == 0;
		free(subject);
		buf_release(&body);
	}
	return rc;
}

/* Time-locked orders (docs/fairness.md, "Schedule changes after a player sealed"): the round
 * turn's orders are sealed to now, and for player, whose file for the turn the inbox holds
 * already, what becomes of it when the change moved that round. Appended to body. */
static void override_rounds(struct campaign *c, size_t k, size_t i, struct buf *body)
{
	const struct override *o = &c->pbem.overrides[k];
	long long now = campaign_turn_round(c, o->turn), was, sealed;
	char at[32], chain[65];

	if (!c->orders_timelocked || now < 1 || override_is_seat_or_end(o->kind))
		return;
	pbem_format_utc(at, sizeof at, close_round_at(c, now));
	buf_printf(body,
		"\n\nTurn %d's orders are time-locked to beacon round %lld now (out at %s): seal\n"
		"them to that round (umpire seal ORDERS --campaign CLONE --round %lld, or the sealing\n"
		"page of the campaign's pages once they are built again).",
		o->turn, now, at, now);
	char *dir = inbox_turn_dir(c, o->turn);
	char *path = xasprintf("%s/%s.yaml", dir, c->players[i]);
	struct buf f = BUF_INIT;
	if (file_read(path, 2 * ORDER_FILE_MAX_BYTES, &f) == 0 &&
		timelock_inspect(f.data ? f.data : "", f.len, &sealed, chain) == 0 &&
		sealed != now) {
		was = sealed;
		pbem_format_utc(at, sizeof at, close_round_at(c, was));
		buf_printf(body,
			"\n\nYour time-locked orders for turn %d, accepted already, are sealed to round %lld,\n"
			"out at %s: %s. At the close only a file sealed to round %lld\n"
			"counts: this one would count as no orders. Seal your orders again to round %lld\n"
			"and send them; the new file replaces the old.",
			o->turn, was, at,
			was < now ?
				"before the turn's new close, so anyone can read them from then on" :
				"after the turn's close, which moved earlier",
			now, now);
	}
	error_clear();
	buf_release(&f);
	free(path);
	free(dir);
}

int notify_override(struct campaign *c, size_t k, long long now, size_t *n)
{
	const struct override *o = &c->pbem.overrides[k];
	struct buf body = BUF_INIT, mine = BUF_INIT;
	char kind[32], when[32];
	int rc = 0;

	*n = 0;
	buf_printf(&body, "The umpire of %s recorded a change:\n\n  ", c->id);
	override_describe(&body, o);
	long long dl = pbem_deadline(&c->pbem, o->turn);
	if (dl >= 0) {
		pbem_format_utc(when, sizeof when, dl);
		buf_printf(&body,
			"\n\nTurn %d's deadline is now %s; every later deadline moves with it.",
			o->turn, when);
	}
	snprintf(kind, sizeof kind, "override-%zu", k + 1);
	char *subject = xasprintf("[%s] turn %d: %s", c->id, o->turn,
		o->kind == OVERRIDE_EXTEND ? "deadline extended" :
		o->kind == OVERRIDE_PAUSE  ? "the campaign is paused" :
		o->kind == OVERRIDE_RESUME ? "the campaign resumes" :
					     "a seat changes hands");
	for (size_t i = 0; i < c->n_players && rc == 0; i++) {
		if (!has_address(c, i))
			continue;
		buf_clear(&mine);
		buf_puts(&mine, buf_str(&body));
		override_rounds(c, k, i, &mine);
		buf_printf(&mine,
			"\n\nThe close of turn %d commits it (journal/turn-%04d.close.yaml, 'overrides:'),\n"
			"and 'umpire verify' checks that it moved no deadline that had passed when it was\n"
			"made. 'umpire log DIR --umpire' lists every override of the campaign.\n",
			o->turn, o->turn);
		struct notice nt = { kind, o->turn, subject, buf_str(&mine), { { 0 } }, 0 };
		rc = queue_notice(c, i, &nt, now);
		*n += rc == 0;
	}
	free(subject);
	buf_release(&body);
	buf_release(&mine);
	return rc;
}

int notify_standin(struct campaign *c, size_t i, int turn, long long now, size_t *n)
{
	int rc = 0;

	*n = 0;
	if (!has_address(c, i))
		return 0;
	snprintf(name_prefix, sizeof name_prefix, "standin-%04d-", turn);
	rc = queue_briefing(c, i, now);
	*n += rc == 0;
	if (rc >= 0 && turn > 1) {
		rc = c->visibility == CAMPAIGN_SEALED ?
			     queue_sealed_report(c, i, turn - 1, now, NULL) :
			     queue_open_report(c, i, turn - 1, now, NULL);
		*n += rc == 0;
	}
	name_prefix[0] = '\0';
	return rc < 0 && rc != ERROR_NOTFOUND ? -1 : 0;
}
