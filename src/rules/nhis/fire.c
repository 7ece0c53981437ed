/* fire.c — NHiS fire combat: the Fire Attack Table, the firepower reckoning (DRMs, column,
 * two-column shifts), the Hit-X and Damaged-N results with their morale checks and random
 * damage allocation, and the Rally Phase. Every die goes through the struct dice with a
 * purpose naming the sheet's rule, the units and the modifiers. */
#include <stdio.h>
#include <string.h>

#include "rules/nhis/nhis.h"
#include "core/banned.h"

const char *const nhis_result_names[] = {
	"no effect",
	"Hit",
	"Hit-1",
	"Damaged",
	"Damaged-2",
	"Damaged-3",
	NULL,
};

const int nhis_fat_firepower[NHIS_FAT_COLUMNS] = { 0, 2, 4, 6, 8, 10, 12, 16, 20 };

/* NHiS Fire Attack Table as reconstructed in NOTES.md §004: rows 2d6 = 2..11 (12 is no
 * effect throughout), columns FP 0, 2, 4, 6, 8, 10, 12, 16, 20. */
#define NE NHIS_NO_EFFECT
#define H NHIS_HIT
#define H1 NHIS_HIT1
#define D NHIS_DAMAGED
#define D2 NHIS_DAMAGED2
#define D3 NHIS_DAMAGED3
static const unsigned char fat[10][NHIS_FAT_COLUMNS] = {
	/*  2 */ { D, D, D, D2, D2, D2, D3, D3, D3 },
	/*  3 */ { H1, D, D, D, D2, D2, D2, D3, D3 },
	/*  4 */ { H, H1, D, D, D, D2, D2, D2, D2 },
	/*  5 */ { H, H, H1, D, D, D, D2, D2, D2 },
	/*  6 */ { NE, H, H, H1, D, D, D, D2, D2 },
	/*  7 */ { NE, NE, H, H, H1, D, D, D, D2 },
	/*  8 */ { NE, NE, NE, H, H, H1, D, D, D },
	/*  9 */ { NE, NE, NE, NE, H, H, H1, D, D },
	/* 10 */ { NE, NE, NE, NE, NE, H, H, H1, H1 },
	/* 11 */ { NE, NE, NE, NE, NE, NE, H, H, H },
};
#undef NE
#undef H
#undef H1
#undef D
#undef D2
#undef D3

enum nhis_result nhis_fat_lookup(int column, int roll)
{
	if (column < 0 || column >= NHIS_FAT_COLUMNS || roll < 2 || roll > 11)
		return NHIS_NO_EFFECT;
	return (enum nhis_result)fat[roll - 2][column];
}

int nhis_fat_column(int fp)
{
	if (fp < 0)
		return -1;
	int col = 0;
	for (int i = 0; i < NHIS_FAT_COLUMNS; i++)
		if (nhis_fat_firepower[i] <= fp)
			col = i;
	return col;
}

int nhis_firer_fp(const struct nhis_firer *f, int night_visibility)
{
	int fp = f->firepower;
	if (f->distance > 2 * f->range)
		return NHIS_OUT_OF_RANGE;
	if (f->distance > f->range)
		fp /= 2;
	if (f->charging)
		fp -= 2;
	if (night_visibility > 0 && f->distance > night_visibility)
		fp -= 2;
	/* NHiS DRMs "-2 ... Penalty is for each unit" and NOTES §004 step 1: the penalties are
	 * each unit's, then the sum; the floor is the attack's (step 4: below 0, no effect), so
	 * a unit can take firepower away from the attack it joins. */
	return fp;
}

/* One firer's term of the reckoning: printed firepower and what changed it to fp. */
static void explain_firer(const struct nhis_firer *f, int fp, int night_visibility, struct buf *why)
{
	buf_printf(why, "%s %d", f->id, f->firepower);
	if (fp == NHIS_OUT_OF_RANGE) {
		buf_puts(why, " out of range");
		return;
	}
	if (f->distance > f->range)
		buf_puts(why, " halved (beyond range)");
	if (f->charging)
		buf_puts(why, " -2 charging");
	if (night_visibility > 0 && f->distance > night_visibility)
		buf_puts(why, " -2 night");
	if (fp != f->firepower)
		buf_printf(why, " = %d", fp);
}

/* Procedure step 1 (NOTES §004): each unit's firepower, summed into fc->base. Returns 1 if a
 * firer is adjacent to the target. */
static int sum_firepower(struct nhis_fire_calc *fc, struct buf *why)
{
	int adjacent = 0;
	fc->base = 0;
	for (size_t i = 0; i < fc->n_firers; i++) {
		const struct nhis_firer *f = &fc->firers[i];
		int fp = nhis_firer_fp(f, fc->night_visibility);
		if (why) {
			if (i)
				buf_puts(why, " + ");
			explain_firer(f, fp, fc->night_visibility, why);
		}
		if (fp != NHIS_OUT_OF_RANGE)
			fc->base += fp;
		if (f->distance == 1)
			adjacent = 1;
	}
	if (why)
		buf_printf(why, "; FP %d", fc->base);
	return adjacent;
}

/* Steps 2-4: +2 moving target (not in Brush), +3 adjacent, - cover, once per attack; then
 * the column of the final firepower. */
static void final_column(struct nhis_fire_calc *fc, int adjacent, struct buf *why)
{
	fc->drm = 0;
	if (fc->moving_target && !fc->brush) {
		fc->drm += 2;
		if (why)
			buf_puts(why, " +2 moving target");
	} else if (fc->moving_target && why)
		buf_puts(why, " (moving target in Brush: no +2)");
	if (adjacent) {
		fc->drm += 3;
		if (why)
			buf_puts(why, " +3 adjacent");
	}
	fc->drm -= fc->cover;
	if (why)
		buf_printf(why, " -%d cover", fc->cover);
	fc->final = fc->base + fc->drm;
	fc->column = nhis_fat_column(fc->final);
	if (why) {
		buf_printf(why, " = %d", fc->final);
		if (fc->column < 0)
			buf_puts(why, ", below the table");
		else
			buf_printf(why, ", column %d", nhis_fat_firepower[fc->column]);
	}
}

/* Step 5: two columns left for cover terrain not marked, two more for infantry on a tank;
 * left of FP 0 is off the table (-1). */
static void shift_columns(struct nhis_fire_calc *fc, struct buf *why)
{
	fc->shifts = 0;
	if (fc->cover_shift) {
		fc->shifts += 2;
		if (why)
			buf_puts(why, ", 2 left (cover terrain not marked)");
	}
	if (fc->tank_target) {
		int infantry = 0;
		for (size_t i = 0; i < fc->n_firers; i++)
			if (fc->firers[i].infantry)
				infantry = 1;
		if (infantry) {
			fc->shifts += 2;
			if (why)
				buf_puts(why, ", 2 left (infantry on tank)");
		}
	}
	fc->result_column = fc->column < 0 ? -1 : fc->column - fc->shifts;
	if (fc->result_column < 0)
		fc->result_column = -1;
	if (why && fc->shifts > 0 && fc->column >= 0) {
		if (fc->result_column < 0)
			buf_puts(why, " -> off the table");
		else
			buf_printf(why, " -> column %d", nhis_fat_firepower[fc->result_column]);
	}
}

void nhis_fire_compute(struct nhis_fire_calc *fc, struct buf *why)
{
	int adjacent = sum_firepower(fc, why);
	final_column(fc, adjacent, why);
	shift_columns(fc, why);
}

const struct nhis_values *nhis_values_of(const struct nhis_unit *u)
{
	return u->is_reduced ? &u->reduced : &u->full;
}

int nhis_unshakable(const struct nhis_ctx *x, const struct nhis_unit *u)
{
	if (u->type == NHIS_TANK && x->o->tank_morale == NHIS_TANK_UNSHAKABLE)
		return 1;
	return nhis_nation_in(x->o->unshakable, x->o->n_unshakable,
		x->s->side[u->side].nationality);
}

int nhis_infantry(const struct nhis_unit *u)
{
	return u->type == NHIS_SQUAD || u->type == NHIS_LEADER || u->type == NHIS_MG ||
	       u->type == NHIS_MORTAR;
}

int nhis_leadership_in(const struct nhis_state *s, int side, int hex)
{
	int best = 0;
	for (size_t i = 0; i < s->n_units; i++) {
		const struct nhis_unit *u = &s->units[i];
		if (u->type != NHIS_LEADER || u->side != side || u->hex != hex || u->eliminated ||
			u->shaken)
			continue;
		int l = nhis_values_of(u)->leadership;
		if (l > best)
			best = l;
	}
	return best;
}

/* "Units (Weapon Teams and squads) may add the leadership rating of any non-Shaken
 * (Prepared) leader in their hex": not leaders themselves, not tanks. */
static int takes_leadership(const struct nhis_unit *u)
{
	return u->type != NHIS_LEADER && u->type != NHIS_TANK;
}

int nhis_morale_check(struct nhis_ctx *x, struct nhis_unit *u, int hit, int leadership,
	const char *label)
{
	char hx[5];
	nhis_hex_name(u->hex, hx);
	int morale = nhis_values_of(u)->morale;
	int roll = (int)dice_roll(x->dice, 6,
		"NHiS %s morale check: %s in %s 1d6+%d <= morale %d + leadership %d", label, u->id,
		hx, hit, morale, leadership);
	int pass = roll + hit <= morale + leadership;
	events_add(x->ev, x->phase, "%s morale check: %s rolls %d+%d against %d+%d: %s", label,
		u->id, roll, hit, morale, leadership, pass ? "passes" : "fails");
	return pass;
}

static void eliminate(struct nhis_ctx *x, struct nhis_unit *u, const char *why)
{
	u->eliminated = 1;
	u->shaken = 0;
	u->stopped = 1;
	u->moving = 0;
	events_add(x->ev, x->phase, "%s is eliminated (%s)", u->id, why);
}

/* A failed check by an Unshakable unit: reduced, or eliminated if already reduced; a moving
 * one stops unless it is Banzai charging and the fire had no flamethrower. */
static void unshakable_fails(struct nhis_ctx *x, struct nhis_unit *u, int flame)
{
	if (u->is_reduced)
		eliminate(x, u, "Unshakable, already reduced, fails morale");
	else {
		u->is_reduced = 1;
		events_add(x->ev, x->phase, "%s is reduced (Unshakable, fails morale)", u->id);
	}
	if (!u->eliminated && u->moving) {
		if (u->banzai && !flame)
			events_add(x->ev, x->phase, "%s charges on (Banzai)", u->id);
		else {
			u->stopped = 1;
			events_add(x->ev, x->phase, "%s must stop moving", u->id);
		}
	}
}

/* A failed check by a Shakeable unit: Shaken; Shaken again: reduced and still Shaken;
 * reduced and Shaken again: eliminated. It ends its impulse. */
static void shakeable_fails(struct nhis_ctx *x, struct nhis_unit *u)
{
	if (!u->shaken) {
		u->shaken = 1;
		events_add(x->ev, x->phase, "%s is Shaken", u->id);
	} else if (!u->is_reduced) {
		u->is_reduced = 1;
		events_add(x->ev, x->phase, "%s, Shaken again, is reduced and stays Shaken", u->id);
	} else {
		eliminate(x, u, "reduced and Shaken again");
	}
	u->stopped = 1;
}

/* Target units of side in hex, leaders first (then scenario order). Returns the count. */
static size_t targets_in(const struct nhis_state *s, int side, int hex, size_t *out)
{
	size_t n = 0;
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < s->n_units; i++) {
			const struct nhis_unit *u = &s->units[i];
			if (u->side != side || u->hex != hex || u->eliminated)
				continue;
			if ((u->type == NHIS_LEADER) == (pass == 0))
				out[n++] = i;
		}
	return n;
}

/* Damaged-N: N points to random units, every unit one before any gets a second. Each
 * round's candidates are the units still in play that have taken as many points as the
 * round number; when fewer points remain than candidates, each point goes to a candidate
 * chosen by a die with as many faces as candidates left. */
static void allocate_damage(struct nhis_ctx *x, const size_t *tg, size_t n, int points,
	const char *label)
{
	int got[NHIS_MAX_UNITS] = { 0 };
	size_t cand[NHIS_MAX_UNITS];
	int total = points;
	for (int round = 0; points > 0; round++) {
		size_t nc = 0;
		for (size_t i = 0; i < n; i++)
			if (!x->s->units[tg[i]].eliminated && got[i] == round)
				cand[nc++] = i;
		if (nc == 0) {
			events_add(x->ev, x->phase, "%s: %d damage point%s lost (no unit left)",
				label, points, points == 1 ? "" : "s");
			break;
		}
		size_t chosen[NHIS_MAX_UNITS];
		size_t nchosen = 0;
		if ((size_t)points >= nc) {
			memcpy(chosen, cand, nc * sizeof(*cand));
			nchosen = nc;
		} else {
			while ((size_t)points > nchosen) {
				struct buf names = BUF_INIT;
				for (size_t k = 0; k < nc; k++)
					buf_printf(&names, "%s%zu=%s", k ? ", " : "", k + 1,
						x->s->units[tg[cand[k]]].id);
				size_t r = (size_t)dice_roll(x->dice, nc,
					"NHiS %s damage point %d of %d: d%zu among %s", label,
					total - points + (int)nchosen + 1, total, nc,
					buf_str(&names));
				buf_release(&names);
				chosen[nchosen++] = cand[r - 1];
				memmove(&cand[r - 1], &cand[r], (nc - r) * sizeof(*cand));
				nc--;
			}
		}
		for (size_t k = 0; k < nchosen; k++) {
			struct nhis_unit *u = &x->s->units[tg[chosen[k]]];
			got[chosen[k]]++;
			u->damaged_now = 1;
			if (u->is_reduced)
				eliminate(x, u, "damage point on its reduced side");
			else {
				u->is_reduced = 1;
				events_add(x->ev, x->phase, "%s takes a damage point: reduced",
					u->id);
			}
		}
		points -= (int)nchosen;
	}
}

void nhis_apply_result(struct nhis_ctx *x, int hex, int side, enum nhis_result r, int flame,
	const char *label)
{
	size_t tg[NHIS_MAX_UNITS];
	size_t n = targets_in(x->s, side, hex, tg);
	if (r == NHIS_NO_EFFECT || n == 0)
		return;
	if (r == NHIS_HIT || r == NHIS_HIT1) {
		int hit = r == NHIS_HIT1 ? 1 : 0;
		char what[400];
		snprintf(what, sizeof(what), "%s (%s)", nhis_result_names[r], label);
		/* Leaders check first, so a leader Shaken by this attack lends no leadership. */
		for (size_t i = 0; i < n; i++) {
			struct nhis_unit *u = &x->s->units[tg[i]];
			int ldr = takes_leadership(u) ? nhis_leadership_in(x->s, side, hex) : 0;
			if (nhis_morale_check(x, u, hit, ldr, what))
				continue;
			if (nhis_unshakable(x, u))
				unshakable_fails(x, u, flame);
			else
				shakeable_fails(x, u);
		}
		return;
	}
	int points = r == NHIS_DAMAGED ? 1 : r == NHIS_DAMAGED2 ? 2 : 3;
	char what[400];
	snprintf(what, sizeof(what), "%s (%s)", nhis_result_names[r], label);
	for (size_t i = 0; i < n; i++)
		x->s->units[tg[i]].damaged_now = 0;
	allocate_damage(x, tg, n, points, what);
	for (size_t i = 0; i < n; i++) {
		struct nhis_unit *u = &x->s->units[tg[i]];
		if (u->eliminated || nhis_unshakable(x, u))
			continue;
		u->stopped = 1;
		if (!u->shaken) {
			u->shaken = 1;
			events_add(x->ev, x->phase, "%s is Shaken (%s, no morale check)", u->id,
				nhis_result_names[r]);
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct nhis_unit *u = &x->s->units[tg[i]];
		if (u->eliminated || u->damaged_now || !nhis_unshakable(x, u))
			continue;
		int ldr = takes_leadership(u) ? nhis_leadership_in(x->s, side, hex) : 0;
		if (!nhis_morale_check(x, u, 0, ldr, what))
			unshakable_fails(x, u, flame);
	}
	for (size_t i = 0; i < n; i++)
		x->s->units[tg[i]].damaged_now = 0;
}

enum nhis_result nhis_fire(struct nhis_ctx *x, const size_t *firers, size_t n, int target,
	int charging, const char *label)
{
	struct nhis_state *s = x->s;
	if (n == 0)
		return NHIS_NO_EFFECT;
	int side = s->units[firers[0]].side, enemy = 1 - side;
	int from = s->units[firers[0]].hex;
	char fh[5], th[5];
	nhis_hex_name(from, fh);
	nhis_hex_name(target, th);
	size_t tg[NHIS_MAX_UNITS];
	size_t nt = targets_in(s, enemy, target, tg);
	if (nt == 0) {
		events_add(x->ev, x->phase, "%s %s -> %s: no enemy unit in %s", label, fh, th, th);
		return NHIS_NO_EFFECT;
	}
	struct nhis_firer f[NHIS_MAX_UNITS];
	int flame = 0;
	for (size_t i = 0; i < n; i++) {
		const struct nhis_unit *u = &s->units[firers[i]];
		const struct nhis_values *v = nhis_values_of(u);
		f[i].id = u->id;
		f[i].firepower = v->firepower;
		f[i].range = v->range;
		f[i].distance = nhis_distance(u->hex, target);
		f[i].charging = charging;
		f[i].infantry = nhis_infantry(u);
		if (u->type == NHIS_FLAMETHROWER)
			flame = 1;
	}
	struct nhis_fire_calc fc = { 0 };
	fc.firers = f;
	fc.n_firers = n;
	fc.night_visibility = x->o->night_visibility;
	int marked = 0, tanks = 1;
	for (size_t i = 0; i < nt; i++) {
		const struct nhis_unit *u = &s->units[tg[i]];
		if (u->markers & (NHIS_MARK_MOVE | NHIS_MARK_CHARGE))
			fc.moving_target = 1;
		if (u->markers & (NHIS_MARK_MOVE | NHIS_MARK_FIRE | NHIS_MARK_CHARGE))
			marked = 1;
		if (u->type != NHIS_TANK)
			tanks = 0;
	}
	const struct nhis_hex *th_info = nhis_map_at(&s->map, target);
	fc.brush = th_info && th_info->terrain == NHIS_BRUSH;
	fc.cover = nhis_cover(&s->map, x->o, from, target);
	fc.cover_shift = nhis_shift_terrain(&s->map, target) && !marked;
	fc.tank_target = tanks;
	struct buf why = BUF_INIT;
	nhis_fire_compute(&fc, &why);
	enum nhis_result r = NHIS_NO_EFFECT;
	if (fc.result_column < 0) {
		events_add(x->ev, x->phase, "%s %s -> %s: %s: no effect", label, fh, th,
			buf_str(&why));
		goto done;
	}
	int v[2];
	int roll = dice_roll_many(x->dice, 2, 6, v, "NHiS Fire Attack Table: %s %s -> %s: %s",
		label, fh, th, buf_str(&why));
	r = nhis_fat_lookup(fc.result_column, roll);
	events_add(x->ev, x->phase, "%s %s -> %s: %s; 2d6 %d+%d = %d on column %d: %s%s", label, fh,
		th, buf_str(&why), v[0], v[1], roll, nhis_fat_firepower[fc.result_column],
		nhis_result_names[r], flame ? " (flamethrower)" : "");
	char what[160];
	snprintf(what, sizeof(what), "%s at %s", label, th);
	nhis_apply_result(x, target, enemy, r, flame, what);
done:
	buf_release(&why);
	return r;
}

void nhis_rally_phase(struct nhis_ctx *x)
{
	struct nhis_state *s = x->s;
	/* Leaders rally first, so a leader who rallies lends leadership to the rest. */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < s->n_units; i++) {
			struct nhis_unit *u = &s->units[i];
			if (u->eliminated || !u->shaken || (u->type == NHIS_LEADER) != (pass == 0))
				continue;
			int ldr = x->o->rally == NHIS_RALLY_LEADERSHIP && takes_leadership(u) ?
					  nhis_leadership_in(s, u->side, u->hex) :
					  0;
			int morale = nhis_values_of(u)->morale;
			char hx[5];
			nhis_hex_name(u->hex, hx);
			int roll = (int)dice_roll(x->dice, 6,
				"NHiS Rally Phase 8.2: %s in %s 1d6 <= morale %d + leadership %d",
				u->id, hx, morale, ldr);
			if (roll <= morale + ldr) {
				u->shaken = 0;
				events_add(x->ev, x->phase, "%s rolls %d against %d+%d: rallies",
					u->id, roll, morale, ldr);
			} else
				events_add(x->ev, x->phase,
					"%s rolls %d against %d+%d: stays Shaken", u->id, roll,
					morale, ldr);
		}
}
