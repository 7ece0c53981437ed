/* events.c — Land Raid §18 Events: the 2D6 roll at the start of each player turn and its
 * five results, with the choices each side makes through its standing orders. An event
 * that cannot be carried out is no event that turn. */
#include <stdlib.h>
#include <string.h>

#include "rules/land-raid/landraid.h"
#include "core/banned.h"

static const char phase[] = "events";

typedef int (*square_pred)(const struct landraid_state *s, int sq);

/* The first square of pref that passes ok, else the first in A1 order; -1 if none. */
static int pick_square(const struct landraid_state *s, const struct landraid_squares *pref,
	square_pred ok)
{
	for (size_t i = 0; pref && i < pref->n; i++)
		if (pref->v[i] >= 0 && pref->v[i] < s->n_squares && ok(s, pref->v[i]))
			return pref->v[i];
	for (int sq = 0; sq < s->n_squares; sq++)
		if (ok(s, sq))
			return sq;
	return -1;
}

static int empty_square(const struct landraid_state *s, int sq)
{
	return landraid_count(s, sq, -1, LR_ALL_ROLES) == 0;
}

static int empty_dockside(const struct landraid_state *s, int sq)
{
	return s->kind[sq] == LR_DOCKSIDE && empty_square(s, sq);
}

static int free_garrison(const struct landraid_state *s, int sq)
{
	return s->kind[sq] == LR_GARRISON && landraid_count(s, sq, LR_ATTACKER, LR_ALL_ROLES) == 0;
}

static int scurvy_open(const struct landraid_state *s, int sq)
{
	return s->kind[sq] == LR_OPEN && landraid_count(s, sq, LR_ATTACKER, LR_ALL_ROLES) == 0;
}

/* 1 if k more bases fit in the state (LR_MAX_BASES, the bound the state file is read with). */
static int room_for(const struct landraid_state *s, int k)
{
	return landraid_count_side(s, LR_ATTACKER, LR_ALL_ROLES) +
		       landraid_count_side(s, LR_DEFENDER, LR_ALL_ROLES) + k <=
	       LR_MAX_BASES;
}

/* Appends ", id" of each base created since index from (for event texts). */
static void list_new(struct buf *b, const struct landraid_state *s, size_t from)
{
	for (size_t i = from; i < s->n_bases; i++)
		buf_printf(b, "%s%s", i == from ? "" : ", ", s->bases[i]->id);
}

/* §18: a new officer is possible while the side is below its original allowance and a
 * square with no bases in it exists. */
static int officer_possible(const struct landraid_state *s, int side)
{
	return landraid_count_side(s, side, LR_OFFICERS) < s->allowance[side] && room_for(s, 1) &&
	       pick_square(s, NULL, empty_square) >= 0;
}

static void new_officer(struct landraid_ctx *c, int side, const char *label)
{
	struct landraid_state *s = c->s;
	int sq = pick_square(s, &s->standing[side].officer_square, empty_square);
	struct landraid_base *b = landraid_base_new(s, side, LR_OFFICER, LR_ORDINARY, sq);
	events_add(c->ev, phase,
		"%s: a new %s officer, %s, takes position in %s (%d of %d "
		"allowed)",
		label, landraid_side_names[side], b->id, s->name[sq],
		landraid_count_side(s, side, LR_OFFICERS), s->allowance[side]);
}

static void new_scurvy(struct landraid_ctx *c, int chooser, const char *label)
{
	struct landraid_state *s = c->s;
	int sq = pick_square(s, &s->standing[chooser].scurvy_square, scurvy_open);
	size_t from = s->n_bases;
	struct buf b = BUF_INIT;
	for (int i = 0; i < 3; i++)
		landraid_base_new(s, LR_DEFENDER, LR_TROOPS, LR_SCURVY, sq);
	list_new(&b, s, from);
	events_add(c->ev, phase,
		"%s: 3 scurvy defender bases (%s) appear together in open "
		"square %s, placed by the %s",
		label, buf_str(&b), s->name[sq], landraid_side_names[chooser]);
	buf_release(&b);
}

/* Defender scurvy troop bases the attacker may remove (§18 11–12). */
static int count_scurvy(const struct landraid_state *s)
{
	int n = 0;
	for (size_t i = 0; i < s->n_bases; i++) {
		const struct landraid_base *b = s->bases[i];
		n += b->sq >= 0 && b->side == LR_DEFENDER && b->role == LR_TROOPS &&
		     b->quality == LR_SCURVY;
	}
	return n;
}

static void remove_scurvy(struct landraid_ctx *c, const char *label)
{
	struct landraid_state *s = c->s;
	const struct landraid_ids *pref = &s->standing[LR_ATTACKER].remove_scurvy;
	struct buf b = BUF_INIT;
	int removed = 0;
	/* The attacker's list first, then by id (bases are kept sorted by id). */
	for (size_t pass = 0; pass < 2 && removed < 2; pass++) {
		size_t n = pass == 0 ? pref->n : s->n_bases;
		for (size_t i = 0; i < n && removed < 2; i++) {
			struct landraid_base *x = pass == 0 ? landraid_base_find(s, pref->v[i]) :
							      s->bases[i];
			if (!x || x->sq < 0 || x->side != LR_DEFENDER || x->role != LR_TROOPS ||
				x->quality != LR_SCURVY)
				continue;
			buf_printf(&b, "%s%s from %s", removed ? ", " : "", x->id, s->name[x->sq]);
			landraid_base_remove(s, x);
			c->lost[LR_DEFENDER]++;
			removed++;
		}
	}
	events_add(c->ev, phase, "%s: the attacker removes %d scurvy defender base%s: %s", label,
		removed, removed == 1 ? "" : "s", buf_str(&b));
	buf_release(&b);
}

static void event_landing(struct landraid_ctx *c)
{
	struct landraid_state *s = c->s;
	int sq = pick_square(s, &s->standing[LR_ATTACKER].dockside, empty_dockside);
	if (!room_for(s, 3)) {
		events_add(c->ev, phase,
			"2-5: no room for 3 more bases (at most %d on the table): no "
			"event this turn",
			LR_MAX_BASES);
		return;
	}
	if (sq < 0) {
		events_add(c->ev, phase,
			"2-5: no empty dockside square for 3 new attacker bases: "
			"the event cannot be used, no event this turn");
		return;
	}
	size_t from = s->n_bases;
	struct buf b = BUF_INIT;
	for (int i = 0; i < 3; i++)
		landraid_base_new(s, LR_ATTACKER, LR_TROOPS, LR_ORDINARY, sq);
	list_new(&b, s, from);
	events_add(c->ev, phase, "2-5: 3 new attacker bases (%s) land in empty dockside square %s",
		buf_str(&b), s->name[sq]);
	buf_release(&b);
}

static void event_redeploy(struct landraid_ctx *c)
{
	struct landraid_state *s = c->s;
	const struct landraid_standing *st = &s->standing[c->active];
	const char *side = landraid_side_names[c->active];
	struct buf b = BUF_INIT;
	int moved = 0;

	if (landraid_count_side(s, c->active, LR_NON_OFFICERS) == 0) {
		events_add(c->ev, phase,
			"6: the %s has no bases but officers to move: no event "
			"this turn",
			side);
		return;
	}
	for (size_t i = 0; i < st->n_redeploy && moved < LR_MAX_REDEPLOY; i++) {
		struct landraid_base *x = landraid_base_find(s, st->redeploy[i].base);
		int to = st->redeploy[i].sq;
		const char *why = NULL;
		if (!x)
			why = "is no longer on the table";
		else if (x->side != c->active || landraid_is_officer(x))
			why = "is not one of the side's non-officer bases";
		else if (x->sq == to)
			why = "is already there";
		else if (landraid_count(s, to, 1 - c->active, LR_ALL_ROLES) > 0)
			why = "cannot go into a square held by the opponent";
		if (why) {
			events_add(c->ev, phase, "6: standing order to move %s to %s skipped: %s",
				st->redeploy[i].base, s->name[to], why);
			continue;
		}
		buf_printf(&b, "%s%s %s to %s", moved ? ", " : "", x->id, s->name[x->sq],
			s->name[to]);
		x->sq = to;
		moved++;
	}
	if (moved)
		events_add(c->ev, phase, "6: the %s moves %d own base%s: %s", side, moved,
			moved == 1 ? "" : "s", buf_str(&b));
	else
		events_add(c->ev, phase,
			"6: the %s moves no bases (standing order events.redeploy "
			"empty or not applicable)",
			side);
	buf_release(&b);
}

static void event_garrison(struct landraid_ctx *c)
{
	struct landraid_state *s = c->s;
	int troops = landraid_count_side(s, LR_DEFENDER, 1u << LR_TROOPS);
	int room = c->o->max_defender_troops - troops;
	int left = LR_MAX_BASES - landraid_count_side(s, LR_ATTACKER, LR_ALL_ROLES) -
		   landraid_count_side(s, LR_DEFENDER, LR_ALL_ROLES);
	if (left <= 0) {
		events_add(c->ev, phase,
			"7: no room for more bases (at most %d on the table): no event this turn",
			LR_MAX_BASES);
		return;
	}
	if (left < room)
		room = left;
	int sq = pick_square(s, &s->standing[LR_DEFENDER].garrison, free_garrison);
	if (room <= 0) {
		events_add(c->ev, phase,
			"7: the defender already has %d troop bases on the table "
			"(maximum %d): no event this turn",
			troops, c->o->max_defender_troops);
		return;
	}
	if (sq < 0) {
		events_add(c->ev, phase,
			"7: no garrison building free of attacker bases: no event "
			"this turn");
		return;
	}
	int n = room < 2 ? room : 2;
	size_t from = s->n_bases;
	struct buf b = BUF_INIT;
	for (int i = 0; i < n; i++)
		landraid_base_new(s, LR_DEFENDER, LR_TROOPS, LR_ORDINARY, sq);
	list_new(&b, s, from);
	events_add(c->ev, phase,
		"7: %d defender troop base%s (%s) appear%s in garrison building "
		"%s%s",
		n, n == 1 ? "" : "s", buf_str(&b), n == 1 ? "s" : "", s->name[sq],
		n < 2 ? " (only one: maximum troop bases reached)" : "");
	buf_release(&b);
}

static void event_8_10(struct landraid_ctx *c)
{
	struct landraid_state *s = c->s;
	int off[LR_SIDES] = { officer_possible(s, LR_ATTACKER), officer_possible(s, LR_DEFENDER) };
	int scurvy = room_for(s, 3) && pick_square(s, NULL, scurvy_open) >= 0;
	int a = 0, d = 0, tries = 0;

	if (!off[LR_ATTACKER] && !off[LR_DEFENDER] && !scurvy) {
		events_add(c->ev, phase,
			"8-10: no new officer possible (allowance reached or no "
			"empty square) and no open square for scurvy bases: no event this turn");
		return;
	}
	/* §18 "Higher D6 deploys": both roll, ties rolled again (NOTES 000 reading 6). */
	do {
		if (++tries > 1000) {
			c->error = 1;
			return;
		}
		a = (int)dice_roll(c->dice, 6,
			"Land Raid §18 Events 8-10: attacker's D6 (higher "
			"chooses, ties re-rolled)");
		d = (int)dice_roll(c->dice, 6,
			"Land Raid §18 Events 8-10: defender's D6 (higher "
			"chooses, ties re-rolled)");
		if (a == d)
			events_add(c->ev, phase, "8-10: both roll %d, roll again", a);
	} while (a == d);
	int chooser = a > d ? LR_ATTACKER : LR_DEFENDER;
	const struct landraid_standing *st = &s->standing[chooser];
	char label[96];
	snprintf(label, sizeof(label), "8-10 (attacker %d, defender %d: the %s chooses)", a, d,
		landraid_side_names[chooser]);
	for (size_t i = 0; i < st->n_choice_8_10; i++) {
		if (st->choice_8_10[i] == LR_CHOICE_OFFICER && off[chooser]) {
			new_officer(c, chooser, label);
			return;
		}
		if (st->choice_8_10[i] == LR_CHOICE_SCURVY && scurvy) {
			new_scurvy(c, chooser, label);
			return;
		}
	}
	events_add(c->ev, phase,
		"%s: none of the %s's choices (standing order "
		"events.choice-8-10) is possible: no event this turn",
		label, landraid_side_names[chooser]);
}

static void event_11_12(struct landraid_ctx *c)
{
	struct landraid_state *s = c->s;
	const struct landraid_standing *st = &s->standing[LR_ATTACKER];
	int rem = count_scurvy(s) > 0, off = officer_possible(s, LR_ATTACKER);
	const char *label = "11-12 (the attacker chooses)";
	for (size_t i = 0; i < st->n_choice_11_12; i++) {
		if (st->choice_11_12[i] == LR_CHOICE_REMOVE_SCURVY && rem) {
			remove_scurvy(c, label);
			return;
		}
		if (st->choice_11_12[i] == LR_CHOICE_OFFICER && off) {
			new_officer(c, LR_ATTACKER, label);
			return;
		}
	}
	events_add(c->ev, phase, "%s: no defender scurvy base to remove%s: no event this turn",
		label,
		off ? " and the attacker does not choose a new officer" :
		      " and no new attacker officer possible");
}

void landraid_event_apply(struct landraid_ctx *c, int score)
{
	if (score >= 2 && score <= 5)
		event_landing(c);
	else if (score == 6)
		event_redeploy(c);
	else if (score == 7)
		event_garrison(c);
	else if (score >= 8 && score <= 10)
		event_8_10(c);
	else
		event_11_12(c);
}

int landraid_events(struct landraid_ctx *c)
{
	int v[2];
	int score = dice_roll_many(c->dice, 2, 6, v, "Land Raid §18 Events: the %s's turn, 2D6",
		landraid_side_names[c->active]);
	c->event_score = score;
	events_add(c->ev, phase, "event roll %d + %d = %d", v[0], v[1], score);
	landraid_event_apply(c, score);
	return score;
}
