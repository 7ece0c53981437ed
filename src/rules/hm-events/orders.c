/* orders.c — hm-events orders (`play-held`) and standing orders (`keep`, `choose`), the
 * umpire's adjustments to the model (core/adjust.h), the turn, each player's report, and the
 * rule_system entry registered in registry.c. */
#include <stdlib.h>
#include <string.h>

#include "rules/hm-events/hmevents.h"
#include "core/banned.h"

/* --- orders ------------------------------------------------------------------------------ */

/* Both players may send a file every turn (a held event, choices, standing orders). */
static int hm_player_due(const struct rules_campaign *c, const void *state, int turn,
	const char *player)
{
	(void)c;
	(void)state;
	(void)turn;
	(void)player;
	return 1;
}

int hm_orders_parse(void **out, const struct rules_campaign *c, const void *state, int turn,
	const char *player, const struct node *orders, const struct node *standing, struct diag *d)
{
	static const char *const keys[] = { "play-held", NULL };
	const struct hm_state *s = state;
	struct hm_orders *o = xcalloc(1, sizeof(*o));
	int side = hm_side_find(s, player), rc = 0, bad = 0, v;
	(void)c;
	(void)turn;

	*out = NULL;
	for (size_t i = 0; i < orders->n; i++) {
		const struct node *it = orders->items[i], *n;
		if (node_check_keys(it, "order", keys, &bad, d) < 0 ||
			!(n = node_need(it, "play-held", d)) ||
			node_want_bool(n, "play-held", &v, d) < 0) {
			rc = -1;
			continue;
		}
		if (v && o->play_held) {
			node_error(d, n, "a second 'play-held' (one held event at most)");
			rc = -1;
		} else if (v && side >= 0 && !s->side[side].held) {
			node_error(d, n,
				"'%s' holds no event in hand ('play-held' only while holding one "
				"expected)",
				player);
			rc = -1;
		}
		o->play_held |= v;
	}
	if (standing) {
		o->has_standing = 1;
		if (hm_standing_parse(&o->standing, s, standing, d) < 0)
			rc = -1;
	}
	if (rc < 0 || bad < 0) {
		hm_orders_free(o);
		return -1;
	}
	*out = o;
	return 0;
}

void hm_orders_free(void *orders)
{
	struct hm_orders *o = orders;
	if (!o)
		return;
	hm_standing_release(&o->standing);
	free(o);
}

/* --- the umpire's adjustments ------------------------------------------------------------ */

/* The node of key in adjustment a (its item when the key is absent), for diagnostics. */
static const struct node *at(const struct adjustment *a, const char *key)
{
	const struct node *n = node_get(a->at, key);
	return n ? n : a->at;
}

/* One adjustment against s as the earlier ones left it; 0 when it can be applied. */
static int check_one(const struct hm_state *s, const struct adjustment *a, struct diag *d)
{
	int u = a->unit ? hm_unit_find(s, a->unit) : -1;
	int side = a->side ? hm_side_find(s, a->side) : -1, t;

	if (a->kind == ADJUST_LOS || a->kind == ADJUST_COVER || a->kind == ADJUST_RANGE) {
		node_error(d, at(a, "adjust"),
			"hm-events models no line of sight, cover or range ('adjust: %s' refused; disr, "
			"break, remove, morale, add-unit or status expected)",
			adjust_kind_names[a->kind]);
		return -1;
	}
	if (a->kind == ADJUST_ADD_UNIT) {
		if (u >= 0) {
			node_error(d, at(a, "unit"),
				"unit '%s' is already in the model (a new id "
				"expected)",
				a->unit);
			return -1;
		}
		if (node_want_enum(at(a, "type"), "type", hm_type_names, &t, d) < 0)
			return -1;
		if (!a->strength) {
			node_error(d, a->at,
				"'adjust: add-unit' needs 'strength' (the DISR at which "
				"the unit breaks)");
			return -1;
		}
		if (s->n_units >= HM_MAX_UNITS) {
			node_error(d, a->at, "the model has %d units (at most %d expected)",
				HM_MAX_UNITS, HM_MAX_UNITS);
			return -1;
		}
		return 0;
	}
	if (a->kind == ADJUST_MORALE) {
		long long m = s->side[side].morale + a->by;
		if (m < -HM_MAX_MORALE || m > HM_MAX_MORALE) {
			node_error(d, at(a, "by"),
				"army morale %d %+lld is out of range (%d to %d "
				"expected)",
				s->side[side].morale, a->by, -HM_MAX_MORALE, HM_MAX_MORALE);
			return -1;
		}
		return 0;
	}
	if (u < 0) {
		node_error(d, at(a, "unit"), "'%s' is not a unit of the model (a unit id expected)",
			a->unit);
		return -1;
	}
	const struct hm_unit *x = &s->units[u];
	if (a->kind == ADJUST_DISR && (x->disr + a->by < 0 || x->disr + a->by > HM_MAX_DISR)) {
		node_error(d, at(a, "by"),
			"unit '%s' has %d DISR: %+lld leaves %lld (0 to %d "
			"expected)",
			a->unit, x->disr, a->by, x->disr + a->by, HM_MAX_DISR);
		return -1;
	}
	if (a->kind == ADJUST_BREAK && x->broken) {
		node_error(d, at(a, "unit"),
			"unit '%s' is already broken (a unit not broken "
			"expected)",
			a->unit);
		return -1;
	}
	if (a->kind == ADJUST_STATUS && strcmp(a->status, "in-charge-range") != 0) {
		node_error(d, at(a, "status"),
			"'%s' is not a status of hm-events ('in-charge-range' "
			"expected)",
			a->status);
		return -1;
	}
	return 0;
}

/* A copy of the state through its own canonical form, to check adjustments in order. */
static struct hm_state *clone_state(const struct rules_campaign *c, const struct hm_state *s)
{
	struct node *n = hm_state_emit(c, s);
	struct diag d;
	void *copy = NULL;
	diag_init(&d);
	hm_state_parse(&copy, c, n, &d);
	diag_release(&d);
	node_free(n);
	return copy;
}

int hm_adjust_check(const struct rules_campaign *c, const void *state, const struct adjustment *v,
	size_t n, struct diag *d)
{
	struct hm_state *s = clone_state(c, state);
	struct buf what = BUF_INIT;
	int rc = 0;

	if (!s)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (check_one(s, &v[i], d) < 0)
			rc = -1;
		else
			hm_adjust_apply(c, s, &v[i], &what);
	}
	buf_release(&what);
	hm_state_free(s);
	return rc;
}

int hm_adjust_apply(const struct rules_campaign *c, void *state, const struct adjustment *a,
	struct buf *what)
{
	struct hm_state *s = state;
	int u = a->unit ? hm_unit_find(s, a->unit) : -1;
	int side = a->side ? hm_side_find(s, a->side) : -1, t = 0;
	(void)c;

	switch (a->kind) {
	case ADJUST_DISR:
		s->units[u].disr += (int)a->by;
		buf_printf(what, "unit %s %+lld DISR, now %d (breaks at %d)", a->unit, a->by,
			s->units[u].disr, s->units[u].break_at);
		break;
	case ADJUST_BREAK:
		s->units[u].broken = 1;
		buf_printf(what, "unit %s broken", a->unit);
		break;
	case ADJUST_REMOVE:
		buf_printf(what, "unit %s removed from the model", a->unit);
		hm_unit_remove(s, (size_t)u);
		break;
	case ADJUST_MORALE:
		s->side[side].morale += (int)a->by;
		buf_printf(what, "army morale of %s %+lld, now %d", a->side, a->by,
			s->side[side].morale);
		break;
	case ADJUST_ADD_UNIT:
		while (hm_type_names[t] && strcmp(hm_type_names[t], a->type) != 0)
			t++;
		s->units[s->n_units++] = (struct hm_unit){ .id = xstrdup(a->unit),
			.name = xstrdup(a->name),
			.side = side,
			.type = (enum hm_type)t,
			.break_at = (int)a->strength };
		buf_printf(what, "unit %s (%s, %s) joins %s, breaks at %lld DISR", a->unit, a->name,
			a->type, a->side, a->strength);
		break;
	case ADJUST_STATUS:
		s->units[u].charge_range = a->value;
		buf_printf(what, "unit %s %s in legal charge range", a->unit,
			a->value ? "now" : "no longer");
		break;
	default:
		return -1;
	}
	return 0;
}

/* --- the turn ---------------------------------------------------------------------------- */

/* Held events are played by the attacker first, then the defender (docs/rules/hm-events.md). */
static void play_held_events(const struct hm_options *o, struct hm_state *s, struct rules_turn *t)
{
	for (int k = 0; k < 2; k++) {
		int side = k == 0 ? s->attacker : 1 - s->attacker;
		for (size_t i = 0; i < t->n_orders; i++) {
			const struct hm_orders *ord = t->orders[i].orders;
			if (ord && ord->play_held &&
				strcmp(t->orders[i].player, s->side[side].player) == 0)
				hm_play_held(o, s, t->turn, side, t->dice, t->events);
		}
	}
}

/* docs/rules/hm-events.md "Hold orders": none. The model has no unit a player moves; a side
 * holding plays no held event, and its standing orders (whom events name) stand. */
static int hm_hold_orders(void **out, const struct rules_campaign *c, const void *state, int turn,
	const char *player)
{
	(void)c;
	(void)state;
	(void)turn;
	(void)player;
	*out = xcalloc(1, sizeof(struct hm_orders));
	return 0;
}

int hm_resolve(const struct rules_campaign *c, void *state, struct rules_turn *t)
{
	const struct hm_options *o = c->options;
	struct hm_state *s = state;

	hm_expire(s, t->turn, t->events);
	for (size_t i = 0; i < t->n_orders; i++) {
		struct hm_orders *ord = t->orders[i].orders;
		int side = hm_side_find(s, t->orders[i].player);
		if (!ord || !ord->has_standing || side < 0)
			continue;
		hm_standing_release(&s->side[side].standing);
		s->side[side].standing = ord->standing;
		memset(&ord->standing, 0, sizeof(ord->standing));
		/* Checked against the model before this turn's adjustments: a unit the umpire
		 * removed since is passed over (docs/rules/hm-events.md, "Orders"). */
		hm_standing_prune(&s->side[side].standing, s);
		ord->has_standing = 0;
		/* Sealed: that a side changed its standing orders is its secret. */
		if (!t->events->sealed)
			events_add(t->events, "orders", "standing orders of %s in force",
				s->side[side].player);
	}
	if (!o->held_after_roll)
		play_held_events(o, s, t);
	int e = hm_random_event(o, s, t->turn, t->dice, t->events);
	if (o->held_after_roll)
		play_held_events(o, s, t);
	if (e)
		buf_printf(&t->summary, "random event %d %s", e, hm_events[e].title);
	else
		buf_puts(&t->summary, "no random event");
	return 0;
}

/* --- reports ----------------------------------------------------------------------------- */

static void report_effects(const struct hm_state *s, int side, const char *title, struct buf *out)
{
	int any = 0;
	buf_printf(out, "\n%s\n\n", title);
	for (size_t k = 0; k < s->n_effects; k++) {
		if (s->effects[k].side != side)
			continue;
		buf_puts(out, "- ");
		hm_effect_text(s, &s->effects[k], out);
		buf_puts(out, "\n");
		any = 1;
	}
	if (!any)
		buf_puts(out, "- none\n");
}

static void report_army(const struct hm_options *o, const struct hm_state *s, int side,
	struct buf *out)
{
	const struct hm_side *sd = &s->side[side];
	buf_printf(out, "\n#### %s (%s): army morale %d, commander %s\n\n", sd->player,
		hm_role(s, side), sd->morale, sd->commander);
	buf_printf(out, "Held in hand: %s%s", sd->held ? hm_events[sd->held].title : "nothing",
		sd->held ? " (kept on turn " : "");
	if (sd->held)
		buf_printf(out, "%d)", sd->held_since);
	buf_printf(out, ". Rally to the Flag: %s.\n\n",
		sd->rally_used                                      ? "used" :
		(o->rally_per_game && s->side[1 - side].rally_used) ? "used by the other side" :
								      "not used");
	buf_puts(out,
		"| unit | name | type | DISR | breaks at | state |\n|---|---|---|---|---|---|\n");
	for (size_t k = 0; k < s->n_units; k++) {
		const struct hm_unit *u = &s->units[k];
		if (u->side != side)
			continue;
		buf_printf(out, "| %s | %s | %s | %d | %d | %s%s |\n", u->id, u->name,
			hm_type_names[u->type], u->disr, u->break_at,
			u->broken ? "broken" : "in action",
			u->charge_range ? ", in charge range" : "");
	}
}

/* The public report (a sealed campaign's): what binds each side, then both armies. */
static void report_public(const struct hm_options *o, const struct hm_state *s, struct buf *out)
{
	buf_puts(out, "### Random events\n");
	for (int i = 0; i < 2; i++) {
		int side = i == 0 ? s->attacker : 1 - s->attacker;
		char *title = xasprintf("Binding %s (%s) this turn (read \"your\" as theirs):",
			s->side[side].player, hm_role(s, side));
		report_effects(s, side, title, out);
		free(title);
	}
	report_army(o, s, s->attacker, out);
	report_army(o, s, 1 - s->attacker, out);
}

void hm_report(const struct rules_campaign *c, const void *state, const char *player,
	struct buf *out)
{
	const struct hm_state *s = state;
	int me = player ? hm_side_find(s, player) : -1;
	if (!player) {
		report_public(c->options, s, out);
		return;
	}
	if (me < 0)
		return;
	buf_puts(out, "### Random events\n");
	report_effects(s, me, "Binding you this turn:", out);
	report_effects(s, 1 - me,
		"Binding your opponent this turn (read \"your\" as theirs):", out);
	report_army(c->options, s, me, out);
	report_army(c->options, s, 1 - me, out);
}

const struct rule_system rules_hm_events = {
	.version = RULES_INTERFACE_VERSION,
	.name = "hm-events",
	.title = "Horse-and-musket random events (blog table, November 2012)",
	.revision = 2,
	.flags = RULES_SIMULTANEOUS | RULES_PRIVATE,
	.min_players = 2,
	.max_players = 2,
	.help = "The random events of a horse-and-musket game over a model of two armies that the\n"
		"umpire keeps current. Each turn: d6 (1 or 6 = an event), d6 (odd attacker, even\n"
		"defender), d20 (which of the twenty events). Both players send a file every turn.\n"
		"orders: a list of at most one\n"
		"  play-held: true        play the event held in hand at the start of this turn\n"
		"standing:                kept until changed\n"
		"  keep: [EVENT, ...]     events to keep in hand when gained (one held at most)\n"
		"  choose: {EVENT|any: [UNIT, ...]}  whom to name when an event needs a unit\n"
		"umpire adjustments: disr, break, remove, morale, add-unit (strength = the DISR at\n"
		"  which the unit breaks), status in-charge-range.\n"
		"options: rally-to-the-flag (once-per-game|once-per-player), held-events\n"
		"  (before-the-roll|after-the-roll), suppress-while-holding\n"
		"  (beneficial-to-holder|any-gain-to-holder).\n"
		"See docs/rules/hm-events.md.",
	.options_parse = hm_options_parse,
	.options_emit = hm_options_emit,
	.options_free = hm_options_free,
	.state_parse = hm_state_parse,
	.state_emit = hm_state_emit,
	.state_view = hm_state_view,
	.state_free = hm_state_free,
	.player_due = hm_player_due,
	.orders_parse = hm_orders_parse,
	.orders_free = hm_orders_free,
	.hold_orders = hm_hold_orders,
	.resolve = hm_resolve,
	.report = hm_report,
	.adjust_check = hm_adjust_check,
	.adjust_apply = hm_adjust_apply,
	.orders_template = hm_orders_template,
};
