/* state.c — hm-events campaign options and state: the two sides (player, commander, army
 * morale, the event held in hand, Rally to the Flag used, standing orders), their units and the
 * effects in force, read from a scenario or state.yaml and written back in canonical order. */
#include <stdlib.h>
#include <string.h>

#include "rules/hm-events/hmevents.h"
#include "core/banned.h"

const char *const hm_type_names[] = { "infantry", "cavalry", "artillery", NULL };
const char *const hm_chooser_names[] = { "none", "attacker", "defender", "default", NULL };

static const char *const rally_names[] = { "once-per-player", "once-per-game", NULL };
static const char *const held_names[] = { "before-the-roll", "after-the-roll", NULL };
static const char *const suppress_names[] = { "beneficial-to-holder", "any-gain-to-holder", NULL };

/* --- options ----------------------------------------------------------------------------- */

void hm_options_default(struct hm_options *o)
{
	memset(o, 0, sizeof(*o));
	/* Random Events: Rally to the Flag "is only performed once per game" (NOTES §002). */
	o->rally_per_game = 1;
}

static int want_option(const struct node *opts, const char *key, const char *const *names, int *out,
	struct diag *d)
{
	const struct node *n = node_get(opts, key);
	return n ? node_want_enum(n, key, names, out, d) : 0;
}

int hm_options_parse(void **out, const struct node *opts, struct diag *d)
{
	static const char *const keys[] = { "rally-to-the-flag", "held-events",
		"suppress-while-holding", NULL };
	struct hm_options *o = xcalloc(1, sizeof(*o));
	int rc = 0;

	hm_options_default(o);
	*out = NULL;
	if (opts && node_check_map(opts, "options", keys, d) < 0)
		rc = -1;
	else if (opts) {
		rc |= want_option(opts, "rally-to-the-flag", rally_names, &o->rally_per_game, d);
		rc |= want_option(opts, "held-events", held_names, &o->held_after_roll, d);
		rc |= want_option(opts, "suppress-while-holding", suppress_names,
			&o->suppress_any_gain, d);
	}
	if (rc < 0)
		free(o);
	else
		*out = o;
	return rc;
}

struct node *hm_options_emit(const void *opts)
{
	const struct hm_options *o = opts;
	struct node *m = node_new_map();
	node_map_str(m, "rally-to-the-flag", rally_names[o->rally_per_game]);
	node_map_str(m, "held-events", held_names[o->held_after_roll]);
	node_map_str(m, "suppress-while-holding", suppress_names[o->suppress_any_gain]);
	return m;
}

void hm_options_free(void *opts)
{
	free(opts);
}

/* --- lookups ----------------------------------------------------------------------------- */

int hm_unit_find(const struct hm_state *s, const char *id)
{
	for (size_t i = 0; i < s->n_units; i++)
		if (strcmp(s->units[i].id, id) == 0)
			return (int)i;
	return -1;
}

int hm_side_find(const struct hm_state *s, const char *player)
{
	for (int i = 0; i < 2; i++)
		if (s->side[i].player && strcmp(s->side[i].player, player) == 0)
			return i;
	return -1;
}

int hm_event_find(const char *name)
{
	for (int e = 1; e <= HM_EVENTS; e++)
		if (strcmp(hm_events[e].name, name) == 0)
			return e;
	return 0;
}

void hm_standing_prune(struct hm_standing *st, const struct hm_state *s)
{
	for (int e = 0; e <= HM_EVENTS; e++) {
		size_t k = 0;
		for (size_t i = 0; i < st->n_choose[e]; i++) {
			if (hm_unit_find(s, st->choose[e][i]) >= 0)
				st->choose[e][k++] = st->choose[e][i];
			else
				free(st->choose[e][i]);
		}
		for (size_t i = k; i < st->n_choose[e]; i++)
			st->choose[e][i] = NULL;
		st->n_choose[e] = k;
	}
}

void hm_unit_remove(struct hm_state *s, size_t i)
{
	const char *id = s->units[i].id;
	size_t k = 0;
	for (size_t j = 0; j < s->n_effects; j++) {
		if (s->effects[j].unit && strcmp(s->effects[j].unit, id) == 0)
			free(s->effects[j].unit);
		else
			s->effects[k++] = s->effects[j];
	}
	s->n_effects = k;
	free(s->units[i].id);
	free(s->units[i].name);
	memmove(&s->units[i], &s->units[i + 1], (s->n_units - i - 1) * sizeof(s->units[0]));
	s->n_units--;
	/* A standing order naming it passes it over from now on: it leaves the lists, so the
	 * state written names no unit the model lacks (docs/rules/hm-events.md, "Orders"). */
	for (int sd = 0; sd < 2; sd++)
		hm_standing_prune(&s->side[sd].standing, s);
}

/* --- standing orders --------------------------------------------------------------------- */

void hm_standing_release(struct hm_standing *st)
{
	for (int e = 0; e <= HM_EVENTS; e++)
		for (size_t i = 0; i < st->n_choose[e]; i++)
			free(st->choose[e][i]);
	memset(st, 0, sizeof(*st));
}

/* An event name as written in `keep` or a `choose` key (`any` for choose[0] when any_ok). */
static int want_event(const struct node *n, const char *what, int any_ok, int *out, struct diag *d)
{
	const char *s;
	if (node_want_str(n, what, 64, &s, d) < 0)
		return -1;
	if (any_ok && strcmp(s, "any") == 0) {
		*out = 0;
		return 0;
	}
	if (!(*out = hm_event_find(s))) {
		node_error(d, n,
			"'%s' is not an event of the table (%sa name such as "
			"'valiant-charge' or 'anxious' expected)",
			s, any_ok ? "'any' or " : "");
		return -1;
	}
	return 0;
}

static int parse_choice_list(struct hm_standing *st, int e, const struct hm_state *s,
	const struct node *n, struct diag *d)
{
	const char *id;
	int rc = 0;
	if (node_check_seq(n, "choose list", HM_MAX_CHOICE, d) < 0)
		return -1;
	for (size_t i = 0; i < n->n; i++) {
		if (node_want_id(n->items[i], "unit", &id, d) < 0) {
			rc = -1;
		} else if (hm_unit_find(s, id) < 0) {
			node_error(d, n->items[i],
				"'%s' is not a unit of the model (a unit id expected)", id);
			rc = -1;
		} else {
			st->choose[e][st->n_choose[e]++] = xstrdup(id);
		}
	}
	return rc;
}

int hm_standing_parse(struct hm_standing *st, const struct hm_state *s, const struct node *n,
	struct diag *d)
{
	static const char *const keys[] = { "keep", "choose", NULL };
	const struct node *k;
	int rc = 0, e;

	memset(st, 0, sizeof(*st));
	if (node_check_map(n, "standing", keys, d) < 0)
		return -1;
	if ((k = node_get(n, "keep"))) {
		if (node_check_seq(k, "keep", HM_EVENTS, d) < 0)
			rc = -1;
		for (size_t i = 0; rc == 0 && i < k->n; i++) {
			if (want_event(k->items[i], "keep", 0, &e, d) < 0)
				rc = -1;
			else
				st->keep |= 1u << e;
		}
	}
	if ((k = node_get(n, "choose"))) {
		if (k->kind != NODE_MAP) {
			node_error(d, k, "'choose' is not a map (event: [unit, ...] expected)");
			return -1;
		}
		for (size_t i = 0; i < k->n; i++) {
			if (want_event(k->keys[i], "choose", 1, &e, d) < 0 ||
				parse_choice_list(st, e, s, k->items[i], d) < 0)
				rc = -1;
		}
	}
	return rc;
}

struct node *hm_standing_emit(const struct hm_standing *st)
{
	struct node *m = node_new_map(), *keep = node_new_seq(), *choose = node_new_map();
	for (int e = 1; e <= HM_EVENTS; e++)
		if (st->keep & (1u << e))
			node_seq_add(keep, node_new_str(hm_events[e].name));
	for (int e = 0; e <= HM_EVENTS; e++) {
		if (!st->n_choose[e])
			continue;
		struct node *l = node_map_add(choose, e ? hm_events[e].name : "any",
			node_new_seq());
		for (size_t i = 0; i < st->n_choose[e]; i++)
			node_seq_add(l, node_new_str(st->choose[e][i]));
	}
	node_map_add(m, "keep", keep);
	node_map_add(m, "choose", choose);
	return m;
}

/* --- state ------------------------------------------------------------------------------- */

static int parse_unit(struct hm_state *s, int side, const struct node *u, struct diag *d)
{
	static const char *const keys[] = { "id", "name", "type", "break", "disr", "broken",
		"in-charge-range", NULL };
	const struct node *n;
	const char *id, *name;
	long long v;
	int bad = 0, t;

	if (node_check_keys(u, "unit", keys, &bad, d) < 0)
		return -1;
	struct hm_unit x = { .side = side };
	if (!(n = node_need(u, "id", d)) || node_want_id(n, "id", &id, d) < 0)
		return -1;
	if (hm_unit_find(s, id) >= 0) {
		node_error(d, n, "a second unit '%s' (unique unit ids expected)", id);
		return -1;
	}
	name = id;
	if ((n = node_get(u, "name")) && node_want_str(n, "name", 64, &name, d) < 0)
		bad = -1;
	if (!(n = node_need(u, "type", d)) || node_want_enum(n, "type", hm_type_names, &t, d) < 0)
		bad = -1;
	else
		x.type = (enum hm_type)t;
	if (!(n = node_need(u, "break", d)) || node_want_int(n, "break", 1, HM_MAX_DISR, &v, d) < 0)
		bad = -1;
	else
		x.break_at = (int)v;
	if ((n = node_get(u, "disr")) && node_want_int(n, "disr", 0, HM_MAX_DISR, &v, d) < 0)
		bad = -1;
	else if (n)
		x.disr = (int)v;
	if ((n = node_get(u, "broken")) && node_want_bool(n, "broken", &x.broken, d) < 0)
		bad = -1;
	if ((n = node_get(u, "in-charge-range")) &&
		node_want_bool(n, "in-charge-range", &x.charge_range, d) < 0)
		bad = -1;
	if (bad < 0)
		return -1;
	if (s->n_units >= HM_MAX_UNITS) {
		node_error(d, u, "more than %d units (at most %d expected)", HM_MAX_UNITS,
			HM_MAX_UNITS);
		return -1;
	}
	x.id = xstrdup(id);
	x.name = xstrdup(name);
	s->units[s->n_units++] = x;
	return 0;
}

static int parse_side(struct hm_state *s, const struct rules_campaign *c, int i,
	const struct node *sn, struct diag *d)
{
	static const char *const keys[] = { "player", "commander", "morale", "held", "held-since",
		"rally-to-the-flag-used", "standing", "units", NULL };
	struct hm_side *sd = &s->side[i];
	const struct node *n;
	const char *str;
	long long v;
	int bad = 0;

	if (node_check_keys(sn, "side", keys, &bad, d) < 0)
		return -1;
	if (!(n = node_need(sn, "player", d)) || node_want_id(n, "player", &str, d) < 0)
		return -1;
	int known = 0;
	for (size_t k = 0; k < c->n_players; k++)
		known |= strcmp(c->players[k], str) == 0;
	if (!known || (i == 1 && strcmp(s->side[0].player, str) == 0)) {
		node_error(d, n,
			"'%s' is not a player of the campaign or is listed twice (each "
			"player once expected)",
			str);
		return -1;
	}
	sd->player = xstrdup(str);
	if (!(n = node_need(sn, "commander", d)) || node_want_str(n, "commander", 64, &str, d) < 0)
		bad = -1;
	else
		sd->commander = xstrdup(str);
	if (!(n = node_need(sn, "morale", d)) ||
		node_want_int(n, "morale", -HM_MAX_MORALE, HM_MAX_MORALE, &v, d) < 0)
		bad = -1;
	else
		sd->morale = (int)v;
	if ((n = node_get(sn, "held")) && node_want_str(n, "held", 64, &str, d) == 0) {
		if (strcmp(str, "none") != 0 && !(sd->held = hm_event_find(str))) {
			node_error(d, n,
				"'%s' is not an event of the table (none or an event name "
				"expected)",
				str);
			bad = -1;
		}
	} else if (n)
		bad = -1;
	if ((n = node_get(sn, "held-since")) &&
		node_want_int(n, "held-since", 0, 999999, &v, d) < 0)
		bad = -1;
	else if (n)
		sd->held_since = (int)v;
	if ((n = node_get(sn, "rally-to-the-flag-used")) &&
		node_want_bool(n, "rally-to-the-flag-used", &sd->rally_used, d) < 0)
		bad = -1;
	if (!(n = node_need(sn, "units", d)) || node_check_seq(n, "units", HM_MAX_UNITS, d) < 0)
		return -1;
	for (size_t k = 0; k < n->n; k++)
		if (parse_unit(s, i, n->items[k], d) < 0)
			bad = -1;
	return bad;
}

static int parse_effect(struct hm_state *s, const struct node *en, struct diag *d)
{
	static const char *const keys[] = { "side", "event", "unit", "chosen-by", "amount", "until",
		NULL };
	struct hm_effect f = { 0 };
	const struct node *n;
	const char *str;
	long long v;
	int bad = 0, ch;

	if (node_check_keys(en, "effect", keys, &bad, d) < 0)
		return -1;
	if (!(n = node_need(en, "side", d)) || node_want_id(n, "side", &str, d) < 0 ||
		(f.side = hm_side_find(s, str)) < 0) {
		node_error(d, n ? n : en, "an effect on no side (a side's player expected)");
		return -1;
	}
	if (!(n = node_need(en, "event", d)) || node_want_str(n, "event", 64, &str, d) < 0 ||
		!(f.event = hm_event_find(str))) {
		node_error(d, n ? n : en, "an effect of no event (an event name expected)");
		return -1;
	}
	if ((n = node_get(en, "unit"))) {
		if (node_want_id(n, "unit", &str, d) < 0 || hm_unit_find(s, str) < 0) {
			node_error(d, n, "an effect on no unit of the model (a unit id expected)");
			return -1;
		}
	}
	if ((n = node_get(en, "chosen-by")) &&
		node_want_enum(n, "chosen-by", hm_chooser_names, &ch, d) == 0)
		f.chosen_by = (enum hm_chooser)ch;
	else if (n)
		bad = -1;
	if ((n = node_get(en, "amount")) && node_want_int(n, "amount", 0, 2, &v, d) == 0)
		f.amount = (int)v;
	else if (n)
		bad = -1;
	if (!(n = node_need(en, "until", d)) || node_want_int(n, "until", 0, 999999, &v, d) < 0)
		return -1;
	f.until = (int)v;
	if (bad < 0 || s->n_effects >= HM_MAX_EFFECTS)
		return -1;
	n = node_get(en, "unit");
	f.unit = n ? xstrdup(n->scalar) : NULL;
	s->effects[s->n_effects++] = f;
	return 0;
}

/* Sides and units first: standing orders and effects name units. */
static int parse_game(struct hm_state *s, const struct rules_campaign *c, const struct node *game,
	struct diag *d)
{
	static const char *const keys[] = { "attacker", "sides", "effects", NULL };
	const struct node *sides, *n;
	const char *str;
	int bad = 0;

	if (node_check_keys(game, "game", keys, &bad, d) < 0)
		return -1;
	if (!(sides = node_need(game, "sides", d)) || node_check_seq(sides, "sides", 2, d) < 0)
		return -1;
	if (sides->n != 2) {
		node_error(d, sides, "%zu sides (2 expected: the attacker and the defender)",
			sides->n);
		return -1;
	}
	for (int i = 0; i < 2; i++)
		if (parse_side(s, c, i, sides->items[i], d) < 0)
			return -1;
	for (int i = 0; i < 2; i++)
		if ((n = node_get(sides->items[i], "standing")) &&
			hm_standing_parse(&s->side[i].standing, s, n, d) < 0)
			bad = -1;
	if (!(n = node_need(game, "attacker", d)) || node_want_id(n, "attacker", &str, d) < 0)
		return -1;
	if ((s->attacker = hm_side_find(s, str)) < 0) {
		node_error(d, n, "'%s' is not a side (the attacking side's player expected)", str);
		return -1;
	}
	if ((n = node_get(game, "effects"))) {
		if (node_check_seq(n, "effects", HM_MAX_EFFECTS, d) < 0)
			return -1;
		for (size_t i = 0; i < n->n; i++)
			if (parse_effect(s, n->items[i], d) < 0)
				bad = -1;
	}
	return bad;
}

int hm_state_parse(void **out, const struct rules_campaign *c, const struct node *game,
	struct diag *d)
{
	struct hm_state *s = xcalloc(1, sizeof(*s));
	s->units = xcalloc(HM_MAX_UNITS, sizeof(*s->units));
	s->effects = xcalloc(HM_MAX_EFFECTS + HM_EFFECTS_PER_TURN, sizeof(*s->effects));
	*out = NULL;
	if (parse_game(s, c, game, d) < 0) {
		hm_state_free(s);
		return -1;
	}
	*out = s;
	return 0;
}

static struct node *emit_unit(const struct hm_unit *u)
{
	struct node *m = node_new_map();
	node_map_str(m, "id", u->id);
	node_map_str(m, "name", u->name);
	node_map_str(m, "type", hm_type_names[u->type]);
	node_map_int(m, "break", u->break_at);
	node_map_int(m, "disr", u->disr);
	node_map_bool(m, "broken", u->broken);
	node_map_bool(m, "in-charge-range", u->charge_range);
	return m;
}

/* Side i; with_standing 0 leaves its standing orders out (another's view, the public's). */
static struct node *emit_side(const struct hm_state *s, int i, int with_standing)
{
	const struct hm_side *sd = &s->side[i];
	struct node *m = node_new_map();
	node_map_str(m, "player", sd->player);
	node_map_str(m, "commander", sd->commander);
	node_map_int(m, "morale", sd->morale);
	node_map_str(m, "held", sd->held ? hm_events[sd->held].name : "none");
	if (sd->held)
		node_map_int(m, "held-since", sd->held_since);
	node_map_bool(m, "rally-to-the-flag-used", sd->rally_used);
	if (with_standing)
		node_map_add(m, "standing", hm_standing_emit(&sd->standing));
	struct node *units = node_map_add(m, "units", node_new_seq());
	for (size_t k = 0; k < s->n_units; k++)
		if (s->units[k].side == i)
			node_seq_add(units, emit_unit(&s->units[k]));
	return m;
}

/* The state with the standing orders of side `standing` (-1 none, 2 both). */
static struct node *emit_state(const struct hm_state *s, int standing)
{
	struct node *m = node_new_map();
	node_map_str(m, "attacker", s->side[s->attacker].player);
	struct node *sides = node_map_add(m, "sides", node_new_seq());
	for (int i = 0; i < 2; i++)
		node_seq_add(sides, emit_side(s, i, standing == 2 || standing == i));
	struct node *effects = node_map_add(m, "effects", node_new_seq());
	for (size_t k = 0; k < s->n_effects; k++) {
		const struct hm_effect *f = &s->effects[k];
		struct node *e = node_seq_add(effects, node_new_map());
		node_map_str(e, "side", s->side[f->side].player);
		node_map_str(e, "event", hm_events[f->event].name);
		if (f->unit)
			node_map_str(e, "unit", f->unit);
		node_map_str(e, "chosen-by", hm_chooser_names[f->chosen_by]);
		if (f->event == 10)
			node_map_int(e, "amount", f->amount);
		node_map_int(e, "until", f->until);
	}
	return m;
}

struct node *hm_state_emit(const struct rules_campaign *c, const void *state)
{
	(void)c;
	return emit_state(state, 2);
}

struct node *hm_state_view(const struct rules_campaign *c, const void *state, const char *player)
{
	const struct hm_state *s = state;
	(void)c;
	return emit_state(s, player ? hm_side_find(s, player) : -1);
}

void hm_state_free(void *state)
{
	struct hm_state *s = state;
	if (!s)
		return;
	for (int i = 0; i < 2; i++) {
		free(s->side[i].player);
		free(s->side[i].commander);
		hm_standing_release(&s->side[i].standing);
	}
	for (size_t k = 0; k < s->n_units; k++) {
		free(s->units[k].id);
		free(s->units[k].name);
	}
	for (size_t k = 0; k < s->n_effects; k++)
		free(s->effects[k].unit);
	free(s->units);
	free(s->effects);
	free(s);
}
