/* result.c — how a Warmaster game ended (rules.h, result): each side's casualties as the sheet
 * counts them, stands lost of those it started with, units destroyed, characters slain (the
 * scenario names no objectives; umpire scores no victory points). */
#include "rules/warmaster/warmaster.h"
#include "core/banned.h"

void wm_result(const struct rules_campaign *c, const void *state, struct buf *out)
{
	const struct wm_state *s = state;

	(void)c;
	for (size_t side = 0; side < s->n_sides; side++) {
		int stands = 0, lost = 0, units = 0, destroyed = 0, chars = 0, slain = 0;
		for (size_t i = 0; i < s->n_units; i++) {
			const struct wm_unit *u = &s->units[i];
			if ((size_t)u->side != side)
				continue;
			units++;
			destroyed += u->destroyed;
			stands += u->max_stands;
			lost += u->destroyed ? u->max_stands : u->max_stands - u->stands;
		}
		for (size_t i = 0; i < s->n_chars; i++)
			if ((size_t)s->chars[i].side == side) {
				chars++;
				slain += s->chars[i].slain;
			}
		buf_printf(out,
			"- %s: lost %d of %d stands; %d of %d units destroyed; %d of %d characters slain\n",
			s->side[side].player, lost, stands, destroyed, units, slain, chars);
	}
}

int wm_victory(const struct rules_campaign *c, const void *state, const char **winner,
	struct buf *why)
{
	const struct wm_state *s = state;
	const struct wm_options *o = c->options;
	int unbroken = -1, n_unbroken = 0;

	if (!o || !o->break_point)
		return 0;
	for (size_t side = 0; side < s->n_sides; side++) {
		int units = 0, destroyed = 0, general = 0;
		for (size_t i = 0; i < s->n_units; i++)
			if ((size_t)s->units[i].side == side) {
				units++;
				destroyed += s->units[i].destroyed;
			}
		for (size_t i = 0; i < s->n_chars; i++)
			general |= (size_t)s->chars[i].side == side && s->chars[i].slain &&
				   s->chars[i].role == WM_GENERAL;
		int broken = general || destroyed >= (units + 1) / 2;
		buf_printf(why, "%s%s %s (%d of %d units lost, break point %d%s)", side ? "; " : "",
			s->side[side].player, broken ? "broken" : "unbroken", destroyed, units,
			(units + 1) / 2, general ? ", its General slain" : "");
		if (!broken) {
			unbroken = (int)side;
			n_unbroken++;
		}
	}
	*winner = n_unbroken == 1 ? s->side[unbroken].player : NULL;
	return 1;
}
