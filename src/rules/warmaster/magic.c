/* magic.c — Warmaster magic (Warmaster Revolution, Magic; the sheet has no spells): in the
 * Shooting phase each Wizard casts at most one spell of his army's list (carried as data),
 * rolling a D6 against the spell's casting score (1 always fails, 6 always succeeds); an
 * enemy Runesmith within 50 cm may try once to anti-magic it (4+); a unit is affected by the
 * same spell at most once a turn. The effects are generic kinds the lists name: shooting
 * attacks on one unit, attacks on every unit under a line, a drive back toward the nearest
 * table edge, and an Attacks bonus for a friendly unit in combat. */
#include <stdlib.h>
#include <string.h>

#include "rules/warmaster/warmaster.h"
#include "core/banned.h"

const char *const wm_spell_kind_names[] = { "attacks", "line", "drive-back", "bonus", NULL };

int wm_cast_test(int d6, int need)
{
	return d6 != 1 && (d6 == 6 || d6 >= need);
}

int wm_anti_magic_test(int d6)
{
	return d6 >= WM_ANTI_MAGIC_SCORE;
}

/* The enemy character with anti-magic within 50 cm of caster c (the first listed), or -1. */
static int anti_mage(const struct wm_state *s, const struct wm_character *c)
{
	for (size_t i = 0; i < s->n_chars; i++) {
		const struct wm_character *r = &s->chars[i];
		if (r->side != c->side && r->anti_magic && !r->slain &&
			table_within(r->at, c->at, WM_ANTI_MAGIC_RANGE))
			return (int)i;
	}
	return -1;
}

/* Why the spell cannot be cast at unit t now (NULL: it can). */
static const char *cannot_target(const struct wm_character *c, const struct wm_spell *sp, int spell,
	const struct wm_unit *t)
{
	if (t->destroyed)
		return "the target is destroyed";
	if (t->spelled & (1u << spell))
		return "the target has been affected by this spell this turn";
	if (sp->kind == WM_SPELL_BONUS) {
		if (t->side != c->side)
			return "not a unit of the caster's side";
		if (!t->engaged)
			return "the target is not in combat";
		for (size_t i = 0; i < sp->n_exclude; i++)
			if (strcmp(sp->exclude[i], t->name) == 0)
				return "the spell does not work on this unit";
	} else {
		if (t->side == c->side)
			return "not an enemy unit";
		if (t->engaged)
			return "the target is in combat";
	}
	if (wm_char_dist(c, t) > sp->range)
		return "out of range";
	return NULL;
}

/* Shooting attacks of a spell on t; driven back later (drive) unless in combat, when the hits
 * count for its enemy in the first combat round. */
static void spell_attacks(struct wm_ctx *x, const struct wm_character *c, const struct wm_spell *sp,
	struct wm_unit *t, int drive)
{
	int engaged = t->engaged;
	int hits = wm_attack(x, t, sp->attacks, sp->name);
	if (drive && engaged && !t->destroyed)
		x->s->units[engaged - 1].charge_shot += hits;
	else if (drive && hits) {
		t->shot_hits += hits;
		if (!t->shot_by) {
			t->shot_by = -1;
			t->shot_from = c->at;
		}
	}
}

/* A line of range mm from the caster toward at, stopped where it enters dense terrain; every
 * unit under it (friend or foe, not already affected) takes the spell's attacks. */
static void spell_line(struct wm_ctx *x, const struct wm_character *c, const struct wm_spell *sp,
	int spell, struct table_pt at)
{
	struct wm_state *s = x->s;
	struct table_pt d = { at.x - c->at.x, at.y - c->at.y }, v = wm_scale(d, sp->range);
	struct table_pt b = { c->at.x + v.x, c->at.y + v.y };
	struct table_frac stop = { 1, 1 };
	for (size_t i = 0; i < s->n_areas; i++) {
		struct table_poly p = { s->areas[i].v, s->areas[i].n };
		struct table_span *spn = NULL;
		size_t n = s->areas[i].kind == WM_DENSE ? table_seg_spans(&spn, &p, c->at, b) : 0;
		for (size_t k = 0; k < n; k++)
			if (spn[k].where != TABLE_OUTSIDE && table_frac_cmp(spn[k].from, stop) < 0)
				stop = spn[k].from;
		free(spn);
	}
	b = table_frac_point(c->at, b, stop);
	events_add(x->ev, x->phase, "the line runs from [%d, %d] to [%d, %d]", c->at.x, c->at.y,
		b.x, b.y);
	for (size_t i = 0; i < s->n_units; i++) {
		struct wm_unit *t = &s->units[i];
		if (t->destroyed || (t->spelled & (1u << spell)))
			continue;
		struct table_rect r = wm_rect(t);
		struct table_poly p = table_rect_poly(&r);
		struct table_span *spn = NULL;
		size_t n = table_seg_spans(&spn, &p, c->at, b);
		int under = 0;
		for (size_t k = 0; k < n; k++)
			under |= spn[k].where != TABLE_OUTSIDE;
		free(spn);
		if (under) {
			t->spelled |= 1u << spell;
			spell_attacks(x, c, sp, t, 1);
		}
	}
}

/* D6 x step cm toward the nearest table edge, as a drive back that cannot rout: a 6
 * confuses; a unit pushed off the table is lost. */
static void spell_drive_back(struct wm_ctx *x, const struct wm_spell *sp, struct wm_unit *t)
{
	int d6 = (int)dice_roll(x->dice, 6, "Warmaster magic: %s drives %s back D6 x %d mm",
		sp->name, t->id, sp->step);
	struct table_pt dir = wm_to_edge(x->s, wm_centre(t));
	wm_translate(t, wm_scale(dir, (int64_t)d6 * sp->step));
	if (d6 == 6)
		t->confused = 1;
	events_add(x->ev, x->phase, "%s is driven back %d mm by %s%s", t->id, d6 * sp->step,
		sp->name, d6 == 6 ? " and confused (a 6)" : "");
	wm_off_table(x, t);
}

/* The spell's effect once cast and not dispelled. */
static void spell_effect(struct wm_ctx *x, const struct wm_character *c, const struct wm_spell *sp,
	int spell, struct wm_unit *t, struct table_pt at)
{
	if (sp->kind == WM_SPELL_LINE) {
		spell_line(x, c, sp, spell, at);
		return;
	}
	t->spelled |= 1u << spell;
	if (sp->kind == WM_SPELL_ATTACKS)
		spell_attacks(x, c, sp, t, 0);
	else if (sp->kind == WM_SPELL_DRIVE_BACK)
		spell_drive_back(x, sp, t);
	else {
		t->spell_bonus += sp->bonus;
		events_add(x->ev, x->phase, "%s: +%d attack per stand for %s this Combat phase",
			sp->name, sp->bonus, t->id);
	}
}

void wm_cast(struct wm_ctx *x, const struct wm_entry *e)
{
	struct wm_state *s = x->s;
	struct wm_character *c = &s->chars[e->caster];
	const struct wm_army *army = &s->armies[s->side[c->side].army];
	const struct wm_spell *sp = &army->spells[e->spell];
	struct wm_unit *t = e->target >= 0 ? &s->units[e->target] : NULL;
	const char *player = s->side[x->active].player;
	const char *why = c->slain ? "the caster has been slain" :
			  t        ? cannot_target(c, sp, e->spell, t) :
			  e->at.x == c->at.x && e->at.y == c->at.y ? "the line has no direction" :
								     NULL;
	if (why) {
		events_void(x->ev, x->phase, player, e->index, "%s cannot cast %s%s%s: %s", c->id,
			sp->name, t ? " at " : "", t ? t->id : "", why);
		return;
	}
	int d6 = (int)dice_roll(x->dice, 6, "Warmaster magic: %s casts %s%s%s, %d+", c->id,
		sp->name, t ? " at " : "", t ? t->id : "", sp->cast);
	int ok = wm_cast_test(d6, sp->cast);
	events_add(x->ev, x->phase, "%s casts %s: %d against %d+: %s", c->id, sp->name, d6,
		sp->cast, ok ? "it works" : "it fails");
	if (!ok)
		return;
	int r = anti_mage(s, c);
	if (r >= 0) {
		int a = (int)dice_roll(x->dice, 6,
			"Warmaster magic: %s tries to anti-magic %s, %d+", s->chars[r].id, sp->name,
			WM_ANTI_MAGIC_SCORE);
		int dispelled = wm_anti_magic_test(a);
		events_add(x->ev, x->phase, "%s anti-magic %d: %s", s->chars[r].id, a,
			dispelled ? "the spell is dispelled" : "the spell works");
		if (dispelled)
			return;
	}
	spell_effect(x, c, sp, e->spell, t, e->at);
}
