/* landraid.c — the Land Raid rule system as the core sees it: the rule_system table, the
 * campaign options, the PBEM turn model (one player turn per PBEM turn, sides alternating)
 * and the turn in §17's order: standing orders, events, morale, officers' actions. */
#include <stdlib.h>
#include <string.h>

#include "rules/land-raid/landraid.h"
#include "core/banned.h"

static const char *const option_keys[] = {
	"turns-per-player",
	"better-save",
	"loot-carriers-plunder",
	"max-shoot-actions",
	"max-gather-actions",
	"commander-morale-reroll",
	"ignore-scurvy",
	"max-defender-troops",
	"officer-casualty",
	"blocked-fall-back",
	"morale-officers",
	"commander-fight",
	"victory",
	NULL,
};
static const char *const reroll_names[] = { "failed", "all", NULL };
static const char *const ignore_names[] = { "any", "one", NULL };
static const char *const officer_casualty_names[] = { "third", "third-or-last", NULL };
static const char *const blocked_names[] = { "stay", "cut-down", NULL };
static const char *const morale_officers_names[] = { "flee", "never", NULL };
static const char *const commander_fight_names[] = { "square", "fighting", NULL };

void landraid_options_default(struct landraid_options *o)
{
	o->turns_per_player = 4;
	o->better_save = LR_SAVE_PER_CONDITION;
	o->loot_carriers_plunder = 0;
	o->max_shoot_actions = 3;
	o->max_gather_actions = 3;
	o->morale_reroll_all = 0;
	o->ignore_scurvy_one = 0;
	o->max_defender_troops = 8;
	o->officer_casualty = LR_OFFICER_THIRD;
	o->blocked_fall_back = LR_BLOCKED_STAY;
	o->morale_officers = LR_MORALE_OFFICERS_FLEE;
	o->commander_fight = LR_COMMANDER_SQUARE;
}

/* The enum options: key, names, and where the value goes. */
static void parse_enum_options(struct landraid_options *o, const struct node *opts, struct diag *d)
{
	const struct {
		const char *key;
		const char *const *names;
		int *out;
	} v[] = {
		{ "better-save", landraid_save_names, &o->better_save },
		{ "commander-morale-reroll", reroll_names, &o->morale_reroll_all },
		{ "ignore-scurvy", ignore_names, &o->ignore_scurvy_one },
		{ "officer-casualty", officer_casualty_names, &o->officer_casualty },
		{ "blocked-fall-back", blocked_names, &o->blocked_fall_back },
		{ "morale-officers", morale_officers_names, &o->morale_officers },
		{ "commander-fight", commander_fight_names, &o->commander_fight },
	};
	const struct node *n;
	int e;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if ((n = node_get(opts, v[i].key)) &&
			node_want_enum(n, v[i].key, v[i].names, &e, d) == 0)
			*v[i].out = e;
}

/* `victory: {loot: N}` (docs/rules/land-raid.md "Victory"): the attacker wins by carrying
 * off N loot or more by the game's end (§24 scores the raid by its loot), else the defender. */
static void parse_victory(struct landraid_options *o, const struct node *n, struct diag *d)
{
	static const char *const keys[] = { "loot", NULL };
	long long v;

	if (!n || node_check_map(n, "victory", keys, d) < 0)
		return;
	const struct node *loot = node_need(n, "loot", d);
	if (loot && node_want_int(loot, "loot", 1, 1000, &v, d) == 0)
		o->victory_loot = (int)v;
}

static int lr_options_parse(void **out, const struct node *opts, struct diag *d)
{
	size_t before = diag_count(d);
	struct landraid_options *o = xcalloc(1, sizeof(*o));
	const struct node *n;
	long long v;
	int e;

	landraid_options_default(o);
	*out = NULL;
	if (opts && !(opts->kind == NODE_SCALAR && !opts->quoted && !opts->scalar[0])) {
		if (node_check_map(opts, "options", option_keys, d) < 0)
			goto done;
		if ((n = node_get(opts, "turns-per-player")) &&
			node_want_int(n, "turns-per-player", 1, 100, &v, d) == 0)
			o->turns_per_player = (int)v;
		parse_enum_options(o, opts, d);
		if ((n = node_get(opts, "loot-carriers-plunder")) &&
			node_want_bool(n, "loot-carriers-plunder", &e, d) == 0)
			o->loot_carriers_plunder = e;
		if ((n = node_get(opts, "max-shoot-actions")) &&
			node_want_int(n, "max-shoot-actions", 0, 100, &v, d) == 0)
			o->max_shoot_actions = (int)v;
		if ((n = node_get(opts, "max-gather-actions")) &&
			node_want_int(n, "max-gather-actions", 0, 100, &v, d) == 0)
			o->max_gather_actions = (int)v;
		if ((n = node_get(opts, "max-defender-troops")) &&
			node_want_int(n, "max-defender-troops", 0, 1000, &v, d) == 0)
			o->max_defender_troops = (int)v;
		parse_victory(o, node_get(opts, "victory"), d);
	}
done:
	if (diag_count(d) != before) {
		free(o);
		return -1;
	}
	*out = o;
	return 0;
}

static struct node *lr_options_emit(const void *opts)
{
	const struct landraid_options *o = opts;
	struct node *m = node_new_map();
	node_map_int(m, "turns-per-player", o->turns_per_player);
	node_map_str(m, "better-save", landraid_save_names[o->better_save]);
	node_map_bool(m, "loot-carriers-plunder", o->loot_carriers_plunder);
	node_map_int(m, "max-shoot-actions", o->max_shoot_actions);
	node_map_int(m, "max-gather-actions", o->max_gather_actions);
	node_map_str(m, "commander-morale-reroll", reroll_names[o->morale_reroll_all]);
	node_map_str(m, "ignore-scurvy", ignore_names[o->ignore_scurvy_one]);
	node_map_int(m, "max-defender-troops", o->max_defender_troops);
	node_map_str(m, "officer-casualty", officer_casualty_names[o->officer_casualty]);
	node_map_str(m, "blocked-fall-back", blocked_names[o->blocked_fall_back]);
	node_map_str(m, "morale-officers", morale_officers_names[o->morale_officers]);
	node_map_str(m, "commander-fight", commander_fight_names[o->commander_fight]);
	if (o->victory_loot) {
		struct node *v = node_new_map();
		node_map_int(v, "loot", o->victory_loot);
		node_map_add(m, "victory", v);
	}
	return m;
}

static void lr_options_free(void *opts)
{
	free(opts);
}

/* Options of the campaign, or the defaults when a hook is called without any. */
static const struct landraid_options *options_of(const struct rules_campaign *c)
{
	/* landraid_options_default's values; the enum options' defaults are 0. */
	static const struct landraid_options defaults = {
		.turns_per_player = 4,
		.better_save = LR_SAVE_PER_CONDITION,
		.max_shoot_actions = 3,
		.max_gather_actions = 3,
		.max_defender_troops = 8,
		.officer_casualty = LR_OFFICER_THIRD,
		.blocked_fall_back = LR_BLOCKED_STAY,
		.morale_officers = LR_MORALE_OFFICERS_FLEE,
		.commander_fight = LR_COMMANDER_SQUARE,
	};
	return c && c->options ? c->options : &defaults;
}

static int lr_state_parse(void **out, const struct rules_campaign *c, const struct node *game,
	struct diag *d)
{
	struct landraid_state *s;
	int rc = landraid_state_parse(&s, c, game, d);
	*out = rc == 0 ? s : NULL;
	return rc;
}

static struct node *lr_state_emit(const struct rules_campaign *c, const void *state)
{
	(void)c;
	return landraid_state_emit(state);
}

/* Standing orders are private to their side; everything else on the table is public. */
static struct node *lr_state_view(const struct rules_campaign *c, const void *state,
	const char *player)
{
	int side = -1;

	(void)c;
	for (int i = 0; player && i < LR_SIDES; i++)
		if (strcmp(player, landraid_side_names[i]) == 0)
			side = i;
	return landraid_state_emit_view(state, side);
}

/* Nothing on the table is private: every player and the public see the same map. */
static void lr_draw_map(const struct rules_campaign *c, const void *state,
	const struct rules_map *m, const char *player, struct buf *out)
{
	(void)c;
	(void)player;
	landraid_draw_map(state, m->before, m, out);
}

static void lr_state_free(void *state)
{
	landraid_state_free(state);
}

int landraid_active_side(const struct landraid_state *s, int turn)
{
	/* PBEM turn t is one player turn: `first` moves on odd turns, the other on even. */
	return turn % 2 == 1 ? s->first : 1 - s->first;
}

static int lr_player_due(const struct rules_campaign *c, const void *state, int turn,
	const char *player)
{
	const struct landraid_state *s = state;
	if (turn < 1 || turn > 2 * options_of(c)->turns_per_player)
		return 0;
	return strcmp(player, landraid_side_names[landraid_active_side(s, turn)]) == 0;
}

static int lr_game_over(const struct rules_campaign *c, const void *state, int turn,
	const char **why)
{
	const struct landraid_state *s = state;
	if (turn > 2 * options_of(c)->turns_per_player) {
		if (why)
			*why = "the game length is reached (option turns-per-player)";
		return 1;
	}
	if (landraid_count_side(s, LR_ATTACKER, LR_ALL_ROLES) == 0) {
		if (why)
			*why = "the attacker has no bases left on the table";
		return 1;
	}
	if (landraid_count_side(s, LR_DEFENDER, LR_ALL_ROLES) == 0) {
		if (why)
			*why = "the defender has no bases left on the table";
		return 1;
	}
	return 0;
}

static int lr_victory(const struct rules_campaign *c, const void *state, const char **winner,
	struct buf *why)
{
	return landraid_victory(state, options_of(c), winner, why);
}

static int lr_orders_parse(void **out, const struct rules_campaign *c, const void *state, int turn,
	const char *player, const struct node *orders, const struct node *standing, struct diag *d)
{
	struct landraid_orders *o;
	(void)turn;
	int rc = landraid_orders_parse(&o, state, options_of(c), player, orders, standing, d);
	*out = rc == 0 ? o : NULL;
	return rc;
}

static void lr_orders_free(void *orders)
{
	landraid_orders_free(orders);
}

/* docs/rules/land-raid.md "Hold orders" (§17 step 3: only an ordered officer acts). */
static int lr_hold_orders(void **out, const struct rules_campaign *c, const void *state, int turn,
	const char *player)
{
	struct landraid_orders *o = xcalloc(1, sizeof(*o));
	(void)c;
	(void)state;
	(void)turn;
	o->side = strcmp(player, landraid_side_names[LR_DEFENDER]) == 0 ? LR_DEFENDER : LR_ATTACKER;
	o->hold = 1;
	*out = o;
	return 0;
}

void landraid_ctx_init(struct landraid_ctx *c, struct landraid_state *s,
	const struct landraid_options *o, struct dice *dice, struct events *ev, int active)
{
	memset(c, 0, sizeof(*c));
	c->s = s;
	c->o = o;
	c->dice = dice;
	c->ev = ev;
	c->active = active;
	c->player = landraid_side_names[active];
	/* §6: a base acts with one officer a turn; a new turn starts with every base free. */
	for (size_t i = 0; i < s->n_bases; i++)
		s->bases[i]->with = NULL;
}

void landraid_kill(struct landraid_ctx *c, struct landraid_base *b, int marker_sq)
{
	landraid_mark_casualty(c->s, marker_sq, b);
	c->lost[b->side]++;
	landraid_base_remove(c->s, b);
}

static void standing_event(struct landraid_ctx *c, unsigned set)
{
	static const char *const names[] = {
		"response",
		"withdraw",
		"fall-back",
		"morale-removal",
		"events.dockside",
		"events.redeploy",
		"events.garrison",
		"events.choice-8-10",
		"events.officer-square",
		"events.scurvy-square",
		"events.choice-11-12",
		"events.remove-scurvy",
	};
	struct buf b = BUF_INIT;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (set & (1u << i))
			buf_printf(&b, "%s%s", b.len ? ", " : "", names[i]);
	events_add(c->ev, "orders", "the %s changes standing orders: %s",
		landraid_side_names[c->active], buf_str(&b));
	buf_release(&b);
}

static int lr_play(const struct rules_campaign *c, void *state, struct rules_turn *t)
{
	struct landraid_state *s = state;
	struct landraid_ctx x;
	const struct landraid_orders *o = NULL;
	int active = landraid_active_side(s, t->turn);

	landraid_ctx_init(&x, s, options_of(c), t->dice, t->events, active);
	for (size_t i = 0; i < t->n_orders; i++)
		if (strcmp(t->orders[i].player, landraid_side_names[active]) == 0)
			o = t->orders[i].orders;
	/* Standing orders first: the events' choices of this turn come from them. */
	if (o && o->standing_set) {
		landraid_standing_apply(s, o);
		/* Sealed: which standing orders changed is the side's secret. */
		if (!t->events->sealed)
			standing_event(&x, o->standing_set);
	}
	landraid_events(&x); /* §17 step 1 */
	if (x.error)
		return -1;
	landraid_morale(&x); /* §17 step 2 */
	/* §17 "Response shooting from this point": it is wired into move and shoot only. */
	int acted = 0;
	if (!o)
		events_add(t->events, "actions", "no orders from the %s: no officer acts",
			landraid_side_names[active]);
	for (size_t i = 0; o && i < o->n; i++) { /* §17 step 3 */
		landraid_officer_actions(&x, &o->v[i], (int)i + 1);
		if (x.error)
			return -1;
		acted++;
	}
	landraid_compact(s);
	buf_printf(&t->summary,
		"the %s's turn: event %d; %d officer%s acted; lost: attacker %d, "
		"defender %d; loot %d (total %d)",
		landraid_side_names[active], x.event_score, acted, acted == 1 ? "" : "s",
		x.lost[LR_ATTACKER], x.lost[LR_DEFENDER], x.loot, s->loot_taken);
	return 0;
}

/* A side holding plays with the sheet's defaults for its standing orders; its own are
 * kept for when its player sends orders again (docs/rules/land-raid.md "Hold orders"). */
static int lr_resolve(const struct rules_campaign *c, void *state, struct rules_turn *t)
{
	struct landraid_state *s = state;
	int active = landraid_active_side(s, t->turn);
	const struct landraid_orders *o = NULL;

	for (size_t i = 0; i < t->n_orders; i++)
		if (strcmp(t->orders[i].player, landraid_side_names[active]) == 0)
			o = t->orders[i].orders;
	if (!o || !o->hold)
		return lr_play(c, state, t);
	struct landraid_standing kept = s->standing[active];
	landraid_standing_default(&s->standing[active], active);
	events_add(t->events, "orders",
		"the %s holds: no officer acts, the sheet's defaults stand in for its standing orders",
		landraid_side_names[active]);
	int rc = lr_play(c, state, t);
	landraid_standing_release(&s->standing[active]);
	s->standing[active] = kept;
	return rc;
}

static void lr_report(const struct rules_campaign *c, const void *state, const char *player,
	struct buf *out)
{
	(void)player;
	landraid_report(state, options_of(c), out);
}

static const char help[] =
	"Land Raid (Peter Pig, Pieces of Eight): a raid on a square grid (squares A1..Z26).\n"
	"Players: attacker and defender. PBEM turn t is one player turn; game.first moves on\n"
	"turn 1, then the sides alternate; turns-per-player (default 4) each.\n"
	"\n"
	"Orders (one entry per officer, in the order they act; 1 action, commander 2, then\n"
	"D6 3-6 for each further one, at most 3):\n"
	"  orders:\n"
	"    - officer: blood\n"
	"      group: [b1, b2]         # optional: the bases of his group (§6)\n"
	"      ignore: [s1]            # scurvy bases left out of his group (§6)\n"
	"      actions:\n"
	"        - move: C2            # face-touching square empty of opponents\n"
	"          drag: [b1, b2]      # up to 4 bases from his square\n"
	"        - shoot: D3           # or just `- shoot` for the priority target\n"
	"        - gather: [b5]        # or `- gather`; 3D6, each 5-6 brings a base\n"
	"        - fight: D2           # last action; optional with: [b1, b2] (max 4)\n"
	"        - plunder             # attacker, last action, square with a plunder marker\n"
	"Standing orders (persist until changed):\n"
	"  standing:\n"
	"    response: all             # all | on-move | on-shot | none\n"
	"    withdraw: false           # withdraw instead of fighting when assaulted\n"
	"    fall-back: [C3]           # preferred fall-back squares\n"
	"    morale-removal: [d4]      # enemy bases to remove when their morale leaves none\n"
	"    events: { dockside, redeploy, garrison, choice-8-10, officer-square,\n"
	"              scurvy-square, choice-11-12, remove-scurvy }\n"
	"Options: turns-per-player, better-save (per-condition|once|none),\n"
	"loot-carriers-plunder, max-shoot-actions, max-gather-actions,\n"
	"commander-morale-reroll (failed|all), ignore-scurvy (any|one), max-defender-troops,\n"
	"officer-casualty (third|third-or-last), blocked-fall-back (stay|cut-down),\n"
	"morale-officers (flee|never), commander-fight (square|fighting).\n"
	"See docs/rules/land-raid.md for every reading.";

const struct rule_system rules_land_raid = {
	.version = RULES_INTERFACE_VERSION,
	.name = "land-raid",
	.title = "Land Raid (Peter Pig, Pieces of Eight)",
	.revision = 2,
	.flags = RULES_ALTERNATE | RULES_GRID | RULES_PRIVATE,
	.min_players = 2,
	.max_players = 2,
	.help = help,
	.options_parse = lr_options_parse,
	.options_emit = lr_options_emit,
	.options_free = lr_options_free,
	.state_parse = lr_state_parse,
	.state_emit = lr_state_emit,
	.state_free = lr_state_free,
	.player_due = lr_player_due,
	.game_over = lr_game_over,
	.orders_parse = lr_orders_parse,
	.orders_free = lr_orders_free,
	.resolve = lr_resolve,
	.report = lr_report,
	.state_view = lr_state_view,
	.orders_template = landraid_orders_template,
	.result = landraid_result,
	.victory = lr_victory,
	.hold_orders = lr_hold_orders,
	.draw_map = lr_draw_map,
};
