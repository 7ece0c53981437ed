/* turn.c — the Warmaster player turn and the plug-in: sides alternate in campaign order, and a
 * side's turn is its Command, Shooting and Combat phases and the End phase (Warmaster
 * Sequence). Also who is due, when the game ends, and the per-player report. */
#include <string.h>

#include "rules/warmaster/warmaster.h"
#include "core/words.h"
#include "rules/lib/turns.h"
#include "core/banned.h"

static size_t alive(const struct wm_state *s, int side)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n_units; i++)
		if (s->units[i].side == side && !s->units[i].destroyed)
			n++;
	return n;
}

static int wm_resolve(const struct rules_campaign *c, void *state, struct rules_turn *t)
{
	struct wm_state *s = state;
	struct wm_options def;
	const struct wm_options *o = c->options;
	static const struct wm_orders none;
	const struct wm_orders *ord = &none;
	if (!o) {
		wm_options_default(&def);
		o = &def;
	}
	struct wm_ctx x = { s, o, t->dice, t->events, "command", wm_active_side(s, t->turn) };
	for (size_t i = 0; i < t->n_orders; i++)
		if (wm_side_of(s, t->orders[i].player) == x.active && t->orders[i].orders)
			ord = t->orders[i].orders;
	if (ord->has_standing) {
		s->side[x.active].win = ord->win;
		s->side[x.active].draw_stand = ord->draw_stand;
	}
	/* Holding, the side stands whatever its standing orders say; they are kept. */
	enum wm_after win = s->side[x.active].win;
	int draw_stand = s->side[x.active].draw_stand;
	if (ord->hold) {
		s->side[x.active].win = WM_STAND;
		s->side[x.active].draw_stand = 1;
		events_add(t->events, "orders",
			"%s holds: no unit is ordered, shoots or casts; it stands after a combat",
			s->side[x.active].player);
	}
	wm_end_phase(&x); /* a clean slate of this turn's marks */
	wm_command_phase(&x, ord);
	wm_shooting_phase(&x, ord);
	wm_combat_phase(&x);
	wm_end_phase(&x);
	if (ord->hold) {
		s->side[x.active].win = win;
		s->side[x.active].draw_stand = draw_stand;
	}
	buf_printf(&t->summary, "%s%s turn;", s->side[x.active].player,
		words_possessive(s->side[x.active].player));
	for (size_t i = 0; i < s->n_sides; i++)
		buf_printf(&t->summary, " %s %zu units%s", s->side[i].player, alive(s, (int)i),
			i + 1 < s->n_sides ? "," : "");
	return 0;
}

static int wm_hold_orders(void **out, const struct rules_campaign *c, const void *state, int turn,
	const char *player)
{
	struct wm_orders *o = xcalloc(1, sizeof(*o));
	(void)c;
	(void)state;
	(void)turn;
	(void)player;
	o->hold = 1;
	o->win = WM_STAND;
	o->draw_stand = 1;
	*out = o;
	return 0;
}

static int wm_player_due(const struct rules_campaign *c, const void *state, int turn,
	const char *player)
{
	const struct wm_state *s = state;
	(void)c;
	int side = wm_side_of(s, player);
	return side >= 0 && side == wm_active_side(s, turn);
}

static int wm_game_over(const struct rules_campaign *c, const void *state, int turn,
	const char **why)
{
	const struct wm_state *s = state;
	size_t standing = 0;
	(void)c;
	if (turns_last_played(s->turns, turn, why))
		return 1;
	for (size_t i = 0; i < s->n_chars; i++)
		if (s->chars[i].slain && s->chars[i].role == WM_GENERAL) {
			if (why)
				*why = "a General has been slain (WMR End of the Battle)";
			return 1;
		}
	for (size_t i = 0; i < s->n_sides; i++)
		standing += alive(s, (int)i) > 0;
	if (standing < 2) {
		if (why)
			*why = "only one side has units left";
		return 1;
	}
	return 0;
}

static void wm_report(const struct rules_campaign *c, const void *state, const char *player,
	struct buf *out)
{
	const struct wm_state *s = state;
	int side = player ? wm_side_of(s, player) : -1;
	(void)c;
	if (side >= 0)
		buf_printf(out, "### Your standing orders\n\nwin: %s; draw: %s\n\n",
			wm_after_names[s->side[side].win],
			s->side[side].draw_stand ? "stand" : "fall-back");
	buf_puts(out, "### Units\n\n| unit | side | stands | front centre | position | state |\n"
		      "|---|---|---|---|---|---|\n");
	for (size_t i = 0; i < s->n_units; i++) {
		const struct wm_unit *u = &s->units[i];
		struct table_pt f = wm_front_centre(u);
		buf_printf(out, "| %s (%s) | %s | %d/%d | [%d, %d] | %s | %s%s%s |\n", u->id,
			u->name, s->side[u->side].player, u->stands, u->max_stands, f.x, f.y,
			wm_position_names[wm_position_of(s, u)],
			u->destroyed ? "destroyed" :
			u->confused  ? "confused" :
				       "ready",
			u->engaged ? ", engaged with " : "",
			u->engaged ? s->units[u->engaged - 1].id : "");
	}
	buf_puts(out, "\n## Characters\n\n");
	for (size_t i = 0; i < s->n_chars; i++) {
		const struct wm_character *ch = &s->chars[i];
		buf_printf(out, "- %s (%s, %s): ", ch->id, ch->name, s->side[ch->side].player);
		if (ch->slain)
			buf_puts(out, "slain\n");
		else if (ch->with)
			buf_printf(out, "with %s\n", s->units[ch->with - 1].id);
		else
			buf_printf(out, "at [%d, %d]\n", ch->at.x, ch->at.y);
	}
	buf_puts(out, "\n## Structures\n\n");
	for (size_t i = 0; i < s->n_structures; i++)
		buf_printf(out, "- %s (%s): %s\n", s->structures[i].id,
			wm_skind_names[s->structures[i].kind],
			s->structures[i].breached ? "breached" :
			s->structures[i].damaged  ? "damaged" :
						    "intact");
}

/* Each side's standing choices (win, draw) are private to it; its order files (initiative,
 * the orders it plans) the core withholds in a sealed campaign. */
/* Positions are public: every player and the public see the same map. */
static void wm_map(const struct rules_campaign *c, const void *state, const struct rules_map *m,
	const char *player, struct buf *out)
{
	(void)c;
	(void)player;
	wm_draw_map(state, m, out);
}

static struct node *wm_state_view(const struct rules_campaign *c, const void *state,
	const char *player)
{
	const struct wm_state *s = state;
	(void)c;
	return wm_state_emit_view(s, player ? wm_side_of(s, player) : WM_VIEW_PUBLIC);
}

const struct rule_system rules_warmaster = {
	.version = RULES_INTERFACE_VERSION,
	.name = "warmaster",
	.title = "Warmaster (Games Workshop 2000; quick-reference sheet, WMR army lists)",
	.revision = 4,
	.flags = RULES_ALTERNATE | RULES_MEASURED | RULES_PRIVATE,
	.min_players = 2,
	.max_players = WM_MAX_SIDES,
	.help = "Tabletop in integer millimetres. Sides take player turns in campaign order: "
		"Command, Shooting,\n"
		"Combat, End. orders: a list of entries, each either\n"
		"  character: ID            a character's orders, tried in sequence:\n"
		"    orders: [{unit: ID | brigade: ID, move: [[x, y], ...] | charge: ENEMY,\n"
		"              formation: line|column|irregular}]\n"
		"    move: [x, y]           where the character goes after its orders\n"
		"    join: UNIT             or: it joins one of its units (within its move)\n"
		"  shoot: UNIT, at: TARGET  a shot at an enemy unit or a structure\n"
		"  cast: SPELL, by: WIZARD, at: UNIT | [x, y]   a spell (Shooting phase)\n"
		"standing: {initiative: {UNIT: charge|evade}, win: pursue|stand|fall-back,\n"
		"  draw: fall-back|stand}\n"
		"options: blunder-4-5 (half-pace|no-move), draw-fall-back (3d6|up-to-3d6),\n"
		"  steam-tank (sheet|wmr), giant-goes-wild (failed-order|blunder),\n"
		"  flame-cannon (sheet|wmr).\n"
		"See docs/rules/warmaster.md.",
	.options_parse = wm_options_parse,
	.options_emit = wm_options_emit,
	.options_free = wm_options_free,
	.state_parse = wm_state_parse,
	.state_emit = wm_state_emit,
	.state_free = wm_state_free,
	.player_due = wm_player_due,
	.game_over = wm_game_over,
	.orders_parse = wm_orders_parse,
	.orders_free = wm_orders_free,
	.resolve = wm_resolve,
	.report = wm_report,
	.state_view = wm_state_view,
	.orders_template = wm_orders_template,
	.result = wm_result,
	.victory = wm_victory,
	.hold_orders = wm_hold_orders,
	.draw_map = wm_map,
};
