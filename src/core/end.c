/* end.c — a game ended early by a concession or the umpire's ruling (end.h): the events
 * that record it, and the result named from them. */
#include <stdlib.h>
#include <string.h>

#include "core/end.h"
#include "core/audit.h"
#include "core/campaign.h"
#include "core/diag.h"
#include "core/error.h"
#include "core/events.h"
#include "core/journal.h"
#include "core/schedule.h"
#include "core/turn.h"
#include "core/banned.h"

static const char concedes[] = " concedes";
static const char umpire_ends[] = "the umpire ends the game: ";

void end_add_events(struct turn *t)
{
	for (size_t i = 0; i < t->in.n_files; i++)
		if (t->in.files[i].concede && t->in.files[i].player)
			events_add(&t->out.events, END_PHASE, "%s%s", t->in.files[i].player,
				concedes);
	const struct override *o = schedule_end(t->c, t->in.turn);
	if (o && o->player)
		events_add(&t->out.events, END_PHASE, "%s%s wins: %s", umpire_ends, o->player,
			o->reason ? o->reason : "");
	else if (o)
		events_add(&t->out.events, END_PHASE, "%sa draw: %s", umpire_ends,
			o->reason ? o->reason : "");
}

/* c's own string for player id s (n bytes), or NULL. */
static const char *player_of(const struct campaign *c, const char *s, size_t n)
{
	for (size_t i = 0; i < c->n_players; i++)
		if (strlen(c->players[i]) == n && strncmp(c->players[i], s, n) == 0)
			return c->players[i];
	return NULL;
}

int end_of_events(const struct campaign *c, int turn, const struct event *v, size_t n,
	struct buf *why, struct buf *result, const char **winner)
{
	const char *w = NULL, *ruled = NULL, *conceded[64];
	size_t n_conceded = 0;

	for (size_t i = 0; i < n; i++) {
		if (v[i].kind != EVENT_EVENT || strcmp(v[i].phase, END_PHASE) != 0)
			continue;
		size_t len = strlen(v[i].text);
		if (strncmp(v[i].text, umpire_ends, sizeof umpire_ends - 1) == 0)
			ruled = v[i].text + sizeof umpire_ends - 1;
		else if (len > sizeof concedes - 1 && n_conceded < 64 &&
			 strcmp(v[i].text + len - (sizeof concedes - 1), concedes) == 0)
			conceded[n_conceded++] = player_of(c, v[i].text,
				len - (sizeof concedes - 1));
	}
	if (!ruled && !n_conceded)
		return 0;
	if (ruled) {
		/* "P wins: REASON" or "a draw: REASON", as the umpire gave it */
		const char *sp = strstr(ruled, " wins: ");
		w = sp ? player_of(c, ruled, (size_t)(sp - ruled)) : NULL;
		if (why)
			buf_printf(why, "the umpire ended the game on turn %d", turn);
		if (result)
			buf_printf(result, "%s (the umpire's ruling)", ruled);
	} else {
		/* The side that did not concede wins; with none or several left, a draw. */
		size_t left = 0;
		for (size_t i = 0; i < c->n_players; i++) {
			int gave_up = 0;
			for (size_t k = 0; k < n_conceded; k++)
				gave_up |= conceded[k] == c->players[i];
			if (!gave_up) {
				w = c->players[i];
				left++;
			}
		}
		if (left != 1)
			w = NULL;
		if (why)
			buf_printf(why, "%s conceded on turn %d",
				conceded[0] ? conceded[0] : "a side", turn);
		if (result && w)
			buf_printf(result, "%s wins: %s conceded on turn %d", w,
				conceded[0] ? conceded[0] : "a side", turn);
		else if (result)
			buf_printf(result, "a draw: every side conceded on turn %d", turn);
	}
	if (winner)
		*winner = w;
	return 1;
}

int end_of_turn(struct campaign *c, int last, struct buf *why, struct buf *result,
	const char **winner)
{
	struct journal_record *ex = NULL;
	struct buf bytes = BUF_INIT;
	struct diag d;
	int ended = 0;

	if (last < 1)
		return 0;
	diag_init(&d);
	if (audit_read_export(&ex, c, last, &bytes, &d) == 0)
		ended = end_of_events(c, last, ex->events, ex->n_events, why, result, winner);
	error_clear();
	diag_release(&d);
	journal_record_free(ex);
	buf_release(&bytes);
	return ended;
}
