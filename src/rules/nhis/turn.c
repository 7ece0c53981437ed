/* turn.c — the NHiS turn for play by email: Rally Phase, an Operations Phase in which the
 * two sides' impulses alternate (initiative side first) with opportunity fire from standing
 * orders, and the Administrative Phase that clears the markers; plus who is due, when the
 * game ends, the Markdown report, and the rule_system table that registry.c lists. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/nhis/nhis.h"
#include "rules/lib/turns.h"
#include "core/banned.h"

int nhis_enemy_in(const struct nhis_state *s, int side, int hex)
{
	for (size_t i = 0; i < s->n_units; i++)
		if (s->units[i].side != side && !s->units[i].eliminated && s->units[i].hex == hex)
			return 1;
	return 0;
}

int nhis_enemy_distance(const struct nhis_state *s, int side, int hex)
{
	int best = 1 << 20;
	for (size_t i = 0; i < s->n_units; i++) {
		const struct nhis_unit *u = &s->units[i];
		if (u->side == side || u->eliminated)
			continue;
		int dist = nhis_distance(hex, u->hex);
		if (dist < best)
			best = dist;
	}
	return best;
}

static int jungle_side(const struct nhis_state *s, int side)
{
	return s->side[side].nationality && strcmp(s->side[side].nationality, "japanese") == 0;
}

/* Standing orders of side `side` that trigger on an enemy moving into hex: each order in
 * list order, once a turn, with its units that are in its hex, Prepared, unmarked and
 * within double range, if the hex is within `within` and in sight. */
static void opportunity_fire(struct nhis_ctx *x, int side, int hex)
{
	struct nhis_state *s = x->s;
	struct nhis_side *sd = &s->side[side];
	size_t f[NHIS_MAX_UNITS];
	for (size_t i = 0; i < sd->n_opp; i++) {
		struct nhis_opportunity *op = &sd->opp[i];
		if (op->used || !nhis_enemy_in(s, side, hex))
			continue;
		if (nhis_distance(op->hex, hex) > op->within ||
			!nhis_los(&s->map, x->o, op->hex, hex, NULL))
			continue;
		size_t nf = 0;
		for (size_t k = 0; k < s->n_units; k++) {
			const struct nhis_unit *u = &s->units[k];
			int listed = op->n_units == 0;
			for (size_t j = 0; j < op->n_units; j++)
				if (op->units[j] == (int)k)
					listed = 1;
			if (!listed || u->side != side || u->eliminated || u->hex != op->hex ||
				u->markers || u->shaken ||
				nhis_distance(u->hex, hex) > 2 * nhis_values_of(u)->range)
				continue;
			f[nf++] = k;
		}
		if (nf == 0)
			continue;
		op->used = 1;
		for (size_t k = 0; k < nf; k++)
			s->units[f[k]].markers |= NHIS_MARK_FIRE;
		char label[120];
		snprintf(label, sizeof(label), "%s opportunity fire", sd->player);
		nhis_fire(x, f, nf, hex, 0, label);
	}
}

/* Units of the impulse able to act now: the listed ones still in the hex, alive and
 * unmarked (opportunity fire may have used them), or all such units of the side. */
static size_t impulse_group(struct nhis_ctx *x, int side, const struct nhis_impulse *imp, size_t *g)
{
	struct nhis_state *s = x->s;
	size_t ng = 0;
	if (imp->n_units) {
		for (size_t k = 0; k < imp->n_units; k++) {
			const struct nhis_unit *u = &s->units[imp->units[k]];
			const char *why = u->eliminated      ? "has been eliminated" :
					  u->hex != imp->hex ? "is no longer in the activated hex" :
					  u->markers         ? "has already acted this turn" :
							       NULL;
			if (why)
				events_add(x->ev, x->phase, "%s %s: it does not act", u->id, why);
			else
				g[ng++] = (size_t)imp->units[k];
		}
		return ng;
	}
	for (size_t i = 0; i < s->n_units; i++) {
		const struct nhis_unit *u = &s->units[i];
		if (u->side == side && !u->eliminated && u->hex == imp->hex && !u->markers)
			g[ng++] = i;
	}
	return ng;
}

/* Keeps the units of g that may fire at target from their hex; the rest are told why. */
static size_t able_to_fire(struct nhis_ctx *x, const size_t *g, size_t ng, int target, size_t *f)
{
	struct nhis_state *s = x->s;
	size_t nf = 0;
	for (size_t k = 0; k < ng; k++) {
		const struct nhis_unit *u = &s->units[g[k]];
		int dist = nhis_distance(u->hex, target);
		int blocker;
		if (u->eliminated)
			continue;
		if (u->shaken)
			events_add(x->ev, x->phase, "%s is Shaken: it may not fire", u->id);
		else if (dist > 2 * nhis_values_of(u)->range)
			events_add(x->ev, x->phase, "%s is out of range (%d hexes, at most %d)",
				u->id, dist, 2 * nhis_values_of(u)->range);
		else if (!nhis_los(&s->map, x->o, u->hex, target, &blocker))
			events_add(x->ev, x->phase, "%s has no line of sight", u->id);
		else
			f[nf++] = g[k];
	}
	return nf;
}

/* The group sets off: each unit takes the mode's marker and is moving; a Banzai charge is
 * the infantry's (a tank charging with them is no Banzai charger). */
static void set_off(struct nhis_ctx *x, int side, const char *player,
	const struct nhis_impulse *imp, const size_t *g, size_t ng)
{
	static const unsigned marks[] = { NHIS_MARK_MOVE, NHIS_MARK_CHARGE, NHIS_MARK_CRAWL };
	struct nhis_state *s = x->s;
	int nation_banzai = imp->mode == NHIS_MODE_CHARGE &&
			    nhis_nation_in(x->o->banzai, x->o->n_banzai, s->side[side].nationality);
	int banzai = 0;
	char a[5];
	for (size_t k = 0; k < ng; k++) {
		struct nhis_unit *u = &s->units[g[k]];
		u->markers |= marks[imp->mode];
		u->moving = 1;
		u->banzai = nation_banzai && u->type != NHIS_TANK;
		u->stopped = 0;
		banzai |= u->banzai;
	}
	nhis_hex_name(imp->hex, a);
	events_add(x->ev, x->phase, "%s activates %s: %s%s", player, a, nhis_mode_names[imp->mode],
		banzai ? " (Banzai charge)" : "");
}

/* The units of g still moving (not eliminated or stopped) into act; their movement (the
 * slowest's) into *mp. */
static size_t still_moving(const struct nhis_state *s, const size_t *g, size_t ng, size_t *act,
	int *mp)
{
	size_t na = 0;
	*mp = 1 << 20;
	for (size_t k = 0; k < ng; k++) {
		const struct nhis_unit *u = &s->units[g[k]];
		if (u->eliminated || u->stopped || !u->moving)
			continue;
		act[na++] = g[k];
		if (nhis_values_of(u)->movement < *mp)
			*mp = nhis_values_of(u)->movement;
	}
	return na;
}

/* One step of a move from cur into the adjacent hex next, *spent the movement points used
 * so far: not into the enemy; not beyond the slowest unit's movement (NHiS terrain chart
 * costs; a crawl always makes its one step); Shaken units do not step toward the enemy (NHiS
 * Fire Attack Table, Hit). Returns 1 if any unit stepped into next, then opportunity fire
 * answers; 0 if the move stops in cur. */
static int move_step(struct nhis_ctx *x, int side, const char *player,
	const struct nhis_impulse *imp, const size_t *g, size_t ng, int cur, int next, int last,
	int jungle, int *spent)
{
	struct nhis_state *s = x->s;
	size_t act[NHIS_MAX_UNITS];
	int mp;
	size_t na = still_moving(s, g, ng, act, &mp);
	char a[5], b[5];
	if (na == 0)
		return 0;
	nhis_hex_name(cur, a);
	nhis_hex_name(next, b);
	/* The sheet names a melee but prints no procedure: only an impulse ordering `melee`
	 * enters the enemy's hex, as its last step, and the umpire rules on it. */
	int melee = nhis_enemy_in(s, side, next);
	if (melee && !(imp->melee && last)) {
		events_void(x->ev, x->phase, player, imp->index,
			"the move stops in %s: the enemy holds %s (melee only as the last step of an "
			"impulse with melee: true)",
			a, b);
		return 0;
	}
	int cost = nhis_move_cost(&s->map, x->o, cur, next, jungle);
	*spent += cost;
	if (imp->mode != NHIS_MODE_CRAWL && *spent > mp) {
		events_void(x->ev, x->phase, player, imp->index,
			"the move stops in %s: entering %s needs %d movement points, %d left", a, b,
			cost, mp - (*spent - cost));
		return 0;
	}
	int toward = nhis_enemy_distance(s, side, next) < nhis_enemy_distance(s, side, cur);
	struct buf who = BUF_INIT;
	for (size_t k = 0; k < na; k++) {
		struct nhis_unit *u = &s->units[act[k]];
		if (u->shaken && toward) {
			u->stopped = 1;
			events_add(x->ev, x->phase,
				"%s is Shaken: it may not move toward the enemy "
				"and stays in %s",
				u->id, a);
			continue;
		}
		u->hex = next;
		buf_printf(&who, "%s%s", who.len ? ", " : "", u->id);
	}
	if (who.len == 0) {
		buf_release(&who);
		return 0;
	}
	events_add(x->ev, x->phase, "%s %s %s -> %s (%d MP, %d spent)", buf_str(&who),
		imp->mode == NHIS_MODE_CRAWL  ? "crawls" :
		imp->mode == NHIS_MODE_CHARGE ? "charges" :
						"moves",
		a, b, cost, *spent);
	buf_release(&who);
	if (melee) {
		/* No fire into a hex both sides hold: the melee is the umpire's. */
		struct buf m = BUF_INIT;
		nhis_melee_describe(s, x->o, next, &m);
		events_add(x->ev, "melee",
			"%s enters %s: melee, handed to the umpire (NHiS prints no melee "
			"procedure; docs/rules/nhis.md): %s",
			player, b, buf_str(&m));
		buf_release(&m);
		return 1;
	}
	opportunity_fire(x, 1 - side, next);
	return 1;
}

static void describe_side(const struct nhis_state *s, int side, int hex, struct buf *out)
{
	int n = 0;
	buf_printf(out, "%s (%s):", s->side[side].player,
		s->side[side].nationality ? s->side[side].nationality : "-");
	for (size_t i = 0; i < s->n_units; i++) {
		const struct nhis_unit *u = &s->units[i];
		if (u->side != side || u->eliminated || u->hex != hex)
			continue;
		const struct nhis_values *v = nhis_values_of(u);
		buf_printf(out, "%s %s (%s, %s, FP %d, morale %d", n++ ? "," : "", u->id,
			nhis_utype_names[u->type], u->is_reduced ? "reduced" : "full", v->firepower,
			v->morale);
		if (u->type == NHIS_LEADER)
			buf_printf(out, ", leadership %d", v->leadership);
		buf_printf(out, ", %s%s%s)", u->shaken ? "Shaken: penalty in melee" : "Prepared",
			u->banzai ? ", Banzai charge" : "",
			u->markers & NHIS_MARK_CHARGE ? ", charged in" : "");
	}
}

void nhis_melee_describe(const struct nhis_state *s, const struct nhis_options *o, int hex,
	struct buf *out)
{
	const struct nhis_hex *h = nhis_map_at(&s->map, hex);
	(void)o;
	buf_printf(out, "%s%s; ", h ? nhis_terrain_names[h->terrain] : "?",
		h && h->feature ? h->feature == NHIS_FOXHOLE ? " with a foxhole" :
				  h->feature == NHIS_BUNKER  ? " with a bunker" :
				  h->feature == NHIS_CAVE    ? " with a cave" :
							       " with a wreck" :
				  "");
	describe_side(s, 0, hex, out);
	buf_puts(out, "; ");
	describe_side(s, 1, hex, out);
}

int nhis_melee_pending(struct nhis_ctx *x)
{
	const struct nhis_state *s = x->s;
	int n = 0;
	/* Hexes in unit order (the scenario's), each once: a fixed order. */
	for (size_t i = 0; i < s->n_units; i++) {
		const struct nhis_unit *u = &s->units[i];
		int seen = 0;
		if (u->eliminated || !nhis_enemy_in(s, u->side, u->hex))
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = !s->units[j].eliminated && s->units[j].hex == u->hex;
		if (seen)
			continue;
		char a[5];
		struct buf m = BUF_INIT;
		nhis_hex_name(u->hex, a);
		nhis_melee_describe(s, x->o, u->hex, &m);
		events_add(x->ev, "melee", "melee in %s awaits the umpire's ruling: %s", a,
			buf_str(&m));
		buf_release(&m);
		n++;
	}
	return n;
}

/* After Charge movement the units of g that reached the end hex `at` and may fire there
 * fire at the impulse's target, at -2 each. */
static void charge_fire(struct nhis_ctx *x, const char *player, const struct nhis_impulse *imp,
	const size_t *g, size_t ng, int at)
{
	struct nhis_state *s = x->s;
	size_t there[NHIS_MAX_UNITS], n = 0, f[NHIS_MAX_UNITS];
	char a[5];
	for (size_t k = 0; k < ng; k++)
		if (!s->units[g[k]].eliminated && s->units[g[k]].hex == at)
			there[n++] = g[k];
	size_t nf = able_to_fire(x, there, n, imp->fire, f);
	nhis_hex_name(at, a);
	if (nf == 0) {
		events_void(x->ev, x->phase, player, imp->index,
			"no charging unit in %s is able to fire at the target", a);
		return;
	}
	char label[120];
	snprintf(label, sizeof(label), "%s charge fire", player);
	nhis_fire(x, f, nf, imp->fire, 1, label);
}

/* A move, charge or crawl along the impulse's path, step by step, then a charge's fire. */
static void do_move(struct nhis_ctx *x, int side, const char *player,
	const struct nhis_impulse *imp, const size_t *g, size_t ng)
{
	struct nhis_state *s = x->s;
	int jungle = jungle_side(s, side), cur = imp->hex, spent = 0;
	set_off(x, side, player, imp, g, ng);
	for (size_t p = 0; p < imp->n_path; p++) {
		if (!move_step(x, side, player, imp, g, ng, cur, imp->path[p], p + 1 == imp->n_path,
			    jungle, &spent))
			break;
		cur = imp->path[p];
	}
	for (size_t k = 0; k < ng; k++)
		s->units[g[k]].moving = 0;
	if (imp->fire && imp->mode == NHIS_MODE_CHARGE)
		charge_fire(x, player, imp, g, ng, cur);
	for (size_t k = 0; k < ng; k++) {
		s->units[g[k]].banzai = 0;
		s->units[g[k]].stopped = 0;
	}
}

void nhis_impulse(struct nhis_ctx *x, int side, const char *player, const struct nhis_impulse *imp)
{
	struct nhis_state *s = x->s;
	size_t g[NHIS_MAX_UNITS], f[NHIS_MAX_UNITS];
	char a[5];
	nhis_hex_name(imp->hex, a);
	size_t ng = impulse_group(x, side, imp, g);
	if (ng == 0) {
		events_void(x->ev, x->phase, player, imp->index,
			"no unit of %s is ready to act in %s", player, a);
		return;
	}
	if (imp->n_path) {
		do_move(x, side, player, imp, g, ng);
		return;
	}
	size_t nf = able_to_fire(x, g, ng, imp->fire, f);
	if (nf == 0) {
		events_void(x->ev, x->phase, player, imp->index, "no unit in %s is able to fire",
			a);
		return;
	}
	for (size_t k = 0; k < nf; k++)
		s->units[f[k]].markers |= NHIS_MARK_FIRE;
	char label[120];
	snprintf(label, sizeof(label), "%s fire", player);
	nhis_fire(x, f, nf, imp->fire, 0, label);
}

/* Copies standing orders (the order file's are freed by the core after the turn). */
static void set_standing(struct nhis_side *sd, const struct nhis_orders *o)
{
	nhis_opportunity_free(sd->opp, sd->n_opp);
	sd->opp = xcalloc(o->n_opp ? o->n_opp : 1, sizeof(*sd->opp));
	sd->n_opp = o->n_opp;
	for (size_t i = 0; i < o->n_opp; i++) {
		sd->opp[i] = o->opp[i];
		sd->opp[i].used = 0;
		if (o->opp[i].n_units) {
			sd->opp[i].units = xcalloc(o->opp[i].n_units, sizeof(int));
			memcpy(sd->opp[i].units, o->opp[i].units, o->opp[i].n_units * sizeof(int));
		} else
			sd->opp[i].units = NULL;
	}
}

static size_t alive(const struct nhis_state *s, int side)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n_units; i++)
		if (s->units[i].side == side && !s->units[i].eliminated)
			n++;
	return n;
}

static int nhis_play(const struct rules_campaign *c, void *state, struct rules_turn *t)
{
	struct nhis_state *s = state;
	struct nhis_options def;
	const struct nhis_options *o = c->options;
	if (!o) {
		nhis_options_default(&def);
		o = &def;
	}
	struct nhis_ctx x = { s, o, t->dice, t->events, "rally" };
	const struct nhis_orders *ord[2] = { NULL, NULL };
	for (size_t i = 0; i < t->n_orders; i++) {
		int side = nhis_side_of(s, t->orders[i].player);
		if (side >= 0)
			ord[side] = t->orders[i].orders;
	}
	for (int i = 0; i < 2; i++) {
		if (ord[i] && ord[i]->has_standing)
			set_standing(&s->side[i], ord[i]);
		for (size_t k = 0; k < s->side[i].n_opp; k++)
			s->side[i].opp[k].used = 0;
	}
	nhis_rally_phase(&x);

	/* Operations Phase: impulses alternate, the initiative side first; a side whose
	 * impulses run out passes and the other plays on. */
	x.phase = "operations";
	int first = s->initiative;
	size_t next[2] = { 0, 0 };
	size_t impulses = 0;
	for (;;) {
		int any = 0;
		for (int k = 0; k < 2; k++) {
			int side = k == 0 ? first : 1 - first;
			if (!ord[side] || next[side] >= ord[side]->n)
				continue;
			any = 1;
			impulses++;
			nhis_impulse(&x, side, s->side[side].player, &ord[side]->v[next[side]++]);
		}
		if (!any)
			break;
	}

	x.phase = "administrative";
	nhis_melee_pending(&x);
	for (size_t i = 0; i < s->n_units; i++)
		s->units[i].markers = 0;
	events_add(t->events, x.phase, "markers cleared");
	buf_printf(&t->summary, "%zu impulses; %s %zu units, %s %zu units left", impulses,
		s->side[0].player, alive(s, 0), s->side[1].player, alive(s, 1));
	return 0;
}

/* A side holding has no impulse and no opportunity fire this turn; its standing orders are
 * kept for when its player sends orders again (docs/rules/nhis.md "Hold orders"). */
static int nhis_resolve(const struct rules_campaign *c, void *state, struct rules_turn *t)
{
	struct nhis_state *s = state;
	struct nhis_opportunity *opp[2] = { NULL, NULL };
	size_t n_opp[2] = { 0, 0 };
	int held[2] = { 0, 0 };

	for (size_t i = 0; i < t->n_orders; i++) {
		const struct nhis_orders *o = t->orders[i].orders;
		int side = nhis_side_of(s, t->orders[i].player);
		if (side < 0 || !o || !o->hold)
			continue;
		held[side] = 1;
		opp[side] = s->side[side].opp;
		n_opp[side] = s->side[side].n_opp;
		s->side[side].opp = NULL;
		s->side[side].n_opp = 0;
		events_add(t->events, "orders",
			"%s holds: no impulse, no opportunity fire this turn",
			s->side[side].player);
	}
	int rc = nhis_play(c, state, t);
	for (int i = 0; i < 2; i++)
		if (held[i]) {
			s->side[i].opp = opp[i];
			s->side[i].n_opp = n_opp[i];
		}
	return rc;
}

static int nhis_hold_orders(void **out, const struct rules_campaign *c, const void *state, int turn,
	const char *player)
{
	struct nhis_orders *o = xcalloc(1, sizeof(*o));
	(void)c;
	(void)state;
	(void)turn;
	(void)player;
	o->hold = 1;
	*out = o;
	return 0;
}

static int nhis_player_due(const struct rules_campaign *c, const void *state, int turn,
	const char *player)
{
	(void)c;
	(void)turn;
	return nhis_side_of(state, player) >= 0;
}

static int nhis_game_over(const struct rules_campaign *c, const void *state, int turn,
	const char **why)
{
	const struct nhis_state *s = state;
	(void)c;
	if (turns_last_played(s->turns, turn, why))
		return 1;
	for (int i = 0; i < 2; i++)
		if (alive(s, i) == 0) {
			if (why)
				*why = "one side has no unit left";
			return 1;
		}
	return 0;
}

static const char terrain_code[NHIS_TERRAIN_COUNT] = {
	[NHIS_OPEN] = '.',
	[NHIS_BUILDING] = 'B',
	[NHIS_HUTS] = 'H',
	[NHIS_ROUGH] = 'R',
	[NHIS_LAVA] = 'L',
	[NHIS_TREES] = 'T',
	[NHIS_TALL_GRASS] = 'G',
	[NHIS_BRUSH] = 'b',
	[NHIS_BEACH] = 's',
	[NHIS_PADDY] = 'p',
};
static const char feature_code[NHIS_FEATURE_COUNT] = {
	[NHIS_NO_FEATURE] = ' ',
	[NHIS_FOXHOLE] = 'f',
	[NHIS_BUNKER] = 'k',
	[NHIS_CAVE] = 'c',
	[NHIS_WRECK] = 'w',
};

/* The units line under a map row: per hex, each side's units there (not eliminated) as its
 * mark and a count, "*2+1"; marks are symbols, never a terrain letter or a hex number. */
static const char side_mark[2] = { '*', '+' };

static void units_line(const struct nhis_state *s, int row, struct buf *out)
{
	buf_puts(out, "     ");
	for (int col = 1; col <= s->map.cols; col++) {
		char cell[8] = "";
		size_t k = 0;
		for (int side = 0; side < 2; side++) {
			int n = 0;
			for (size_t i = 0; i < s->n_units; i++)
				n += !s->units[i].eliminated && s->units[i].side == side &&
				     s->units[i].hex == col * 100 + row;
			if (n && k < sizeof(cell))
				k += (size_t)snprintf(cell + k, sizeof(cell) - k, "%c%d",
					side_mark[side], n > 9 ? 9 : n);
		}
		buf_printf(out, " %-4.4s", cell);
	}
	buf_puts(out, "\n");
}

static void nhis_report(const struct rules_campaign *c, const void *state, const char *player,
	struct buf *out)
{
	const struct nhis_state *s = state;
	(void)c;
	(void)player;
	buf_printf(out,
		"### Map\n\nA hex is named by its column and row, CCRR (0304: column 03, row 04). "
		"Each hex: terrain (. open, B building, H huts, R rough, L lava "
		"rock, T trees, G tall grass, b brush, s beach, p paddy), hill level, = road, "
		"feature (f foxhole, k bunker, c cave, w wreck); on the line below it, the units "
		"there: *N = N units of %s, +N = N of %s (9 for nine or more). Even columns sit "
		"half a hex lower.\n"
		"\n```\n     ",
		s->side[0].player, s->side[1].player);
	for (int col = 1; col <= s->map.cols; col++)
		buf_printf(out, " %02d  ", col);
	buf_puts(out, "\n");
	for (int row = 1; row <= s->map.rows; row++) {
		buf_printf(out, "  %02d ", row);
		for (int col = 1; col <= s->map.cols; col++) {
			const struct nhis_hex *h = nhis_map_at(&s->map, col * 100 + row);
			char el = h->elevation ? (char)('0' + h->elevation) : ' ';
			buf_printf(out, " %c%c%c%c", terrain_code[h->terrain], el,
				h->road ? '=' : ' ', feature_code[h->feature]);
		}
		buf_puts(out, "\n");
		units_line(s, row, out);
	}
	buf_puts(out, "```\n\n### Units\n\n| unit | player | type | hex | step | status |\n"
		      "|---|---|---|---|---|---|\n");
	for (size_t i = 0; i < s->n_units; i++) {
		const struct nhis_unit *u = &s->units[i];
		char hx[5];
		nhis_hex_name(u->hex, hx);
		buf_printf(out, "| %s | %s | %s | %s | %s | %s |\n", u->id, s->side[u->side].player,
			nhis_utype_names[u->type], u->eliminated ? "-" : hx,
			u->eliminated ? "eliminated" :
			u->is_reduced ? "reduced" :
					"full",
			u->eliminated ? "-" :
			u->shaken     ? "Shaken" :
					"Prepared");
	}
}

/* Opportunity-fire orders are private to their side; the rest of the map is public. */
/* Positions are public: every player and the public see the same map. */
static void nhis_map(const struct rules_campaign *c, const void *state, const struct rules_map *m,
	const char *player, struct buf *out)
{
	(void)c;
	(void)player;
	nhis_draw_map(state, m, out);
}

static struct node *nhis_state_view(const struct rules_campaign *c, const void *state,
	const char *player)
{
	const struct nhis_state *s = state;
	int side = -1;

	for (int i = 0; player && i < 2; i++)
		if (strcmp(player, s->side[i].player) == 0)
			side = i;
	return nhis_state_emit_view(c, state, side);
}

const struct rule_system rules_nhis = {
	.version = RULES_INTERFACE_VERSION,
	.name = "nhis",
	.title = "No Honor in Surrender (Lock 'n Load Publishing)",
	.revision = 2,
	.flags = RULES_SIMULTANEOUS | RULES_GRID | RULES_PRIVATE,
	.min_players = 2,
	.max_players = 2,
	.help = "Hex map, hexes named CCRR (column, row). Both players send orders every turn;\n"
		"a turn is the Rally Phase, the Operations Phase (impulses alternate, initiative\n"
		"side first) and the Administrative Phase (markers cleared).\n"
		"orders: a list of impulses, each\n"
		"  activate: HEX          the hex whose units act\n"
		"  units: [ID, ...]       optional: which of them (default: all that have not acted)\n"
		"  move: [HEX, ...]       optional: a path of adjacent hexes\n"
		"  mode: move|charge|crawl  optional, with move (default move)\n"
		"  fire: HEX              fire at a hex (after a move only with mode: charge)\n"
		"  melee: true            the move's last hex may hold the enemy: a melee,\n"
		"                         journaled with both sides' numbers for the umpire\n"
		"umpire adjustments (a melee's outcome): remove, status shaken|reduced.\n"
		"standing:\n"
		"  opportunity: [{hex: HEX, within: N, units: [ID, ...]}]  fire once a turn at the\n"
		"    first enemy that moves into a hex in sight within N hexes\n"
		"options: night-visibility (none|hexes), unshakable [nationalities], banzai\n"
		"  [nationalities], rally (leadership|plain), hill-blocks-los (bool), hexside-los\n"
		"  (clear-if-either|blocked-if-either), wooden-building {cost, cover},\n"
		"  tank-morale (nationality|unshakable).\n"
		"See docs/rules/nhis.md.",
	.options_parse = nhis_options_parse,
	.options_emit = nhis_options_emit,
	.options_free = nhis_options_free,
	.state_parse = nhis_state_parse,
	.state_emit = nhis_state_emit,
	.state_free = nhis_state_free,
	.player_due = nhis_player_due,
	.game_over = nhis_game_over,
	.orders_parse = nhis_orders_parse,
	.orders_free = nhis_orders_free,
	.resolve = nhis_resolve,
	.report = nhis_report,
	.state_view = nhis_state_view,
	.draw_map = nhis_map,
	.adjust_check = nhis_adjust_check,
	.adjust_apply = nhis_adjust_apply,
	.orders_template = nhis_orders_template,
	.result = nhis_result,
	.victory = nhis_victory,
	.hold_orders = nhis_hold_orders,
};
