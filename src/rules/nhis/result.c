/* result.c — how an NHiS game ended (rules.h, result): the scenario gives no victory
 * conditions the rules can score, so each side's units: in good order, reduced, shaken,
 * eliminated, and where the survivors stand. */
#include "rules/nhis/nhis.h"
#include "core/banned.h"

void nhis_result(const struct rules_campaign *c, const void *state, struct buf *out)
{
	const struct nhis_state *s = state;

	(void)c;
	for (int side = 0; side < 2; side++) {
		int n = 0, reduced = 0, shaken = 0, gone = 0;
		for (size_t i = 0; i < s->n_units; i++) {
			const struct nhis_unit *u = &s->units[i];
			if (u->side != side)
				continue;
			n++;
			gone += u->eliminated;
			reduced += !u->eliminated && u->is_reduced;
			shaken += !u->eliminated && u->shaken;
		}
		buf_printf(out,
			"- %s (%s): %d of %d units left (%d reduced, %d shaken), %d eliminated",
			s->side[side].player, s->side[side].nationality, n - gone, n, reduced,
			shaken, gone);
		const char *sep = "; in ";
		for (size_t i = 0; i < s->n_units; i++) {
			const struct nhis_unit *u = &s->units[i];
			if (u->side != side || u->eliminated)
				continue;
			buf_printf(out, "%s%s %04d", sep, u->id, u->hex);
			sep = ", ";
		}
		buf_puts(out, "\n");
	}
}
