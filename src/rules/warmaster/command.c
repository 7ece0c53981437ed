/* command.c — the Warmaster Command phase: initiative (charge or evade the closest enemy),
 * home back of flyers, each character's orders in sequence (2D6 against command less the
 * penalties; a failure ends his orders, the General's everyone's), blunders and the special
 * tables (Steam Tank, Giant Goes Wild), moves along paths at the sheet's paces, charges into
 * contact, and the characters' own moves after their orders. */
#include <stdlib.h>
#include <string.h>

#include "rules/warmaster/warmaster.h"
#include "core/banned.h"

static struct table_pt vsub(struct table_pt a, struct table_pt b)
{
	return (struct table_pt){ a.x - b.x, a.y - b.y };
}

static int clamp_pt(const struct wm_state *s, struct wm_unit *u)
{
	/* A unit pushed past the table's edge has left the table (destroyed). */
	struct table_rect r = wm_rect(u);
	for (int k = 0; k < 4; k++)
		if (r.c[k].x < 0 || r.c[k].y < 0 || r.c[k].x > s->width || r.c[k].y > s->depth)
			return 1;
	return 0;
}

/* The least translation putting every corner of u's footprint back on the table (a
 * footprint is always smaller than the table): where a lost unit is left, at the edge it
 * crossed, so that the state keeps every position on the table. */
static struct table_pt back_on(const struct wm_state *s, const struct wm_unit *u)
{
	struct table_rect r = wm_rect(u);
	int32_t lo_x = r.c[0].x, hi_x = r.c[0].x, lo_y = r.c[0].y, hi_y = r.c[0].y;
	for (int k = 1; k < 4; k++) {
		lo_x = r.c[k].x < lo_x ? r.c[k].x : lo_x;
		hi_x = r.c[k].x > hi_x ? r.c[k].x : hi_x;
		lo_y = r.c[k].y < lo_y ? r.c[k].y : lo_y;
		hi_y = r.c[k].y > hi_y ? r.c[k].y : hi_y;
	}
	struct table_pt v = { 0, 0 };
	v.x = lo_x < 0 ? -lo_x : hi_x > s->width ? s->width - hi_x : 0;
	v.y = lo_y < 0 ? -lo_y : hi_y > s->depth ? s->depth - hi_y : 0;
	return v;
}

void wm_keep_on_table(const struct wm_state *s, struct wm_unit *u)
{
	if (clamp_pt(s, u))
		wm_translate(u, back_on(s, u));
}

void wm_off_table(struct wm_ctx *x, struct wm_unit *u)
{
	if (clamp_pt(x->s, u)) {
		wm_translate(u, back_on(x->s, u));
		if (u->destroyed)
			return;
		u->destroyed = 1;
		u->stands = 0;
		events_add(x->ev, x->phase, "%s leaves the table and is lost", u->id);
	}
}

static void disengage(struct wm_ctx *x, struct wm_unit *u)
{
	if (u->engaged) {
		struct wm_unit *t = &x->s->units[u->engaged - 1];
		if (t->engaged == (int)(u - x->s->units) + 1)
			t->engaged = 0;
		u->engaged = 0;
	}
}

/* Engages u with t from where u stands now (flank or rear from the geometry); *before is u's
 * footprint before its charge move. */
static void engage(struct wm_ctx *x, struct wm_unit *u, struct wm_unit *t, int flank,
	const struct table_rect *before)
{
	u->charged = flank ? 2 : 1;
	u->engaged = (int)(t - x->s->units) + 1;
	t->engaged = (int)(u - x->s->units) + 1;
	events_add(x->ev, x->phase, "%s charges %s%s", u->id, t->id,
		flank ? " in the flank or rear" : " in front");
	wm_shoot_at_charger(x, t, u, before);
}

/* 1 if u lies in t's flank or rear arc (Warmaster Combat: fighting to side or rear). */
static int flank_of(const struct wm_unit *u, const struct wm_unit *t)
{
	struct table_rect ru = wm_rect(u), rt = wm_rect(t);
	enum table_arc a = table_arc_of(&rt, &ru, TABLE_REF_FRONT_CENTRE, TABLE_ARCS_DIAGONALS);
	return a == TABLE_ARC_LEFT || a == TABLE_ARC_RIGHT || a == TABLE_ARC_REAR;
}

void wm_charge(struct wm_ctx *x, struct wm_unit *u, struct wm_unit *t)
{
	struct table_rect ru = wm_rect(u), rt = wm_rect(t);
	struct table_pt p;
	int flank = flank_of(u, t);
	if (table_rect_nearest(&p, &ru, &rt) == 0)
		wm_translate(u, vsub(p, wm_front_centre(u)));
	wm_keep_on_table(x->s, u);
	engage(x, u, t, flank, &ru);
}

/* The units an order moves: the unit, or the brigade's units of side still on the table. */
static size_t order_units(const struct wm_state *s, int side, const struct wm_order *o, int *v)
{
	size_t n = 0;
	if (o->unit >= 0) {
		v[n++] = o->unit;
		return n;
	}
	for (size_t i = 0; i < s->n_units && n < WM_MAX_BRIGADE; i++)
		if (s->units[i].side == side && s->units[i].brigade && !s->units[i].destroyed &&
			strcmp(s->units[i].brigade, o->brigade) == 0)
			v[n++] = (int)i;
	return n;
}

/* Carries out a passed (or half-pace blundered) order: formation, then a move with budget
 * scale/2 of pace (2: full), or a charge. */
static void carry_out(struct wm_ctx *x, const struct wm_order *o, const int *v, size_t n, int half)
{
	struct wm_state *s = x->s;
	if (o->charge && !half) {
		struct wm_unit *t = &s->units[o->charge - 1];
		struct wm_unit *u = &s->units[v[0]];
		if (t->destroyed || t->engaged)
			events_add(x->ev, x->phase, "%s cannot charge %s (%s)", u->id, t->id,
				t->destroyed ? "destroyed" : "already engaged");
		else if (wm_unit_dist(u, t) > u->pace)
			events_add(x->ev, x->phase, "%s cannot reach %s (%lld mm, pace %d mm)",
				u->id, t->id, (long long)wm_unit_dist(u, t), u->pace);
		else
			wm_charge(x, u, t);
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (o->formation)
			wm_set_formation(&s->units[v[i]], (enum wm_formation)(o->formation - 1));
	if (!o->n_path)
		return;
	int budget = -1; /* a brigade moves together at the pace of its slowest unit */
	for (size_t i = 0; i < n; i++) {
		const struct wm_unit *u = &s->units[v[i]];
		int p = wm_move_pace(s, u, wm_front_centre(u), o->path[0]);
		if (budget < 0 || p < budget)
			budget = p;
	}
	if (half)
		budget /= 2;
	int by;
	struct table_pt t = wm_move_blocked(s, v, n, o->path, o->n_path, budget, NULL, &by);
	for (size_t i = 0; i < n; i++) {
		wm_translate(&s->units[v[i]], t);
		wm_off_table(x, &s->units[v[i]]);
	}
	events_add(x->ev, x->phase, "%s moves %lld mm to [%d, %d]%s%s%s",
		o->unit >= 0 ? s->units[v[0]].id : o->brigade,
		(long long)table_length_round((struct table_pt){ 0, 0 }, t),
		wm_front_centre(&s->units[v[0]]).x, wm_front_centre(&s->units[v[0]]).y,
		by >= 0 ? " (stopped by " : "", by >= 0 ? s->units[by].id : "",
		by >= 0 ? ": no moving through units)" : "");
}

/* Blunder 2-3: halt, or move until a full pace from visible enemy. */
static void blunder_back(struct wm_ctx *x, struct wm_unit *u)
{
	int e = wm_closest_enemy(x->s, u, 1);
	int64_t dist = e >= 0 ? wm_unit_dist(u, &x->s->units[e]) : 0;
	if (e < 0 || dist >= u->pace) {
		events_add(x->ev, x->phase, "%s halts (no visible enemy within a full pace)",
			u->id);
		return;
	}
	wm_move_away(u, wm_centre(&x->s->units[e]), u->pace - dist);
	events_add(x->ev, x->phase, "%s falls back %lld mm from %s", u->id,
		(long long)(u->pace - dist), x->s->units[e].id);
	wm_off_table(x, u);
}

/* Blunder 6 (and initiative charge): full pace toward the nearest enemy, charging if it can. */
static void rush(struct wm_ctx *x, struct wm_unit *u)
{
	int e = wm_closest_enemy(x->s, u, 1);
	if (e < 0) {
		events_add(x->ev, x->phase, "%s has no visible enemy to rush", u->id);
		return;
	}
	struct wm_unit *t = &x->s->units[e];
	if (wm_unit_dist(u, t) <= u->pace && !t->engaged) {
		wm_charge(x, u, t);
		return;
	}
	struct table_pt d = vsub(wm_centre(t), wm_centre(u));
	if (d.x || d.y)
		wm_translate(u, wm_scale(d, u->pace));
	events_add(x->ev, x->phase, "%s moves a full pace toward %s", u->id, t->id);
}

static void blunder(struct wm_ctx *x, const struct wm_order *o, const int *v, size_t n)
{
	int d6 = (int)dice_roll(x->dice, 6, "Warmaster Blunders: %s",
		o->unit >= 0 ? x->s->units[v[0]].id : o->brigade);
	enum wm_blunder b = wm_blunder(d6, x->o);
	static const char *const what[] = { "-1 command penalty for the rest of the game",
		"halts or backs off", "half pace, no charge", "no move",
		"rushes the nearest enemy" };
	events_add(x->ev, x->phase, "blunder %d: %s", d6, what[b]);
	for (size_t i = 0; i < n; i++) {
		struct wm_unit *u = &x->s->units[v[i]];
		if (b == WM_BL_PENALTY)
			u->penalty++;
		else if (b == WM_BL_HALT_OR_BACK)
			blunder_back(x, u);
		else if (b == WM_BL_RUSH)
			rush(x, u);
	}
	if (b == WM_BL_HALF_PACE)
		carry_out(x, o, v, n, 1);
}

static void steam_tank(struct wm_ctx *x, struct wm_unit *u)
{
	int d6 = (int)dice_roll(x->dice, 6, "Warmaster Steam Tank Blunders: %s", u->id);
	enum wm_steam r = wm_steam_tank(d6, x->o);
	static const char *const what[] = { "immobilised for the rest of the game",
		"cannot shoot this turn", "unaffected", "destroyed", "broken down",
		"stuck: cannot shoot this turn", "commander slain: -1 command penalty",
		"momentary halt", "steam overload: twice the shooting attacks" };
	events_add(x->ev, x->phase, "%s steam tank %d: %s", u->id, d6, what[r]);
	if (r == WM_ST_IMMOBILE || r == WM_ST_BROKEN)
		u->immobile = 1;
	if (r == WM_ST_NO_SHOOT || r == WM_ST_STUCK)
		u->no_shoot = 1;
	if (r == WM_ST_SLAIN)
		u->penalty++;
	if (r == WM_ST_OVERLOAD)
		u->overload = 1;
	if (r == WM_ST_DESTROYED) {
		u->stands = 0;
		u->destroyed = 1;
		disengage(x, u);
	}
}

/* What a failed order does: blunder tables on 12, the Giant goes wild. */
static void failed(struct wm_ctx *x, const struct wm_order *o, const int *v, size_t n, int bl)
{
	struct wm_unit *u = &x->s->units[v[0]];
	if (u->special == WM_GIANT && (bl || !x->o->giant_on_blunder))
		wm_giant_wild(x, u);
	else if (bl && u->special == WM_STEAM_TANK)
		steam_tank(x, u);
	else if (bl)
		blunder(x, o, v, n);
}

const char *wm_unit_unready(const struct wm_unit *u)
{
	if (u->destroyed)
		return "destroyed";
	if (u->engaged)
		return "in combat";
	if (u->confused)
		return "confused";
	return NULL;
}

/* Why u cannot take this order now (NULL: it can). */
static const char *cannot(const struct wm_character *c, const struct wm_unit *u,
	const struct wm_order *o)
{
	const char *why = wm_unit_unready(u);
	if (why)
		return why;
	if (u->used_init)
		return "used its initiative";
	if (u->immobile && (o->n_path || o->charge))
		return "immobilised";
	if (c->range > 0 && wm_char_dist(c, u) > c->range)
		return "out of command range";
	return NULL;
}

/* One order. Returns 1 passed, 0 failed, -1 void (no roll). */
static int give_order(struct wm_ctx *x, const struct wm_character *c, const char *player, int index,
	const struct wm_order *o)
{
	struct wm_state *s = x->s;
	int v[WM_MAX_BRIGADE], bl;
	size_t n = order_units(s, c->side, o, v);
	struct wm_penalty p, worst = { 0, 0, 0, 0, 0, 0, -1 };
	const char *why = n ? NULL : "no unit of the brigade left";
	for (size_t i = 0; i < n && !why; i++) {
		why = cannot(c, &s->units[v[i]], o);
		wm_order_penalty(s, c, &s->units[v[i]], &p);
		if (p.total > worst.total)
			worst = p;
	}
	const char *name = o->unit >= 0 ? s->units[o->unit].id : o->brigade;
	if (why) {
		events_void(x->ev, x->phase, player, index, "%s cannot be ordered by %s: %s", name,
			c->id, why);
		return -1;
	}
	int a = (int)dice_roll(x->dice, 6,
		"Warmaster Orders: %s orders %s, command %d - %d "
		"(distance %d, successive %d, enemy %d, dense %d, "
		"casualties %d, standing %d) [1/2]",
		c->id, name, c->command, worst.total, worst.distance, worst.successive, worst.enemy,
		worst.dense, worst.casualties, worst.standing);
	int b = (int)dice_roll(x->dice, 6, "Warmaster Orders: %s orders %s [2/2]", c->id, name);
	int ok = wm_order_test(a + b, c->command, worst.total, &bl);
	events_add(x->ev, x->phase, "%s orders %s: 2D6 %d against %d: %s%s", c->id, name, a + b,
		c->command - worst.total, ok ? "passed" : "failed", bl ? " (blunder)" : "");
	for (size_t i = 0; i < n; i++)
		s->units[v[i]].ordered++;
	if (ok)
		carry_out(x, o, v, n, 0);
	else
		failed(x, o, v, n, bl);
	return ok;
}

/* A lone character on whom enemy unit e stands: joins the nearest friendly unit within
 * 30 cm (reading: WMR lets the player choose), or is slain. */
static void displace(struct wm_ctx *x, struct wm_character *c, const struct wm_unit *e)
{
	struct wm_state *s = x->s;
	int best = -1;
	int64_t bd = 0;
	for (size_t i = 0; i < s->n_units; i++) {
		const struct wm_unit *u = &s->units[i];
		int64_t d = u->side == c->side && !u->destroyed ? wm_char_dist(c, u) : -1;
		if (d >= 0 && d <= WM_DISPLACE && (best < 0 || d < bd)) {
			best = (int)i;
			bd = d;
		}
	}
	if (best < 0) {
		c->slain = 1;
		events_add(x->ev, x->phase,
			"%s is displaced by %s with no friend within 300 mm: slain", c->id, e->id);
		return;
	}
	c->with = best + 1;
	events_add(x->ev, x->phase, "%s is displaced by %s and joins %s", c->id, e->id,
		s->units[best].id);
}

void wm_characters_follow(struct wm_ctx *x)
{
	for (size_t i = 0; i < x->s->n_chars; i++) {
		struct wm_character *c = &x->s->chars[i];
		for (size_t k = 0; k < x->s->n_units && !c->with && !c->slain; k++) {
			const struct wm_unit *e = &x->s->units[k];
			struct table_rect r = wm_rect(e);
			if (e->side != c->side && !e->destroyed &&
				table_rect_where(&r, c->at) == TABLE_INSIDE)
				displace(x, c, e);
		}
	}
	for (size_t i = 0; i < x->s->n_chars; i++) {
		struct wm_character *c = &x->s->chars[i];
		if (!c->with || c->slain)
			continue;
		struct wm_unit *u = &x->s->units[c->with - 1];
		if (u->destroyed) {
			c->slain = 1;
			c->with = 0;
			events_add(x->ev, x->phase, "%s is slain with %s", c->id, u->id);
		} else
			c->at = wm_centre(u);
	}
}

int wm_character_bonus(const struct wm_state *s, const struct wm_unit *u)
{
	int best = 0;
	for (size_t i = 0; i < s->n_chars; i++)
		if (!s->chars[i].slain && s->chars[i].with == (int)(u - s->units) + 1 &&
			s->chars[i].attacks > best)
			best = s->chars[i].attacks;
	return best;
}

/* A character joins unit u by moving into touch with it (WMR Joining a unit): u within its
 * pace; it then stands at u's centre. */
static void join(struct wm_ctx *x, struct wm_character *c, struct wm_unit *u, const char *player,
	int index)
{
	const char *why = u->destroyed                 ? "destroyed" :
			  wm_char_dist(c, u) > c->pace ? "beyond its move" :
							 NULL;
	if (why) {
		events_void(x->ev, x->phase, player, index, "%s cannot join %s: %s", c->id, u->id,
			why);
		return;
	}
	c->with = (int)(u - x->s->units) + 1;
	c->at = wm_centre(u);
	events_add(x->ev, x->phase, "%s joins %s", c->id, u->id);
}

static void move_character(struct wm_ctx *x, struct wm_character *c, struct table_pt to)
{
	c->with = 0; /* a character moving on its own leaves the unit it was with */
	struct table_pt d = vsub(to, c->at);
	if (!table_within(c->at, to, c->pace))
		d = wm_scale(d, c->pace);
	c->at.x += d.x;
	c->at.y += d.y;
	events_add(x->ev, x->phase, "%s moves to [%d, %d]", c->id, c->at.x, c->at.y);
}

/* An evade: a full pace straight away from t, not through enemies or units in combat; it may
 * burst through friends not in combat, which are confused (WMR Movement, Evade). */
static void evade(struct wm_ctx *x, struct wm_unit *u, struct wm_unit *t)
{
	struct wm_state *s = x->s;
	unsigned char passed[WM_MAX_UNITS] = { 0 };
	struct wm_unit m = *u;
	int v[1] = { (int)(u - s->units) }, by;
	wm_move_away(&m, wm_centre(t), u->pace);
	struct table_pt to = wm_front_centre(&m);
	struct table_pt d = wm_move_blocked(s, v, 1, &to, 1, u->pace, passed, &by);
	wm_translate(u, d);
	for (size_t i = 0; i < s->n_units; i++)
		if (passed[i]) {
			s->units[i].confused = s->units[i].burst = 1;
			events_add(x->ev, x->phase, "%s bursts through %s, which is confused",
				u->id, s->units[i].id);
		}
	if (by >= 0)
		events_add(x->ev, x->phase, "%s evades %lld mm (stopped by %s)", u->id,
			(long long)table_length_round((struct table_pt){ 0, 0 }, d),
			s->units[by].id);
	wm_off_table(x, u);
}

static void initiative(struct wm_ctx *x, const struct wm_orders *o)
{
	struct wm_state *s = x->s;
	for (size_t i = 0; i < s->n_units; i++) {
		struct wm_unit *u = &s->units[i];
		/* Troll Slayers always charge on their initiative when they can (WMR Dwarfs) */
		int want = u->slayer ? WM_INIT_CHARGE : o->initiative[i];
		if (u->side != x->active || u->destroyed || u->engaged || u->confused || !want ||
			!wm_enemy_near(s, u))
			continue;
		int e = wm_closest_enemy(s, u, 0);
		struct wm_unit *t = &s->units[e];
		if (u->slayer && (t->engaged || u->immobile))
			continue; /* cannot charge: they may take orders */
		u->used_init = 1;
		if (want == WM_INIT_CHARGE) {
			events_add(x->ev, x->phase, "%s uses its initiative to charge %s", u->id,
				t->id);
			if (t->engaged || u->immobile)
				events_add(x->ev, x->phase, "%s cannot charge", u->id);
			else
				wm_charge(x, u, t);
		} else {
			events_add(x->ev, x->phase, "%s uses its initiative to evade %s", u->id,
				t->id);
			if (!u->immobile)
				evade(x, u, t);
		}
	}
}

void wm_home_back(struct wm_ctx *x, struct wm_unit *u)
{
	const struct wm_state *s = x->s;
	int best = -1;
	int64_t bd = 0;
	for (size_t i = 0; i < s->n_chars; i++) {
		if (s->chars[i].side != u->side || s->chars[i].slain)
			continue;
		int64_t d = wm_char_dist(&s->chars[i], u);
		if (best < 0 || d < bd) {
			best = (int)i;
			bd = d;
		}
	}
	if (best < 0 || bd <= WM_NEAR)
		return;
	int d6 = (int)dice_roll(x->dice, 6,
		"Warmaster Home Back: %s, %lld mm from %s (D6 x 100 mm)", u->id, (long long)bd,
		s->chars[best].id);
	int64_t len = 100 * d6 < bd ? 100 * d6 : bd;
	wm_translate(u, wm_scale(vsub(s->chars[best].at, wm_centre(u)), len));
	events_add(x->ev, x->phase, "%s homes back %lld mm toward %s", u->id, (long long)len,
		s->chars[best].id);
}

/* Each character's orders in the file's sequence. */
static void orders(struct wm_ctx *x, const struct wm_orders *o)
{
	struct wm_state *s = x->s;
	const char *player = s->side[x->active].player;
	int general_failed = 0;
	for (size_t k = 0; k < o->n; k++) {
		const struct wm_entry *e = &o->v[k];
		if (e->character < 0)
			continue;
		struct wm_character *c = &s->chars[e->character];
		int stop = general_failed;
		if (c->slain) {
			events_void(x->ev, x->phase, player, e->index, "%s has been slain", c->id);
			continue;
		}
		for (size_t j = 0; j < e->n_orders && !stop; j++)
			if (give_order(x, c, player, e->index, &e->orders[j]) == 0) {
				stop = 1;
				events_add(x->ev, x->phase, "%s can give no more orders%s", c->id,
					c->role == WM_GENERAL ? "; the General failed: no more "
								"orders this turn" :
								"");
				general_failed |= c->role == WM_GENERAL;
			}
		/* Sealed: orders never tried are never declared across the table. */
		if (general_failed && stop && e->n_orders && c->role != WM_GENERAL &&
			!x->ev->sealed)
			events_void(x->ev, x->phase, player, e->index,
				"%s gives no orders: the General has failed", c->id);
		if (e->has_move)
			move_character(x, c, e->move_to);
		if (e->join)
			join(x, c, &s->units[e->join - 1], player, e->index);
	}
}

void wm_command_phase(struct wm_ctx *x, const struct wm_orders *o)
{
	struct wm_state *s = x->s;
	x->phase = "command";
	initiative(x, o);
	for (size_t i = 0; i < s->n_units; i++)
		if (s->units[i].side == x->active && s->units[i].type == WM_FLYER &&
			!s->units[i].destroyed && !s->units[i].engaged)
			wm_home_back(x, &s->units[i]);
	orders(x, o);
	wm_characters_follow(x);
	/* Units walked through by the Giant, and the side's confused units, recover now. */
	for (size_t i = 0; i < s->n_units; i++) {
		struct wm_unit *u = &s->units[i];
		if (u->walked || (u->side == x->active && u->confused && !u->burst)) {
			if (u->confused)
				events_add(x->ev, x->phase, "%s is no longer confused", u->id);
			u->confused = 0;
			u->walked = 0;
		}
	}
}

/* ---- Giant Goes Wild ---- */

/* Walks u along dir for len mm from its front centre: friends passed are confused when
 * confuse; the first unit met that stops it (an enemy, or any unit when any) is attacked.
 * Returns 1 if it attacked. */
static int walk(struct wm_ctx *x, struct wm_unit *u, struct table_pt dir, int64_t len, int any,
	int confuse)
{
	struct wm_state *s = x->s;
	if (dir.x == 0 && dir.y == 0)
		return 0; /* already on the spot */
	struct table_pt a = wm_front_centre(u), step = wm_scale(dir, len);
	struct table_pt b = { a.x + step.x, a.y + step.y };
	struct table_frac best = { 1, 1 };
	int hit = -1;
	for (size_t i = 0; i < s->n_units; i++) {
		struct wm_unit *v = &s->units[i];
		if (v == u || v->destroyed)
			continue;
		struct table_rect r = wm_rect(v);
		struct table_poly p = table_rect_poly(&r);
		struct table_span *sp = NULL;
		size_t ns = table_seg_spans(&sp, &p, a, b);
		for (size_t k = 0; k < ns; k++) {
			if (sp[k].where == TABLE_OUTSIDE)
				continue;
			if (v->side == u->side && confuse && !any) {
				v->confused = v->walked = 1;
				events_add(x->ev, x->phase, "%s is walked through and confused",
					v->id);
			} else if ((any || v->side != u->side) &&
				   table_frac_cmp(sp[k].from, best) < 0) {
				best = sp[k].from;
				hit = (int)i;
			}
			break;
		}
		free(sp);
	}
	if (hit < 0) {
		wm_translate(u, step);
		wm_off_table(x, u);
		events_add(x->ev, x->phase, "%s walks %lld mm", u->id, (long long)len);
		return 0;
	}
	struct wm_unit *t = &s->units[hit];
	int flank = flank_of(u, t);
	struct table_rect before = wm_rect(u);
	wm_translate(u, vsub(table_frac_point(a, b, best), a));
	engage(x, u, t, flank, &before);
	return 1;
}

struct table_pt wm_to_edge(const struct wm_state *s, struct table_pt c)
{
	int64_t d[4] = { c.x, s->width - c.x, c.y, s->depth - c.y };
	static const struct table_pt dir[4] = { { -1, 0 }, { 1, 0 }, { 0, -1 }, { 0, 1 } };
	int k = 0;
	for (int i = 1; i < 4; i++)
		if (d[i] < d[k])
			k = i;
	return dir[k];
}

/* Giant 3: a rock at the closest unit, friend or foe, range 5D6 cm, 3 attacks if it hits. */
static void rock(struct wm_ctx *x, struct wm_unit *u)
{
	struct wm_state *s = x->s;
	int best = -1;
	int64_t bd = 0;
	for (size_t i = 0; i < s->n_units; i++) {
		int64_t dd;
		if (&s->units[i] == u || s->units[i].destroyed)
			continue;
		dd = wm_unit_dist(u, &s->units[i]);
		if (best < 0 || dd < bd) {
			best = (int)i;
			bd = dd;
		}
	}
	if (best < 0)
		return;
	int r[5];
	int range = 10 * dice_roll_many(x->dice, 5, 6, r,
				 "Warmaster Giant Goes Wild: %s's rock "
				 "at %s, %lld mm away (range 5D6 x 10 mm)",
				 u->id, s->units[best].id, (long long)bd);
	if (bd > range) {
		events_add(x->ev, x->phase, "the rock falls short (%d mm)", range);
		return;
	}
	events_add(x->ev, x->phase, "the rock (%d mm) hits %s: 3 attacks", range,
		s->units[best].id);
	wm_attack(x, &s->units[best], 3, "Giant's rock");
}

void wm_giant_wild(struct wm_ctx *x, struct wm_unit *u)
{
	struct wm_state *s = x->s;
	int d6 = (int)dice_roll(x->dice, 6, "Warmaster Giant Goes Wild: %s", u->id);
	int e = wm_closest_enemy(s, u, 1);
	struct table_rect r = wm_rect(u);
	struct table_pt facing = vsub(r.c[TABLE_FL], r.c[TABLE_RL]);
	static const char *const what[] = { "", "will neither move nor fight",
		"makes for the nearest table edge", "throws a rock", "walks straight ahead",
		"rushes the nearest enemy", "rushes the nearest enemy at twice its pace" };
	events_add(x->ev, x->phase, "%s goes wild (%d): %s", u->id, d6, what[d6]);
	if (d6 == 1)
		u->no_fight = 1;
	else if (d6 == 2) {
		u->stand_ground = 1;
		walk(x, u, wm_to_edge(s, wm_centre(u)), u->pace, 1, 0);
	} else if (d6 == 3)
		rock(x, u);
	else if (d6 == 4)
		walk(x, u, facing, u->pace, 0, 1);
	else if (e >= 0) {
		if (d6 == 6)
			u->double_first = 1;
		walk(x, u, vsub(wm_centre(&s->units[e]), wm_front_centre(u)),
			d6 == 6 ? 2 * u->pace : u->pace, 0, 1);
	} else
		events_add(x->ev, x->phase, "%s sees no enemy and stays", u->id);
}
