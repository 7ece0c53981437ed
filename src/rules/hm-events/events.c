/* events.c — the sheet's Random Events: the D20 table, who chooses the unit an event names
 * and what makes an event impossible, events kept in hand and played later, suppression while
 * one is held, Rally to the Flag once, the effects in force until the end of the turn, and the
 * turn itself (expire, held events, the roll). */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "rules/hm-events/hmevents.h"
#include "core/banned.h"

#define ANY ((1u << HM_INFANTRY) | (1u << HM_CAVALRY) | (1u << HM_ARTILLERY))
#define INF (1u << HM_INFANTRY)
#define CAV (1u << HM_CAVALRY)
#define ART (1u << HM_ARTILLERY)

/* The sheet's table; beneficial per NOTES §002. `does` reads after "your ". */
const struct hm_event hm_events[HM_EVENTS + 1] = {
	[1] = { "urgent-assistance", "Urgent Assistance", 0, 0,
		"commander %s must move, in your activity phase, to within 4BW of the friendly "
		"unit furthest from his initial position" },
	[2] = { "anxious", "Anxious", 0, ANY,
		"unit %s must move its full movement allowance, or as much as can be used, "
		"forward in your activity phase" },
	[3] = { "hesitant", "Hesitant", 0, ANY,
		"unit %s may not attempt any activities during the entire turn, including "
		"recovery attempts" },
	[4] = { "retrograde", "Retrograde", 0, ANY,
		"unit %s must perform a retrograde maneuver to its fullest movement available (a "
		"retrograde wheel is allowed)" },
	[5] = { "disorganized", "Disorganized", 0, ANY,
		"unit %s suffers 1DISR in your reaction phase (counted in the model now)" },
	[6] = { "limited-ammo", "Limited Ammo", 0, ART, "artillery unit %s cannot fire this turn" },
	[7] = { "rough-going", "Rough Going", 0, ANY,
		"unit %s treats open terrain as rough terrain, and rough terrain as impassable, "
		"this turn" },
	[8] = { "bad-aim", "Bad Aim", 0, ART,
		"artillery unit %s suffers -1 to hit on all die rolls this turn" },
	[9] = { "valiant-charge", "Valiant Charge", 1, ANY,
		"unit %s receives +1 to hit on all die rolls in combat this turn" },
	[10] = { "rally-to-the-flag", "Rally to the Flag", 1, 0, "army morale rises by %s" },
	[11] = { "well-disciplined", "Well Disciplined", 1, ANY,
		"unit %s loses 1DISR in your reaction phase (counted in the model now) and cannot "
		"try a separate recovery attempt this turn" },
	[12] = { "heroic-rally", "Heroic Rally", 1, ANY,
		"unit %s uses two dice for a recovery attempt this turn" },
	[13] = { "stirrups-in", "Stirrups In", 1, CAV,
		"cavalry unit %s receives +1 to hit on all dice in a charge or counter charge this "
		"turn" },
	[14] = { "whiff-of-grape", "Whiff of Grape", 1, ART,
		"artillery unit %s receives +1 to hit on all dice using canister this turn" },
	[15] = { "rally-to-the-colours", "Rally to the Colours", 1, ANY,
		"unit %s ignores disruptions to how many dice it uses in combat this turn" },
	[16] = { "deadly-fire", "Deadly Fire", 1, INF,
		"infantry unit %s receives +1 to hit on its dice if it elects to fire in your "
		"reaction phase this turn" },
	[17] = { "thick-smoke", "Thick Smoke", 0, INF,
		"infantry unit %s receives -1 to hit on its dice if firing in your reaction phase "
		"this turn" },
	[18] = { "find-the-way", "Find the Way", 1, ANY,
		"unit %s treats rough terrain as open terrain this turn" },
	[19] = { "hold-the-line", "Hold the Line", 1, INF,
		"infantry unit %s receives an extra die roll in combat this turn" },
	[20] = { "impetuous", "Impetuous", 0, ANY,
		"unit %s, in legal charge range, must charge in your activity phase or counter "
		"charge in your reaction phase, whichever is applicable" },
};

const char *hm_role(const struct hm_state *s, int side)
{
	return side == s->attacker ? "attacker" : "defender";
}

static enum hm_chooser chooser_of(const struct hm_state *s, int side)
{
	return side == s->attacker ? HM_BY_ATTACKER : HM_BY_DEFENDER;
}

/* Whether unit u may be named by event e for side: on that side, not broken, of a type the
 * event names, and for Impetuous in legal charge range. */
static int fits(const struct hm_state *s, const struct hm_unit *u, int e, int side)
{
	(void)s;
	return u->side == side && !u->broken && (hm_events[e].types & (1u << u->type)) &&
	       (e != 20 || u->charge_range);
}

/* The default when the chooser's standing orders name no unit that fits: for the events that
 * take DISR off or work on recovery the unit with the most DISR; for Disorganized the first
 * that 1DISR would not break; otherwise the first in army order. */
static int choose_default(const struct hm_state *s, int e, int side)
{
	int best = -1;
	for (size_t i = 0; i < s->n_units; i++) {
		const struct hm_unit *u = &s->units[i];
		if (!fits(s, u, e, side))
			continue;
		if (e == 11 || e == 12 || e == 15) {
			if (best < 0 || u->disr > s->units[best].disr)
				best = (int)i;
		} else if (e != 5 || u->disr + 1 < u->break_at) {
			return (int)i;
		}
	}
	return best;
}

int hm_choose(const struct hm_state *s, int e, int side, int chooser, enum hm_chooser *by)
{
	const struct hm_standing *st = &s->side[chooser].standing;
	const int lists[2] = { e, 0 };

	for (int l = 0; l < 2; l++)
		for (size_t i = 0; i < st->n_choose[lists[l]]; i++) {
			int u = hm_unit_find(s, st->choose[lists[l]][i]);
			if (u >= 0 && fits(s, &s->units[u], e, side)) {
				*by = chooser_of(s, chooser);
				return u;
			}
		}
	*by = HM_BY_DEFAULT;
	return choose_default(s, e, side);
}

static void add_effect(struct hm_state *s, int side, int e, const char *unit, enum hm_chooser by,
	int amount, int turn)
{
	/* room for HM_EFFECTS_PER_TURN beyond what a state file holds (state.c) */
	assert(s->n_effects < HM_MAX_EFFECTS + HM_EFFECTS_PER_TURN);
	struct hm_effect *f = &s->effects[s->n_effects++];
	f->side = side;
	f->event = e;
	f->unit = unit ? xstrdup(unit) : NULL;
	f->chosen_by = by;
	f->amount = amount;
	f->until = turn;
}

static int rally_used(const struct hm_options *o, const struct hm_state *s, int side)
{
	return s->side[side].rally_used || (o->rally_per_game && s->side[1 - side].rally_used);
}

/* Event 10: the player rolls a D6, odd +1, even +2 army morale; once per game. */
static void rally_to_the_flag(const struct hm_options *o, struct hm_state *s, int turn, int side,
	struct dice *dice, struct events *ev)
{
	struct hm_side *sd = &s->side[side];
	if (rally_used(o, s, side)) {
		events_add(ev, "events",
			"event 10 Rally to the Flag for %s (%s): no effect, used "
			"once already this game",
			sd->player, hm_role(s, side));
		return;
	}
	int r = (int)dice_roll(dice, 6,
		"hm-events event 10 Rally to the Flag for %s: d6, odd "
		"+1, even +2 army morale",
		sd->player);
	int add = r % 2 ? 1 : 2;
	int before = sd->morale;
	sd->morale = sd->morale + add > HM_MAX_MORALE ? HM_MAX_MORALE : sd->morale + add;
	sd->rally_used = 1;
	add_effect(s, side, 10, NULL, HM_BY_NONE, add, turn);
	events_add(ev, "events",
		"event 10 Rally to the Flag for %s (%s): d6 %d, army morale "
		"%d + %d = %d",
		sd->player, hm_role(s, side), r, before, add, sd->morale);
}

/* The events that name one of the side's units. */
static void unit_event(struct hm_state *s, int turn, int e, int side, struct events *ev)
{
	const struct hm_event *x = &hm_events[e];
	int chooser = x->beneficial ? side : 1 - side;
	enum hm_chooser by;
	int i = hm_choose(s, e, side, chooser, &by);

	/* Sealed: whether the chooser's standing orders named the unit is his own business; on
	 * the table he simply names it (docs/rules/hm-events.md, "Sealed campaigns"). */
	if (ev->sealed && by == HM_BY_DEFAULT)
		by = chooser_of(s, chooser);

	if (i < 0) {
		events_add(ev, "events", "event %d %s for %s (%s): impossible, %s", e, x->title,
			s->side[side].player, hm_role(s, side),
			e == 20                       ? "no unit in legal charge range" :
			x->types == ART               ? "no artillery unit that is not broken" :
			x->types == CAV               ? "no cavalry unit that is not broken" :
			x->types == INF               ? "no infantry unit that is not broken" :
			e == 11 || e == 12 || e == 15 ? "no unit that is not broken" :
							"no unit that 1DISR would not break");
		return;
	}
	struct hm_unit *u = &s->units[i];
	if (e == 5 && u->disr + 1 >= u->break_at) {
		events_add(ev, "events",
			"event 5 Disorganized for %s (%s): void, 1DISR would break "
			"%s (%d DISR, breaks at %d; chosen by the %s)",
			s->side[side].player, hm_role(s, side), u->name, u->disr, u->break_at,
			hm_chooser_names[by]);
		return;
	}
	if (e == 5)
		u->disr++;
	int removed = e == 11 && u->disr > 0;
	if (removed)
		u->disr--;
	add_effect(s, side, e, u->id, by, 0, turn);
	events_add(ev, "events", "event %d %s for %s (%s): %s (chosen by %s%s)%s%s", e, x->title,
		s->side[side].player, hm_role(s, side), u->name,
		by == HM_BY_DEFAULT ? "default" : "the ",
		by == HM_BY_DEFAULT ? "" : hm_chooser_names[by], e == 5 ? ", now 1DISR more" : "",
		e == 11 ? (removed ? ", now 1DISR less" : ", which has no DISR to lose") : "");
}

void hm_apply_event(const struct hm_options *o, struct hm_state *s, int turn, int e, int side,
	struct dice *dice, struct events *ev)
{
	if (e == 10) {
		rally_to_the_flag(o, s, turn, side, dice, ev);
	} else if (e == 1) {
		add_effect(s, side, 1, NULL, HM_BY_NONE, 0, turn);
		events_add(ev, "events", "event 1 Urgent Assistance for %s (%s): commander %s",
			s->side[side].player, hm_role(s, side), s->side[side].commander);
	} else {
		unit_event(s, turn, e, side, ev);
	}
}

/* Who gains by event e affecting side: the side itself if beneficial, else its opponent. */
static int gainer(int e, int side)
{
	return hm_events[e].beneficial ? side : 1 - side;
}

int hm_random_event(const struct hm_options *o, struct hm_state *s, int turn, struct dice *dice,
	struct events *ev)
{
	int r = (int)dice_roll(dice, 6, "hm-events random event: d6, 1 or 6 = an event");
	if (r != 1 && r != 6) {
		events_add(ev, "events", "random event: d6 %d, no event", r);
		return 0;
	}
	int w = (int)dice_roll(dice, 6,
		"hm-events random event: d6, odd = attacker, even = "
		"defender");
	int side = w % 2 ? s->attacker : 1 - s->attacker;
	int e = (int)dice_roll(dice, HM_EVENTS, "hm-events random event: d20, which event");
	const struct hm_event *x = &hm_events[e];
	int g = gainer(e, side);
	events_add(ev, "events", "random event: d6 %d, d6 %d (%s, %s), d20 %d: event %d %s (%s)", r,
		w, hm_role(s, side), s->side[side].player, e, e, x->title,
		x->beneficial ? "beneficial" : "detrimental");
	if ((x->beneficial && s->side[side].held) || (o->suppress_any_gain && s->side[g].held)) {
		events_add(ev, "events", "event %d %s does not occur: %s holds event %d %s in hand",
			e, x->title, s->side[g].player, s->side[g].held,
			hm_events[s->side[g].held].title);
		return e;
	}
	if (!s->side[g].held && (s->side[g].standing.keep & (1u << e))) {
		s->side[g].held = e;
		s->side[g].held_since = turn;
		events_add(ev, "events", "%s (%s) keeps event %d %s in hand", s->side[g].player,
			hm_role(s, g), e, x->title);
		return e;
	}
	hm_apply_event(o, s, turn, e, side, dice, ev);
	return e;
}

void hm_play_held(const struct hm_options *o, struct hm_state *s, int turn, int side,
	struct dice *dice, struct events *ev)
{
	int e = s->side[side].held;
	if (!e)
		return;
	int target = hm_events[e].beneficial ? side : 1 - side;
	s->side[side].held = 0;
	s->side[side].held_since = 0;
	events_add(ev, "events", "%s (%s) plays the held event %d %s on %s", s->side[side].player,
		hm_role(s, side), e, hm_events[e].title, s->side[target].player);
	hm_apply_event(o, s, turn, e, target, dice, ev);
}

void hm_expire(struct hm_state *s, int turn, struct events *ev)
{
	size_t k = 0;
	for (size_t j = 0; j < s->n_effects; j++) {
		struct hm_effect *f = &s->effects[j];
		if (f->until >= turn) {
			s->effects[k++] = *f;
			continue;
		}
		events_add(ev, "effects", "ended with turn %d: event %d %s on %s%s%s", f->until,
			f->event, hm_events[f->event].title, s->side[f->side].player,
			f->unit ? " unit " : "", f->unit ? f->unit : "");
		free(f->unit);
	}
	s->n_effects = k;
}

void hm_effect_text(const struct hm_state *s, const struct hm_effect *f, struct buf *out)
{
	const struct hm_event *x = &hm_events[f->event];
	char amount[8];
	const char *what = f->event == 1 ? s->side[f->side].commander : f->unit;
	int u = f->unit ? hm_unit_find(s, f->unit) : -1;

	if (u >= 0)
		what = s->units[u].name;
	if (f->event == 10) {
		snprintf(amount, sizeof(amount), "%d", f->amount);
		what = amount;
	}
	buf_puts(out, "your ");
	buf_printf(out, x->does, what);
	buf_printf(out, " (event %d, %s", f->event, x->title);
	if (f->chosen_by == HM_BY_DEFAULT)
		buf_puts(out, ", chosen by default");
	else if (f->chosen_by != HM_BY_NONE)
		buf_printf(out, ", chosen by the %s", hm_chooser_names[f->chosen_by]);
	buf_puts(out, ")");
}
