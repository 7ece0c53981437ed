/* missed.c — turns missed per seat, in a row and in all, and civil disorder, derived from the
 * committed closes and journal exports (missed.h). No game and no mail here: who was due is
 * what the record says (a close's lists, the export's "no orders from P" events). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/missed.h"
#include "core/buf.h"
#include "core/audit.h"
#include "core/campaign.h"
#include "core/close.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/events.h"
#include "core/layout.h"
#include "core/repo.h"
#include "core/schedule.h"
#include "core/turn.h"
#include "core/banned.h"

static int player_index(const struct campaign *c, const char *player)
{
	for (size_t i = 0; i < c->n_players; i++)
		if (strcmp(c->players[i], player) == 0)
			return (int)i;
	return -1;
}

static int marks_from_close(struct campaign *c, int n, enum missed_mark *marks)
{
	struct close_record r;
	char commit[41];
	int rc = turn_read_close(c, n, &r, commit, NULL);

	if (rc != 0)
		return rc;
	for (size_t i = 0; i < r.n_orders; i++) {
		int k = player_index(c, r.orders[i].player);
		if (k >= 0)
			marks[k] = MISSED_SENT;
	}
	for (size_t i = 0; i < r.n_missing; i++) {
		int k = player_index(c, r.missing[i]);
		if (k >= 0)
			marks[k] = MISSED_MISSED;
	}
	close_release(&r);
	return 0;
}

static int marks_from_export(struct campaign *c, int n, enum missed_mark *marks)
{
	struct journal_record *rec = NULL;
	struct diag d;

	diag_init(&d);
	int rc = audit_read_export(&rec, c, n, NULL, &d);
	diag_release(&d);
	if (rc != 0)
		return rc;
	for (size_t i = 0; i < rec->n_orders; i++) {
		int k = player_index(c, rec->orders[i].player);
		if (k >= 0 && rec->orders[i].has_file)
			marks[k] = MISSED_SENT;
	}
	for (size_t i = 0; i < rec->n_events; i++) {
		const struct event *e = &rec->events[i];
		if (e->kind != EVENT_EVENT || strcmp(e->phase, "orders") != 0)
			continue;
		/* Exactly EVENTS_NO_ORDERS: a file that gives no orders (EVENTS_VOID_FILE) was
		 * sent, not missed. */
		for (size_t k = 0; k < c->n_players; k++)
			if (events_is_no_orders(e->text, c->players[k]) && marks[k] != MISSED_SENT)
				marks[k] = MISSED_MISSED;
	}
	journal_record_free(rec);
	return 0;
}

/* What each turn's record said, kept for the process: verify and every report read the
 * history again and again. An entry stands only while the tag it was read at (close-NNNN,
 * else turn-NNNN) still names the same commit of the same campaign folder. */
struct marks_memo {
	char *dir;               /* the campaign folder the entry was read in */
	char commit[41];         /* the tag's commit */
	size_t n;                /* players */
	enum missed_mark *marks; /* what the record said */
};
static struct marks_memo *memo;
static size_t n_memo;

static int memo_find(struct campaign *c, int n, char commit[41])
{
	char tag[LAYOUT_TAG_MAX];

	layout_close_tag(tag, n);
	int rc = repo_commit_id(c->repo, tag, commit);
	if (rc == ERROR_NOTFOUND) {
		layout_tag(tag, n);
		rc = repo_commit_id(c->repo, tag, commit);
	}
	if (rc != 0) {
		commit[0] = '\0';
		error_clear();
		return 0;
	}
	const struct marks_memo *m = (size_t)n < n_memo ? &memo[n] : NULL;
	return m && m->dir && strcmp(m->dir, c->dir) == 0 && strcmp(m->commit, commit) == 0 &&
	       m->n == c->n_players;
}

static void memo_keep(struct campaign *c, int n, const char commit[41],
	const enum missed_mark *marks)
{
	if ((size_t)n >= n_memo) {
		size_t want = (size_t)n + 64;
		memo = xrealloc(memo, want * sizeof(*memo));
		memset(memo + n_memo, 0, (want - n_memo) * sizeof(*memo));
		n_memo = want;
	}
	struct marks_memo *m = &memo[n];
	free(m->dir);
	free(m->marks);
	m->dir = xstrdup(c->dir);
	memcpy(m->commit, commit, 41);
	m->n = c->n_players;
	m->marks = xcalloc(c->n_players + 1, sizeof(*m->marks));
	memcpy(m->marks, marks, c->n_players * sizeof(*marks));
}

int missed_turn_marks(struct campaign *c, int n, enum missed_mark *marks)
{
	char commit[41] = "";

	if (memo_find(c, n, commit)) {
		memcpy(marks, memo[n].marks, c->n_players * sizeof(*marks));
		return 0;
	}
	for (size_t i = 0; i < c->n_players; i++)
		marks[i] = MISSED_NOT_DUE;
	/* The close fixed the turn's inputs first: its lists are the record of who sent. */
	int rc = marks_from_close(c, n, marks);
	if (rc == ERROR_NOTFOUND)
		rc = marks_from_export(c, n, marks);
	if (rc == 0 && commit[0])
		memo_keep(c, n, commit, marks);
	return rc;
}

/* Folds turn n's marks into out. */
static void fold(struct missed *out, const struct campaign *c, int n, const enum missed_mark *marks)
{
	for (size_t i = 0; i < c->n_players; i++) {
		struct missed *m = &out[i];
		if (n == seat_new_player_from(c, c->players[i]))
			m->in_row = 0;
		if (marks[i] == MISSED_SENT)
			m->in_row = 0;
		else if (marks[i] == MISSED_MISSED) {
			m->in_row++;
			m->total++;
			m->last = n;
		}
	}
}

static void set_disorder(struct missed *out, const struct campaign *c)
{
	int n_cd = c->pbem.schedule.civil_disorder;
	for (size_t i = 0; i < c->n_players; i++)
		out[i].disorder = n_cd > 0 && out[i].in_row >= n_cd;
}

/* Turns 1..upto into out (cleared first); a turn with no record ends the count. */
static int count_upto(struct missed *out, struct campaign *c, int upto)
{
	enum missed_mark *marks = xcalloc(c->n_players + 1, sizeof(*marks));
	int rc = 0;

	memset(out, 0, c->n_players * sizeof(*out));
	for (int n = 1; n <= upto; n++) {
		rc = missed_turn_marks(c, n, marks);
		if (rc == ERROR_NOTFOUND) {
			error_clear();
			rc = 0;
			break;
		}
		if (rc < 0)
			break;
		fold(out, c, n, marks);
	}
	free(marks);
	return rc;
}

int missed_count(struct missed *out, struct campaign *c, int upto)
{
	int rc = count_upto(out, c, upto);
	set_disorder(out, c);
	return rc;
}

int missed_count_turn(struct missed *out, struct campaign *c, const struct turn_input *in)
{
	enum missed_mark *marks = xcalloc(c->n_players + 1, sizeof(*marks));
	int rc = count_upto(out, c, in->turn - 1);

	for (size_t i = 0; i < c->n_players; i++)
		marks[i] = turn_find_file(in, c->players[i])  ? MISSED_SENT :
			   turn_is_missing(in, c->players[i]) ? MISSED_MISSED :
								MISSED_NOT_DUE;
	fold(out, c, in->turn, marks);
	set_disorder(out, c);
	free(marks);
	return rc;
}

const struct missed *missed_find(const struct missed *out, const struct campaign *c,
	const char *player)
{
	int k = player_index(c, player);
	return k < 0 ? NULL : &out[k];
}

void missed_remind(struct buf *out, const struct campaign *c, const struct missed *m)
{
	const struct pbem_schedule *sc = &c->pbem.schedule;

	if (!m || (!m->total && sc->civil_disorder <= 0))
		return;
	if (m->total)
		buf_printf(out, "Missed turns: %d in a row, %d in all.\n", m->in_row, m->total);
	buf_printf(out, "A missed turn plays your side's %s.\n",
		sc->missed == PBEM_MISSED_HOLD ? "hold orders" : "standing orders");
	if (m->disorder)
		buf_puts(out, "Your side is in civil disorder: it plays its hold orders until you "
			      "send orders again.\n");
	else if (sc->civil_disorder > 0)
		buf_printf(out,
			"After %d missed in a row your side is in civil disorder and plays its "
			"hold orders until you send orders again.\n",
			sc->civil_disorder);
}

int missed_any(const struct missed *m, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (m[i].total)
			return 1;
	return 0;
}

void missed_describe(struct buf *out, const struct missed *m)
{
	buf_printf(out, "%d in a row, %d in all", m->in_row, m->total);
	if (m->disorder)
		buf_puts(out, " (civil disorder: hold orders)");
}

/* Turns seat k missed in a row before `turn`, back to turn `from`, at most cap. */
static int row_back(struct campaign *c, int k, int turn, int from, int cap)
{
	enum missed_mark *marks = xcalloc(c->n_players + 1, sizeof(*marks));
	int row = 0;

	for (int n = turn - 1; n >= 1 && n >= from && row < cap; n--) {
		int rc = missed_turn_marks(c, n, marks);
		if (rc != 0) {
			free(marks);
			return rc == ERROR_NOTFOUND ?
				       error_set(ERROR_INPUT, "turn %d: no record of turn %d", turn,
					       n) :
				       -1;
		}
		if (marks[k] == MISSED_SENT)
			break;
		if (marks[k] == MISSED_MISSED)
			row++;
	}
	free(marks);
	return row;
}

int missed_in_row_before(struct campaign *c, int turn, const char *player, int cap)
{
	int k = player_index(c, player);
	return k < 0 ? 0 : row_back(c, k, turn, seat_new_player_from(c, player), cap);
}

int missed_plan(struct missed_plan *out, struct campaign *c, int turn, const char *player, int sent)
{
	int n_cd = c->pbem.schedule.civil_disorder;
	int k = player_index(c, player);
	int from = seat_new_player_from(c, player);

	memset(out, 0, sizeof(*out));
	if (k < 0)
		return 0;
	out->hold = !sent && c->pbem.schedule.missed == PBEM_MISSED_HOLD;
	if (n_cd <= 0)
		return 0;
	/* A new player takes the seat this turn: the last one's run of misses ends here. */
	if (turn == from && turn > 1) {
		int before = row_back(c, k, turn, 1, n_cd);
		if (before < 0)
			return -1;
		if (before >= n_cd)
			snprintf(out->event, sizeof(out->event),
				"%s: civil disorder ends: a new player takes the seat", player);
	}
	int before = turn == from ? 0 : row_back(c, k, turn, from, n_cd);
	if (before < 0)
		return -1;
	if (sent) {
		/* The whole run, for the record: it ended at his last orders or his seat's change. */
		if (before >= n_cd)
			before = row_back(c, k, turn, from, TURN_MAX);
		if (before >= n_cd)
			snprintf(out->event, sizeof(out->event),
				"%s: civil disorder ends: orders accepted after %d turns missed in a row",
				player, before);
		return 0;
	}
	out->row = before + 1;
	if (out->row < n_cd)
		return 0;
	out->hold = 1;
	if (before + 1 == n_cd)
		snprintf(out->event, sizeof(out->event),
			"%s: civil disorder: %d turns missed in a row; the side plays its hold orders until its player sends orders again or a new player takes the seat",
			player, n_cd);
	else
		snprintf(out->event, sizeof(out->event),
			"%s: in civil disorder: the side plays its hold orders", player);
	return 0;
}

void missed_render(struct buf *b, struct campaign *c, const struct turn_input *in)
{
	/* Without a schedule the umpire closes each turn by hand and no deadline is missed; so
	 * a long campaign without one reads no history per turn (bench/run.sh's long campaign
	 * misses every turn by design). */
	if (!c->pbem.schedule.set)
		return;
	struct missed *m = xcalloc(c->n_players + 1, sizeof(*m));

	/* A history that cannot be read fails the turn elsewhere (step_resolve's plan). */
	if (missed_count_turn(m, c, in) < 0)
		error_clear();
	if (missed_any(m, c->n_players)) {
		buf_puts(b, "\n## Missed turns\n\n");
		for (size_t i = 0; i < c->n_players; i++) {
			if (!m[i].total)
				continue;
			buf_puts(b, "- ");
			escape_markdown(b, c->players[i]);
			buf_puts(b, ": ");
			missed_describe(b, &m[i]);
			buf_puts(b, "\n");
		}
	}
	free(m);
}
