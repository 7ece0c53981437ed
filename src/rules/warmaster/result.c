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
