/* tables.c — the Warmaster sheet's tables as data and pure functions of their dice: order
 * penalties and the order test, to-hit by position, drive-back dice, Blunders, Steam Tank
 * Blunders (and WMR's Malfunction chart), Flame Cannon Attacks, Death Rocket Attack, Damage To
 * Fortresses & Buildings & Ships, Boiling Oil, and the combat modifiers per stand. */
#include <string.h>

#include "rules/warmaster/warmaster.h"
#include "core/banned.h"

void wm_order_penalty(const struct wm_state *s, const struct wm_character *c,
	const struct wm_unit *u, struct wm_penalty *out)
{
	memset(out, 0, sizeof(*out));
	out->distance = (int)(wm_char_dist(c, u) / WM_ORDER_STEP);
	out->successive = u->ordered;
	out->enemy = wm_enemy_near(s, u);
	out->dense = wm_in_dense(s, u);
	out->casualties = u->max_stands - u->stands;
	out->standing = u->penalty;
	out->total = out->distance + out->successive + out->enemy + out->dense + out->casualties +
		     out->standing;
}

int wm_order_test(int roll, int command, int penalty, int *blunder)
{
	*blunder = roll == 12;
	return roll != 12 && roll <= command - penalty;
}

int wm_to_hit(enum wm_position p)
{
	return p == WM_POS_FORTIFIED ? 6 : p == WM_POS_DEFENDED ? 5 : 4;
}

int wm_drive_dice(int hits, enum wm_position p)
{
	int n = hits - (p == WM_POS_FORTIFIED ? 2 : p == WM_POS_DEFENDED ? 1 : 0);
	return n > 0 ? n : 0;
}

enum wm_blunder wm_blunder(int d6, const struct wm_options *o)
{
	if (d6 == 1)
		return WM_BL_PENALTY;
	if (d6 <= 3)
		return WM_BL_HALT_OR_BACK;
	if (d6 <= 5)
		return o->blunder45_no_move ? WM_BL_NO_MOVE : WM_BL_HALF_PACE;
	return WM_BL_RUSH;
}

enum wm_steam wm_steam_tank(int d6, const struct wm_options *o)
{
	static const enum wm_steam wmr[7] = { WM_ST_UNAFFECTED, WM_ST_DESTROYED, WM_ST_BROKEN,
		WM_ST_STUCK, WM_ST_SLAIN, WM_ST_HALT, WM_ST_OVERLOAD };
	if (o->steam_tank_wmr)
		return wmr[d6];
	if (d6 == 1)
		return WM_ST_IMMOBILE;
	if (d6 <= 3)
		return WM_ST_NO_SHOOT;
	return WM_ST_UNAFFECTED; /* 4-5 as printed; 6 missing: unaffected (NOTES §003) */
}

/* Flame Cannon Attacks (D6), exactly as printed on the sheet. */
const struct wm_flame wm_flame_table[7] = {
	[1] = { 0, 0, 1, 0, 0 },
	[2] = { 4, 2, 1, 0, 0 },
	[3] = { 3, 0, 0, 1, 0 },
	[4] = { 4, 0, 0, 0, 0 },
	[5] = { 0, 0, 0, 0, 1 },
	[6] = { 12, 1, 0, 0, 0 },
};

/* WMR Flame Cannon Misfire Chart (a double on its 2D6): 1-1 destroyed, no attacks; 2-2 2D6+4
 * attacks and destroyed; 3-3 six attacks, 1D6 from now on; 4-4 does not shoot; 5-5 ten
 * attacks; 6-6 D6+12 attacks. */
const struct wm_misfire wm_flame_misfire[7] = {
	[1] = { 0, 0, 1, 0 },
	[2] = { 4, 2, 1, 0 },
	[3] = { 6, 0, 0, 1 },
	[4] = { 0, 0, 0, 0 },
	[5] = { 10, 0, 0, 0 },
	[6] = { 12, 1, 0, 0 },
};

/* Death Rocket Attack (D6); the second "5" read as 6 (NOTES §003). */
const struct wm_rocket wm_rocket_table[7] = {
	[1] = { 1, 0, 0, 0, 0 },
	[2] = { 0, 2, 1, 0, 0 },
	[3] = { 0, 0, 0, 1, 1 },
	[4] = { 0, 0, 0, 1, 0 },
	[5] = { 0, 0, 0, 1, 0 },
	[6] = { 0, 1, 0, 0, 0 },
};

int wm_damage_to_hit(int fortress_or_ship)
{
	return fortress_or_ship ? 6 : 4;
}

int wm_damage_effect(int score)
{
	return score >= 7 ? 2 : score >= 3 ? 1 : 0;
}

int wm_boiling_oil(int d6, int d3)
{
	return d6 <= 2 ? 0 : d6 <= 4 ? 1 : d3;
}

int wm_combat_mod(const struct wm_cmods *m)
{
	return m->charging_open + m->monster_charge + m->pursuit + m->pursuit_cm / 3 -
	       m->terrified - m->flank - m->confused + m->slayer;
}
