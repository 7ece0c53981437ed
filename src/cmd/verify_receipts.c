/* verify_receipts.c — `umpire verify --receipt FILE` and `--receipts-of PLAYER`: the close
 * and reveal receipts umpire gave (bare or as the saved mail) against the history. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/audit.h"
#include "core/close.h"
#include "core/fair.h"
#include "core/receipt.h"
#include "mail/mail.h"
#include "cmd/verify.h"
#include "core/banned.h"

/* One --receipt, read: the receipt, and when given as the saved mail, when the player's own
 * mail server received it (docs/fairness.md, "Receipts"). */
struct given_receipt {
	const char *path;
	struct receipt r;
	int mail;              /* a saved mail, not the bare receipt text */
	long long received_at; /* its topmost Received: date; -1 none */
};

/* Reads path into g: a bare receipt (its first line "# umpire receipt"), or a saved mail
 * (.eml) whose .yaml attachment or body holds one. 0, or -1 (ERROR_INPUT) naming the file. */
static int read_receipt(struct given_receipt *g, const char *path)
{
	struct buf bytes = BUF_INIT, text = BUF_INIT;
	struct mail_saved m;
	struct diag d;
	int rc = -1;

	memset(g, 0, sizeof(*g));
	memset(&m, 0, sizeof(m));
	g->path = path;
	g->received_at = -1;
	diag_init(&d);
	if (file_read(path, MAIL_MAX_BYTES, &bytes) < 0) {
		error_set(ERROR_INPUT, "receipt %s: %s", path, error_last()->message);
		goto out;
	}
	if (receipt_find(buf_str(&bytes), bytes.len) == 0) {
		buf_append(&text, bytes.data, bytes.len);
	} else {
		long at;
		if (mail_saved_parse(&m, bytes.data, bytes.len) < 0 ||
			(at = receipt_find(m.text, m.text_len)) < 0) {
			error_set(ERROR_INPUT,
				"receipt %s: neither a receipt nor a mail holding one (a line '# umpire receipt' expected)",
				path);
			goto out;
		}
		g->mail = 1;
		g->received_at = m.has_received ? m.received_at : -1;
		if (m.has_received && m.received_at < 0) {
			error_set(ERROR_INPUT,
				"receipt %s: its topmost Received: header has no date umpire can read (RFC 5322, after the last ';')",
				path);
			goto out;
		}
		/* the receipt ends at a signature separator "-- " */
		const char *p = m.text + at;
		const char *sig = strstr(p, "\n-- \n");
		buf_append(&text, p, sig ? (size_t)(sig - p) + 1 : strlen(p));
	}
	if (receipt_parse(&g->r, path, &text, &d) < 0) {
		if (diag_count(&d))
			error_set(ERROR_INPUT, "%s:%d:%d: %s", d.v[0].file, d.v[0].line,
				d.v[0].column, d.v[0].message);
		else
			error_set(ERROR_INPUT, "receipt %s: %s", path, error_last()->message);
		goto out;
	}
	rc = 0;
out:
	mail_saved_release(&m);
	diag_release(&d);
	buf_release(&bytes);
	buf_release(&text);
	return rc;
}

/* 1 when the close commit id is main's close of turn t; 0 when main holds a close of turn t
 * (another one: a re-close); -1 when main ends before turn t's close (a truncated history). */
static int close_on_main(const struct verify *v, int t, const char *id)
{
	size_t at = 2 * (size_t)t - 1, closes_end = v->n_chain - (v->revealed ? 1 : 0);

	if (!v->closes)
		return 0; /* no close at all: the history has none of this receipt's */
	if (at >= closes_end)
		return -1;
	return strcmp(v->chain[at], id) == 0;
}

/* The receipt mail's arrival against its close (docs/fairness.md, "The verdict"): at or after
 * the close's closed_at and, under beacon, before its round's round_at; in that window it
 * witnesses the close. 0, or -1 (ERROR_INPUT). */
static int check_arrival(struct verify *v, const struct given_receipt *g,
	const struct close_record *r)
{
	char at[32], out[32];
	int t = g->r.turn;

	if (g->received_at < 0)
		return 0;
	pbem_format_utc(out, sizeof out, g->received_at);
	if (g->received_at < r->closed_at) {
		pbem_format_utc(at, sizeof at, r->closed_at);
		return error_set(ERROR_INPUT,
			"receipt %s: turn %d's close says it was made at %s, but this receipt reached your mail server at %s, before it: the close's time is not when it was made",
			g->path, t, at, out);
	}
	if (r->entropy == CAMPAIGN_ENTROPY_BEACON && r->round_at <= g->received_at) {
		pbem_format_utc(at, sizeof at, r->round_at);
		return error_set(ERROR_INPUT,
			"receipt %s: turn %d's close names beacon round %lld, out at %s, but this receipt reached your mail server at %s: the round's value was public before the close was receipted (a backdated close)",
			g->path, t, r->round, at, out);
	}
	const struct pbem_schedule *s = &v->c->pbem.schedule;
	if (r->entropy == CAMPAIGN_ENTROPY_BEACON && s->set &&
		s->missing == PBEM_MISSING_NO_ORDERS) {
		long long deadline = pbem_deadline(&v->c->pbem, t);
		if (g->received_at > deadline + s->grace + CLOSE_WITNESS_WINDOW) {
			pbem_format_utc(at, sizeof at, deadline);
			return error_set(ERROR_INPUT,
				"receipt %s: turn %d's close reached your mail server at %s, more than %d s after its deadline %s plus grace %lld s: time enough to see the outcome of a close at the deadline and close again (a re-close)",
				g->path, t, out, CLOSE_WITNESS_WINDOW, at, s->grace);
		}
	}
	if ((size_t)t < v->n_witnessed)
		v->witnessed[t] = 1;
	return 0;
}

/* A close receipt against the history: its close commit is main's close of its turn, which
 * fixed the same commitment for its player and the same D_t; given as the saved mail, it
 * arrived in its close's window (check_arrival). A close main does not hold yet is a reason
 * (history-lacks-close), not a failure. */
static int check_close_receipt(struct verify *v, const struct given_receipt *g)
{
	const struct receipt *rc_ = &g->r;
	struct close_record r;
	char id[41], hex[65], want[65], at[32], out[32];
	int rc = -1;

	memset(&r, 0, sizeof r);
	int on = close_on_main(v, rc_->turn, rc_->close_commit);
	if (on < 0) {
		v->lacking = xrealloc(v->lacking, (v->n_lacking + 1) * sizeof *v->lacking);
		v->lacking[v->n_lacking++] = rc_->turn;
		say(v, "receipt %s: turn %d was closed in commit %s, which this clone's main does not hold (it ends before turn %d's close)\n",
			g->path, rc_->turn, rc_->close_commit, rc_->turn);
		return 0;
	}
	int got = turn_read_close(v->c, rc_->turn, &r, id, NULL);
	if (got != 0)
		return error_set(ERROR_INPUT,
			"receipt %s: turn %d was closed in commit %s, but the history has no close-%04d: the history was rewritten",
			g->path, rc_->turn, rc_->close_commit, rc_->turn);
	const struct close_order *o = close_find(&r, rc_->player);
	uint8_t zero[FAIR_HASH_BYTES] = { 0 };
	hex_encode(hex, rc_->has_file ? rc_->commitment : zero, FAIR_HASH_BYTES);
	hex_encode(want, o ? o->sha256 : zero, FAIR_HASH_BYTES);
	if (!on || strcmp(id, rc_->close_commit) != 0)
		error_set(ERROR_INPUT,
			"receipt %s: turn %d was closed in commit %s, but the history's close-%04d is commit %s: the history was rewritten (a re-close)",
			g->path, rc_->turn, rc_->close_commit, rc_->turn, id);
	else if (strcmp(hex, want) != 0)
		error_set(ERROR_INPUT,
			"receipt %s: %s's file for turn %d has commitment %s on the receipt, %s in the close",
			g->path, rc_->player, rc_->turn, hex, want);
	else if (memcmp(r.digest, rc_->digest, FAIR_HASH_BYTES) != 0) {
		hex_encode(hex, rc_->digest, FAIR_HASH_BYTES);
		hex_encode(want, r.digest, FAIR_HASH_BYTES);
		error_set(ERROR_INPUT,
			"receipt %s: turn %d's orders digest is %s on the receipt, %s in the close",
			g->path, rc_->turn, hex, want);
	} else
		rc = check_arrival(v, g, &r);
	if (rc == 0 && g->received_at >= 0 && r.entropy == CAMPAIGN_ENTROPY_BEACON) {
		pbem_format_utc(out, sizeof out, g->received_at);
		pbem_format_utc(at, sizeof at, r.round_at);
		say(v, "receipt %s: ok: %s's orders for turn %d are the ones closed in %s; received %s, before beacon round %lld (out at %s)\n",
			g->path, rc_->player, rc_->turn, id, out, r.round, at);
	} else if (rc == 0) {
		say(v, "receipt %s: ok: %s's orders for turn %d are the ones closed in %s\n",
			g->path, rc_->player, rc_->turn, id);
		if (g->mail && g->received_at < 0)
			say(v, "note: receipt %s has no Received: header: when it arrived is not checked\n",
				g->path);
		else if (!g->mail)
			say(v, "note: receipt %s is the bare text, not the saved mail: when it arrived is not checked\n",
				g->path);
	}
	close_release(&r);
	return rc;
}

/* 1 if text holds words as a run of whole space-separated words (a trailing space in words
 * stands for the start of the next word). */
static int has_word_run(const char *text, const char *words)
{
	size_t n = strlen(words);
	for (const char *p = strstr(text, words); p; p = strstr(p + 1, words))
		if ((p == text || p[-1] == ' ') && (words[n - 1] == ' ' || !p[n] || p[n] == ' '))
			return 1;
	return 0;
}

/* A reveal receipt against the turn: the export's reveals text lists the player's nonce, not
 * his commitment standing in ("no reveal from P" while P holds the umpire's receipt). */
static int check_reveal_receipt(struct verify *v, const struct given_receipt *g)
{
	const struct receipt *rr = &g->r;
	struct journal_record *ex = NULL;
	struct buf bytes = BUF_INIT;
	struct diag d;
	char hex[65], *want;
	int rc = 0;

	hex_encode(hex, rr->nonce, FAIR_HASH_BYTES);
	diag_init(&d);
	int got = audit_read_export(&ex, v->c, rr->turn, &bytes, &d);
	diag_release(&d);
	buf_release(&bytes);
	if (got == ERROR_NOTFOUND) {
		say(v, "receipt %s: ok: %s's nonce for turn %d was taken; the turn is not resolved yet\n",
			g->path, rr->player, rr->turn);
		return 0;
	}
	if (got < 0)
		return -1;
	want = xasprintf("%s nonce %s", rr->player, hex);
	char *standing = xasprintf("%s committed ", rr->player);
	const char *bv = ex->beacon_value ? ex->beacon_value : "";
	if (!has_word_run(bv, want))
		rc = error_set(ERROR_INPUT,
			"receipt %s: the umpire took %s's nonce for turn %d (reveal receipt), but the turn's reveals %s: %s",
			g->path, rr->player, rr->turn,
			has_word_run(bv, standing) ?
				"stand his commitment in (\"no reveal from\" him)" :
				"do not list it",
			bv);
	else
		say(v, "receipt %s: ok: %s's nonce for turn %d is in the turn's reveals\n", g->path,
			rr->player, rr->turn);
	free(standing);
	free(want);
	journal_record_free(ex);
	return rc;
}

/* --receipts-of P: every close on main has P's close receipt among the files given: every
 * player gets the receipt of every close, due or not, so a close he holds none of was made
 * unseen (or a receipt was left out). */
static int check_receipts_complete(struct verify *v, const struct given_receipt *g, size_t n,
	const char *player)
{
	struct close_record r;
	char id[41];
	int rc = 0;

	for (int t = 1; rc == 0 && close_on_main(v, t, "") >= 0; t++) {
		int got = turn_read_close(v->c, t, &r, id, NULL);
		if (got < 0)
			return got == ERROR_NOTFOUND ? 0 : -1;
		size_t i;
		for (i = 0; i < n; i++)
			if (g[i].r.kind == RECEIPT_CLOSE && g[i].r.turn == t &&
				strcmp(g[i].r.player, player) == 0)
				break;
		if (i == n)
			rc = error_set(ERROR_INPUT,
				"receipts of %s: turn %d's close (commit %s) has no receipt of his among those given (every player gets the receipt of every close): a close he was never receipted (made or redone unseen), or a receipt left out",
				player, t, id);
		close_release(&r);
	}
	if (rc == 0)
		say(v, "receipts of %s: ok: a receipt for every close\n", player);
	return rc;
}

/* Every --receipt against the history, then every --receipts-of. 0 / -1. */
int check_receipts(struct verify *v)
{
	struct given_receipt *g = xcalloc(v->n_receipts + 1, sizeof(*g));
	size_t n = 0;
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < v->n_receipts; i++) {
		rc = read_receipt(&g[n], v->receipts[i]);
		if (rc < 0)
			break;
		n++;
		if (strcmp(g[n - 1].r.campaign, v->c->id) != 0)
			rc = error_set(ERROR_INPUT, "receipt %s is for campaign '%s', not '%s'",
				v->receipts[i], g[n - 1].r.campaign, v->c->id);
		else if (g[n - 1].r.kind == RECEIPT_CLOSE)
			rc = check_close_receipt(v, &g[n - 1]);
		else
			rc = check_reveal_receipt(v, &g[n - 1]);
	}
	for (size_t i = 0; rc == 0 && i < v->n_receipts_of; i++)
		rc = check_receipts_complete(v, g, n, v->receipts_of[i]);
	for (size_t i = 0; i < n; i++)
		receipt_release(&g[i].r);
	free(g);
	return rc;
}
