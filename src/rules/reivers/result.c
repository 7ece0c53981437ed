/* result.c — how a Border Reivers fray ended (rules.h, result): the beasts each side holds,
 * which is what a raid is for, then each side's figures standing, wounded or dead. */
#include <string.h>

#include "rules/reivers/reivers.h"
#include "core/banned.h"

void rv_result(const struct rules_campaign *c, const void *state, struct buf *out)
{
	const struct rv_state *s = state;

	for (int side = 0; side < s->n_sides && (size_t)side < c->n_players; side++) {
		int kinds[3] = { 0, 0, 0 }, n = 0, dead = 0, hurt = 0;
		for (size_t i = 0; i < s->n_animal; i++)
			if (s->animal[i].owner == side && !s->animal[i].gone &&
				s->animal[i].kind < 3)
				kinds[s->animal[i].kind]++;
		for (size_t i = 0; i < s->n_fig; i++) {
			if (s->fig[i].side != side)
				continue;
			n++;
			dead += s->fig[i].dead;
			hurt += !s->fig[i].dead && s->fig[i].hits > 0;
		}
		buf_printf(out,
			"- %s holds %d cattle, %d sheep, %d horses; %d of %d figures standing (%d wounded), %d dead\n",
			c->players[side], kinds[0], kinds[1], kinds[2], n - dead, n, hurt, dead);
	}
}
