/* shoot.c — the Warmaster Shooting phase: attacks rolled to hit by the target's position
 * (4+/5+/6+), armour saves, stands removed, drive backs at the end of the phase (1D6 cm per hit,
 * fewer dice defended or fortified, a 6 confuses, further than a full pace destroys), the
 * Flame Cannon and Death Rocket tables, and damage to fortresses, buildings and ships. */
#include <string.h>

#include "rules/warmaster/warmaster.h"
#include "core/banned.h"

int wm_apply_hits(struct wm_ctx *x, struct wm_unit *u, int hits)
{
	int lost = 0;
	if (u->destroyed || hits <= 0)
		return 0;
	u->damage += hits;
	while (u->stands > 0 && u->damage >= u->hits) {
		u->damage -= u->hits;
		u->stands--;
		lost++;
	}
	if (lost)
		events_add(x->ev, x->phase, "%s loses %d stand%s (%d left)", u->id, lost,
			lost == 1 ? "" : "s", u->stands);
	if (u->stands == 0) {
		u->destroyed = 1;
		u->damage = 0;
		if (u->engaged) {
			struct wm_unit *t = &x->s->units[u->engaged - 1];
			if (t->engaged == (int)(u - x->s->units) + 1)
				t->engaged = 0;
			u->engaged = 0;
		}
		events_add(x->ev, x->phase, "%s is destroyed", u->id);
	}
	return lost;
}

int wm_save_needed(int armour, int worse)
{
	return armour && armour + worse <= 6 ? armour + worse : 0;
}

/* Armour saves for hits on u: each saved on a d6 >= its armour counted worse worse. Returns
 * hits not saved. */
static int saves(struct wm_ctx *x, const struct wm_unit *u, int hits, const char *label, int worse)
{
	int left = hits, need = wm_save_needed(u->armour, worse);
	if (!need)
		return hits;
	for (int i = 0; i < hits; i++)
		if ((int)dice_roll(x->dice, 6, "Warmaster armour save: %s (%s), %d+ [%d/%d]", u->id,
			    label, need, i + 1, hits) >= need)
			left--;
	return left;
}

int wm_attack(struct wm_ctx *x, struct wm_unit *target, int attacks, const char *label)
{
	return wm_attack_ap(x, target, attacks, label, 0);
}

int wm_attack_ap(struct wm_ctx *x, struct wm_unit *target, int attacks, const char *label,
	int worse)
{
	int need = wm_to_hit(wm_position_of(x->s, target)), hits = 0;
	if (attacks <= 0 || target->destroyed)
		return 0;
	for (int i = 0; i < attacks; i++)
		if ((int)dice_roll(x->dice, 6, "Warmaster to hit: %s at %s, %d+ [%d/%d]", label,
			    target->id, need, i + 1, attacks) >= need)
			hits++;
	int left = saves(x, target, hits, label, worse);
	events_add(x->ev, x->phase, "%s: %d attacks on %s, %d hits, %d after saves", label, attacks,
		target->id, hits, left);
	wm_apply_hits(x, target, left);
	return left;
}

/* The Flame Cannon Attacks table (D6) instead of the cannon's dice while it is whole. */
static int flame_cannon(struct wm_ctx *x, struct wm_unit *u, struct wm_unit *t, int *extra_hits)
{
	int d6 = (int)dice_roll(x->dice, 6, "Warmaster Flame Cannon Attacks: %s at %s", u->id,
		t->id);
	const struct wm_flame *f = &wm_flame_table[d6];
	int attacks = 0, r[2];
	if (f->dice)
		attacks = dice_roll_many(x->dice, f->dice, 6, r,
			"Warmaster Flame Cannon: %s's %dD6 "
			"attacks",
			u->id, f->dice);
	events_add(x->ev, x->phase, "%s flame cannon %d: %d hits, %d attacks%s%s%s", u->id, d6,
		f->hits, attacks, f->destroyed ? ", destroyed" : "",
		f->reduced ? ", one die in future" : "", f->no_shoot ? ", does not shoot" : "");
	*extra_hits = f->hits;
	if (f->reduced)
		u->reduced = 1;
	if (f->destroyed) {
		u->stands = 0;
		u->destroyed = 1;
	}
	return attacks;
}

/* WMR's Flame Cannon: 2D6 attacks; a double rolls on the Misfire Chart instead. */
static int flame_cannon_wmr(struct wm_ctx *x, struct wm_unit *u, struct wm_unit *t)
{
	int v[2], r[2];
	int sum = dice_roll_many(x->dice, 2, 6, v, "Warmaster Flame Cannon (WMR): %s at %s, 2D6",
		u->id, t->id);
	if (v[0] != v[1])
		return sum;
	const struct wm_misfire *m = &wm_flame_misfire[v[0]];
	int attacks = m->attacks;
	if (m->dice)
		attacks += dice_roll_many(x->dice, m->dice, 6, r,
			"Warmaster Flame Cannon Misfire: %s's %dD6 attacks", u->id, m->dice);
	events_add(x->ev, x->phase, "%s flame cannon misfire %d-%d: %d attacks%s%s", u->id, v[0],
		v[1], attacks, m->destroyed ? ", destroyed" : "",
		m->reduced ? ", 1D6 attacks from now on" : "");
	if (m->reduced)
		u->reduced = 1;
	if (m->destroyed) {
		u->stands = 0;
		u->destroyed = 1;
	}
	return attacks;
}

/* The Death Rocket Attack table (D6): the attacks it makes this turn (-1: none). */
static int death_rocket(struct wm_ctx *x, struct wm_unit *u, int base)
{
	int d6 = (int)dice_roll(x->dice, 6, "Warmaster Death Rocket Attack: %s", u->id);
	const struct wm_rocket *r = &wm_rocket_table[d6];
	int extra = 0, v[2];
	if (r->extra_dice)
		extra = dice_roll_many(x->dice, r->extra_dice, 6, v,
			"Warmaster Death Rocket: %s's extra %dD6 attacks", u->id, r->extra_dice);
	events_add(x->ev, x->phase, "%s death rocket %d%s%s%s%s", u->id, d6,
		r->destroyed_before || r->destroyed_after ? ": destroyed" : "",
		r->no_shoot ? ": does not shoot this turn" : "",
		r->reduced ? "; D6 attacks from now on" : "", extra ? "; extra attacks" : "");
	if (r->reduced)
		u->reduced = 1;
	if (r->destroyed_before || r->destroyed_after) {
		u->stands = 0;
		u->destroyed = 1;
	}
	if (r->destroyed_before || r->no_shoot)
		return -1;
	return base + extra;
}

/* The attacks of an ordinary shot (reduced: one D6). */
static int shot_attacks(struct wm_ctx *x, struct wm_unit *u)
{
	if (u->reduced)
		return (int)dice_roll(x->dice, 6, "Warmaster shooting: %s's D6 attacks", u->id);
	return u->shoot * u->stands * (u->overload ? 2 : 1);
}

void wm_shoot_at_charger(struct wm_ctx *x, struct wm_unit *t, struct wm_unit *u,
	const struct table_rect *before)
{
	struct table_rect after = wm_rect(u);
	if (!t->shoot || t->destroyed || t->confused || t->no_shoot || u->destroyed)
		return;
	/* WMR Q&A Line of Sight: the charger must be ahead of the front edge at some point of its
	 * move; a straight move between two footprints behind the line stays behind it. */
	if (!wm_in_arc(t, before) && !wm_in_arc(t, &after)) {
		events_add(x->ev, x->phase, "%s cannot shoot at its charger %s: not in its arc",
			t->id, u->id);
		return;
	}
	int attacks = shot_attacks(x, t);
	events_add(x->ev, x->phase, "%s shoots at its charger %s", t->id, u->id);
	t->charge_shot += wm_attack_ap(x, u, attacks, t->id, t->armour_piercing);
}

static int is_vessel(const struct wm_unit *t)
{
	return t->type == WM_BOAT || t->type == WM_GALLEY || t->type == WM_SHIP;
}

/* Damage To Fortresses & Buildings & Ships: hits (6 fortress/ship, 4+ building/boat, no save),
 * one D6 per hit, the highest plus modifiers. Returns the effect (0, 1 damaged, 2 breached) or
 * -1 when no hit. */
static int damage_roll(struct wm_ctx *x, const struct wm_unit *u, const char *what, int fortress,
	int mods)
{
	int need = wm_damage_to_hit(fortress), hits = 0, n = u->shoot * u->stands, best = 0;
	for (int i = 0; i < n; i++)
		if ((int)dice_roll(x->dice, 6,
			    "Warmaster Damage To Fortresses: %s at %s, %d+ [%d/%d]", u->id, what,
			    need, i + 1, n) >= need)
			hits++;
	for (int i = 0; i < hits; i++) {
		int d = (int)dice_roll(x->dice, 6,
			"Warmaster Damage To Fortresses: effect on %s "
			"[%d/%d]",
			what, i + 1, hits);
		best = d > best ? d : best;
	}
	if (!hits) {
		events_add(x->ev, x->phase, "%s shoots at %s: no hit", u->id, what);
		return -1;
	}
	int eff = wm_damage_effect(best + mods);
	static const char *const names[] = { "nothing", "damaged but holds", "breached" };
	events_add(x->ev, x->phase, "%s shoots at %s: %d hits, highest %d %+d: %s", u->id, what,
		hits, best, mods, names[eff]);
	return eff;
}

static void damage_structure(struct wm_ctx *x, struct wm_unit *u, struct wm_structure *st)
{
	int fortress = st->kind != WM_BUILDING;
	/* A damaged tower counts +1 like a damaged wall, or it could never be breached. */
	int mods = (st->kind == WM_GATEWAY || st->kind == WM_BUILDING) + st->damaged;
	int eff = damage_roll(x, u, st->id, fortress, mods);
	if (eff == 1)
		st->damaged = 1;
	if (eff == 2) {
		st->damaged = 1;
		st->breaches++;
		st->breached = st->breaches >= (st->kind == WM_TOWER ? 2 : 1);
		events_add(x->ev, x->phase, "%s %s", st->id,
			st->breached ? "is breached" : "is breached once (a tower falls at twice)");
	}
}

static void damage_vessel(struct wm_ctx *x, struct wm_unit *u, struct wm_unit *t)
{
	int eff = damage_roll(x, u, t->id, t->type != WM_BOAT, t->ship_damage);
	if (eff >= 1)
		t->ship_damage = 1;
	if (eff == 2) {
		t->stands = 0;
		t->destroyed = 1;
		events_add(x->ev, x->phase, "%s is sunk", t->id);
	}
}

void wm_shoot(struct wm_ctx *x, struct wm_unit *u, struct wm_unit *t, struct wm_structure *st)
{
	if (st) {
		damage_structure(x, u, st);
		return;
	}
	if (u->type == WM_ARTILLERY && is_vessel(t)) {
		damage_vessel(x, u, t);
		return;
	}
	int extra_hits = 0, attacks;
	if (u->special == WM_FLAME_CANNON && !u->reduced && x->o->flame_wmr)
		attacks = flame_cannon_wmr(x, u, t);
	else if (u->special == WM_FLAME_CANNON && !u->reduced)
		attacks = flame_cannon(x, u, t, &extra_hits);
	else if (u->special == WM_DEATH_ROCKET)
		attacks = death_rocket(x, u, shot_attacks(x, u));
	else
		attacks = shot_attacks(x, u);
	int hits = 0;
	if (extra_hits) {
		hits = saves(x, t, extra_hits, u->id, u->armour_piercing);
		events_add(x->ev, x->phase, "%s: %d hits outright on %s, %d after saves", u->id,
			extra_hits, t->id, hits);
		wm_apply_hits(x, t, hits);
	}
	if (attacks > 0)
		hits += wm_attack_ap(x, t, attacks, u->id, u->armour_piercing);
	t->shot_hits += hits;
	if (!t->shot_by)
		t->shot_by = (int)(u - x->s->units) + 1;
}

void wm_drive_back(struct wm_ctx *x, struct wm_unit *u)
{
	enum wm_position p = wm_position_of(x->s, u);
	int n = wm_drive_dice(u->shot_hits, p), v[WM_MAX_ENTRIES], six = 0;
	if (u->destroyed || u->engaged || u->no_drive_back || n == 0)
		return;
	if (n > WM_MAX_ENTRIES)
		n = WM_MAX_ENTRIES;
	int cm = dice_roll_many(x->dice, n, 6, v,
		"Warmaster Drive Backs: %s, %d hits, %s: %dD6 x 10 mm", u->id, u->shot_hits,
		wm_position_names[p], n);
	for (int i = 0; i < n; i++)
		six |= v[i] == 6;
	struct table_pt from = u->shot_by > 0 ? wm_centre(&x->s->units[u->shot_by - 1]) :
						u->shot_from;
	if (10 * cm > u->pace) {
		events_add(x->ev, x->phase,
			"%s is driven back %d mm, further than its pace: destroyed", u->id,
			10 * cm);
		u->stands = 0;
		u->destroyed = 1;
		return;
	}
	wm_move_away(u, from, 10 * cm);
	if (six)
		u->confused = 1;
	events_add(x->ev, x->phase, "%s is driven back %d mm%s", u->id, 10 * cm,
		six ? " and confused (a 6)" : "");
	wm_off_table(x, u);
}

/* Why u cannot shoot at all this phase (NULL: it can). */
static const char *shooter_barred(const struct wm_unit *u)
{
	const char *why = wm_unit_unready(u);
	if (why)
		return why;
	if (u->no_shoot)
		return "cannot shoot this turn";
	return NULL;
}

/* Why u cannot make this shot (NULL: it can). */
static const char *cannot_shoot(const struct wm_state *s, const struct wm_unit *u,
	const struct wm_unit *t, const struct wm_structure *st)
{
	struct table_rect r = wm_rect(u);
	const char *why = shooter_barred(u);
	if (why)
		return why;
	if (st) {
		if (u->type != WM_ARTILLERY)
			return "only artillery can attack buildings";
		if (st->breached)
			return "already breached";
		if (!table_rect_within_pt(&r, st->at, u->range))
			return "out of range";
		if (!wm_in_arc_pt(u, st->at))
			return "not in its arc (in front of its front edge)";
		return wm_visible(s, wm_centre(u), st->at) ? NULL : "not visible";
	}
	if (t->destroyed)
		return "the target is destroyed";
	if (t->engaged)
		return "the target is in combat";
	if (wm_unit_dist(u, t) > u->range)
		return "out of range";
	struct table_rect rt = wm_rect(t);
	if (!wm_in_arc(u, &rt))
		return "not in its arc (in front of its front edge)";
	return wm_visible(s, wm_centre(u), wm_centre(t)) ? NULL : "not visible";
}

/* The closest enemy unit u may shoot at (Warmaster Revolution, Shooting, Targets: the
 * closest visible enemy unit not in combat, in range), by the exact squared distance between
 * footprints; of equally close ones the order's target t if it is one, else the first in the
 * scenario's order. -1: none. */
static int closest_target(const struct wm_state *s, const struct wm_unit *u,
	const struct wm_unit *t)
{
	struct table_rect ru = wm_rect(u);
	struct table_d2 best = { 0 };
	int hit = -1;
	for (size_t i = 0; i < s->n_units; i++) {
		const struct wm_unit *v = &s->units[i];
		if (v->side == u->side || cannot_shoot(s, u, v, NULL))
			continue;
		struct table_rect rv = wm_rect(v);
		struct table_d2 d2 = table_rect_d2(&ru, &rv);
		int c = hit < 0 ? -1 : table_d2_cmp(d2, best);
		if (c < 0 || (c == 0 && v == t)) {
			best = d2;
			hit = (int)i;
		}
	}
	return hit;
}

void wm_shooting_phase(struct wm_ctx *x, const struct wm_orders *o)
{
	struct wm_state *s = x->s;
	x->phase = "shooting";
	for (size_t i = 0; i < s->n_units; i++) {
		s->units[i].shot_hits = 0;
		s->units[i].shot_by = 0;
	}
	for (size_t k = 0; k < o->n; k++) {
		const struct wm_entry *e = &o->v[k];
		if (e->caster >= 0) {
			wm_cast(x, e);
			continue;
		}
		if (e->character >= 0)
			continue;
		struct wm_unit *u = &s->units[e->shooter];
		struct wm_unit *t = e->target >= 0 ? &s->units[e->target] : NULL;
		struct wm_structure *st = e->structure >= 0 ? &s->structures[e->structure] : NULL;
		const char *why = cannot_shoot(s, u, t, st);
		int c = t && !shooter_barred(u) ? closest_target(s, u, t) : -1;
		if (c >= 0 && &s->units[c] != t) {
			if (why)
				events_add(x->ev, x->phase,
					"%s cannot shoot at %s (%s): it shoots at the closest enemy "
					"it can see, %s",
					u->id, t->id, why, s->units[c].id);
			else
				events_add(x->ev, x->phase,
					"%s shoots at the closest enemy it can see, %s, not %s",
					u->id, s->units[c].id, t->id);
			t = &s->units[c];
			why = NULL;
		}
		if (why)
			events_void(x->ev, x->phase, s->side[x->active].player, e->index,
				"%s cannot shoot at %s: %s", u->id, st ? st->id : t->id, why);
		else
			wm_shoot(x, u, t, st);
	}
	for (size_t i = 0; i < s->n_units; i++)
		if (s->units[i].shot_hits > 0)
			wm_drive_back(x, &s->units[i]);
	wm_characters_follow(x);
}
