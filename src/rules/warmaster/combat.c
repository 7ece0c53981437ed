/* combat.c — the Warmaster Combat phase: each engagement fought round by round (attacks per
 * stand with the sheet's modifiers, hits by position, armour saves, +1 per supporting stand),
 * the result (draw: both fall back 3D6 cm unless defended/fortified stand; lose: retreat by the
 * difference; win: fall back, stand, pursue or advance), boiling oil from fortified walls, and
 * the End phase. */
#include <string.h>

#include "rules/warmaster/warmaster.h"
#include "core/banned.h"

static int idx(const struct wm_ctx *x, const struct wm_unit *u)
{
	return (int)(u - x->s->units);
}

static void part(struct wm_ctx *x, struct wm_unit *a, struct wm_unit *b)
{
	(void)x;
	a->engaged = 0;
	b->engaged = 0;
}

/* Stands of friendly units touching u and not in combat themselves (+1 each). */
static int support(const struct wm_state *s, const struct wm_unit *u)
{
	struct table_rect r = wm_rect(u);
	int n = 0;
	for (size_t i = 0; i < s->n_units; i++) {
		const struct wm_unit *v = &s->units[i];
		if (v == u || v->destroyed || v->engaged || v->side != u->side)
			continue;
		struct table_rect rv = wm_rect(v);
		if (table_rect_overlap(&r, &rv) != TABLE_APART)
			n += v->stands;
	}
	return n;
}

/* The attacks of u this round against t. */
static int attacks_of(struct wm_ctx *x, const struct wm_unit *u, const struct wm_unit *t, int round,
	int pursuing, int pursuit_cm, int hit_in_flank, struct buf *why)
{
	struct wm_cmods m;
	int open = wm_position_of(x->s, t) == WM_OPEN;
	memset(&m, 0, sizeof(m));
	if (u->no_fight)
		return 0;
	m.charging_open = round == 1 && u->charged && open;
	m.monster_charge = m.charging_open && (u->type == WM_MONSTER || u->type == WM_CHARIOT);
	m.pursuit = pursuing;
	m.pursuit_cm = pursuing ? pursuit_cm : 0;
	m.terrified = t->terror && !u->terror && !u->slayer;
	m.slayer = u->slayer && t->type == WM_MONSTER;
	m.flank = hit_in_flank;
	m.confused = u->confused;
	/* Giant Goes Wild 6, "double attack value for the first round": the Attacks value is
	 * doubled, then the per-stand modifiers are added (docs/rules/warmaster.md). */
	int twice = round == 1 && u->double_first;
	int per = u->attacks * (twice ? 2 : 1) + wm_combat_mod(&m) + u->spell_bonus;
	if (per < 0)
		per = 0;
	int n = per * u->stands;
	int bonus = wm_character_bonus(x->s, u);
	if (bonus)
		bonus += u->spell_bonus; /* the spell's bonus goes to joined characters too */
	buf_printf(why, "%s %d stands x (%d%s %+d)", u->id, u->stands, u->attacks,
		twice ? " x 2" : "", wm_combat_mod(&m) + u->spell_bonus);
	if (bonus && u->stands)
		buf_printf(why, " + %d (character)", bonus);
	return n + (u->stands ? bonus : 0);
}

/* Boiling Oil (D6) on attacker a by the fortified defender d. Returns 1 if a retreated. */
static int boiling_oil(struct wm_ctx *x, struct wm_unit *a, struct wm_unit *d)
{
	struct table_pt c = wm_centre(d);
	int oil = 0;
	for (size_t i = 0; i < x->s->n_areas; i++) {
		const struct wm_area *ar = &x->s->areas[i];
		struct table_poly p = { ar->v, ar->n };
		if (ar->kind == WM_FORTIFIED && ar->boiling_oil &&
			table_poly_where(&p, c) == TABLE_INSIDE)
			oil = 1;
	}
	if (!oil || wm_position_of(x->s, a) == WM_POS_FORTIFIED)
		return 0;
	int d6 = (int)dice_roll(x->dice, 6, "Warmaster Boiling Oil: %s on %s", d->id, a->id);
	int d3 = d6 >= 5 ? (int)(dice_roll(x->dice, 3, "Warmaster Boiling Oil: D3 attacks")) : 0;
	int n = wm_boiling_oil(d6, d3);
	events_add(x->ev, x->phase, "boiling oil %d: %d attacks on %s", d6, n, a->id);
	if (!n)
		return 0;
	int stands = a->stands, hits = wm_attack(x, a, n, "boiling oil");
	if (a->stands < stands && !a->destroyed) {
		wm_move_away(a, c, 10 * hits);
		part(x, a, d);
		events_add(x->ev, x->phase, "%s retreats %d mm from the boiling oil", a->id,
			10 * hits);
		wm_off_table(x, a);
		return 1;
	}
	return a->destroyed;
}

/* u falls back 3D6 cm straight away from point from; past the table's edge it is lost. */
static int fall_back_3d6(struct wm_ctx *x, struct wm_unit *u, struct table_pt from)
{
	int v[3];
	int cm = dice_roll_many(x->dice, 3, 6, v, "Warmaster Combat: %s falls back 3D6 x 10 mm",
		u->id);
	wm_move_away(u, from, 10 * cm);
	events_add(x->ev, x->phase, "%s falls back %d mm", u->id, 10 * cm);
	wm_off_table(x, u);
	return cm;
}

/* A draw: each side falls back 3D6 cm; a defended or fortified unit whose side chose to
 * stand stands (up-to-3d6 option: any unit may). Both standing: the combat goes on. */
static void draw(struct wm_ctx *x, struct wm_unit *a, struct wm_unit *b)
{
	struct wm_unit *u[2] = { a, b };
	int stood[2];
	for (int k = 0; k < 2; k++) {
		int may = x->o->draw_up_to || wm_position_of(x->s, u[k]) != WM_OPEN;
		stood[k] = may && x->s->side[u[k]->side].draw_stand;
	}
	if (stood[0] && stood[1]) {
		events_add(x->ev, x->phase, "draw: both stand; the combat goes on");
		return;
	}
	part(x, a, b);
	for (int k = 0; k < 2; k++) {
		if (stood[k])
			events_add(x->ev, x->phase, "draw: %s stands its ground", u[k]->id);
		else
			fall_back_3d6(x, u[k], wm_centre(u[1 - k]));
	}
}

/* One round; returns the difference (winner's score - loser's) and sets *win (0 a, 1 b, -1
 * draw). */
static int round_of(struct wm_ctx *x, struct wm_unit *a, struct wm_unit *b, int round, int pursuer,
	int pursuit_cm, int *win)
{
	struct buf why = BUF_INIT;
	int flank_b = a->charged == 2 && round == 1;
	int na = attacks_of(x, a, b, round, pursuer == 0, pursuit_cm, 0, &why);
	buf_puts(&why, "; ");
	int nb = attacks_of(x, b, a, round, pursuer == 1, pursuit_cm, flank_b, &why);
	events_add(x->ev, x->phase, "round %d, %s v %s: %s", round, a->id, b->id, buf_str(&why));
	buf_release(&why);
	int ha = wm_attack(x, b, na, a->id), hb = wm_attack(x, a, nb, b->id);
	/* hits struck shooting at the charger count in the first round (WMR Shooting) */
	int sa = ha + (a->destroyed ? 0 : support(x->s, a)) + (round == 1 ? a->charge_shot : 0);
	int sb = hb + (b->destroyed ? 0 : support(x->s, b)) + (round == 1 ? b->charge_shot : 0);
	events_add(x->ev, x->phase, "combat result: %s %d, %s %d", a->id, sa, b->id, sb);
	*win = b->destroyed && !a->destroyed ? 0 :
	       a->destroyed && !b->destroyed ? 1 :
	       sa > sb                       ? 0 :
	       sb > sa                       ? 1 :
					       -1;
	return sa > sb ? sa - sb : sb - sa;
}

/* Warmaster Combat, "Win: ... (if enemy is destroyed) advance (once only)": the winner whose
 * side's choice is pursue (the sheet's advance takes its place: no enemy is left to pursue)
 * moves straight from its front centre towards t, the centre of the ground the destroyed enemy
 * held, at most its full pace, keeping its facing; once only: it fights no further round this
 * phase. A side standing its ground stands; one falling back falls back 3D6 cm. */
static void advance(struct wm_ctx *x, struct wm_unit *w, struct table_pt t, enum wm_after c)
{
	if (c == WM_FALL_BACK) {
		fall_back_3d6(x, w, t);
		return;
	}
	struct table_pt f = wm_front_centre(w);
	struct table_pt d = { t.x - f.x, t.y - f.y };
	int64_t len = (int64_t)table_isqrt_round(
		(uint64_t)((int64_t)d.x * d.x + (int64_t)d.y * d.y));
	if (c == WM_STAND || w->no_fight || len == 0) {
		events_add(x->ev, x->phase, "%s stands its ground (its enemy is destroyed)", w->id);
		return;
	}
	if (len > w->pace) {
		d = wm_scale(d, w->pace);
		len = w->pace;
	}
	wm_translate(w, d);
	wm_keep_on_table(x->s, w);
	events_add(x->ev, x->phase, "%s advances %lld mm (once only: its enemy is destroyed)",
		w->id, (long long)len);
}

/* The winner's choice after a lost combat: returns 1 if it pursues into another round. */
static int after_win(struct wm_ctx *x, struct wm_unit *w, struct wm_unit *l, int diff, int round)
{
	enum wm_after c = w->stand_ground ? WM_STAND :
			  w->slayer       ? WM_PURSUE /* Troll Slayers must pursue (WMR) */ :
					    x->s->side[w->side].win;
	/* the ground l held: where a winner advances if l is lost in its retreat */
	struct table_pt held = wm_centre(l);
	if (l->destroyed) {
		advance(x, w, held, c);
		return 0;
	}
	l->confused = 0;
	wm_move_away(l, wm_centre(w), 10 * diff);
	events_add(x->ev, x->phase, "%s retreats %d mm", l->id, 10 * diff);
	wm_off_table(x, l);
	if (l->destroyed) {
		advance(x, w, held, c);
		return 0;
	}
	if (c == WM_PURSUE && round < WM_MAX_ROUNDS && !w->no_fight) {
		struct table_rect rw = wm_rect(w), rl = wm_rect(l);
		struct table_pt p;
		if (table_rect_nearest(&p, &rw, &rl) == 0) {
			struct table_pt f = wm_front_centre(w);
			wm_translate(w, (struct table_pt){ p.x - f.x, p.y - f.y });
		}
		wm_keep_on_table(x->s, w);
		w->engaged = idx(x, l) + 1;
		l->engaged = idx(x, w) + 1;
		events_add(x->ev, x->phase, "%s pursues %s", w->id, l->id);
		return 1;
	}
	if (c == WM_FALL_BACK)
		fall_back_3d6(x, w, wm_centre(l));
	else
		events_add(x->ev, x->phase, "%s stands its ground", w->id);
	return 0;
}

/* Fights the engagement of a (the attacker) and b. */
static void fight(struct wm_ctx *x, struct wm_unit *a, struct wm_unit *b)
{
	int pursuer = -1, pursuit_cm = 0;
	if (boiling_oil(x, a, b))
		return;
	for (int round = 1; round <= WM_MAX_ROUNDS; round++) {
		int win, diff = round_of(x, a, b, round, pursuer, pursuit_cm, &win);
		if (a->destroyed || b->destroyed)
			part(x, a, b);
		if (win < 0) {
			if (!a->destroyed && !b->destroyed)
				draw(x, a, b);
			return;
		}
		struct wm_unit *w = win == 0 ? a : b, *l = win == 0 ? b : a;
		events_add(x->ev, x->phase, "%s wins by %d", w->id, diff);
		part(x, a, b);
		if (!after_win(x, w, l, diff, round))
			return;
		pursuer = win;
		pursuit_cm = diff;
	}
	part(x, a, b);
}

void wm_combat_phase(struct wm_ctx *x)
{
	struct wm_state *s = x->s;
	x->phase = "combat";
	for (size_t i = 0; i < s->n_units; i++) {
		struct wm_unit *a = &s->units[i];
		if (!a->engaged || a->destroyed)
			continue;
		struct wm_unit *b = &s->units[a->engaged - 1];
		/* The charger attacks; an engagement carried over goes to the lower index. */
		if (b->charged && !a->charged)
			continue;
		if (!a->charged && !b->charged && idx(x, b) < (int)i)
			continue;
		fight(x, a, b);
	}
	wm_characters_follow(x);
}

void wm_end_phase(struct wm_ctx *x)
{
	x->phase = "end";
	for (size_t i = 0; i < x->s->n_units; i++) {
		struct wm_unit *u = &x->s->units[i];
		u->damage = 0; /* hits that did not remove a stand are discarded */
		u->charged = u->used_init = u->ordered = u->no_shoot = u->no_fight = 0;
		u->double_first = u->stand_ground = u->walked = u->shot_hits = u->shot_by = 0;
		u->overload = u->charge_shot = u->burst = u->spell_bonus = 0;
		u->spelled = 0;
	}
}
