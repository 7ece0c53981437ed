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

int rv_victory(const struct rules_campaign *c, const void *state, const char **winner,
	struct buf *why)
{
	const struct rv_state *s = state;
	const struct rv_options *o = c->options;
	int held[RV_MAX_SIDES] = { 0 }, best = -1, tie = 0;

	if (!o || !o->raider[0])
		return 0;
	int raider = rv_side_of(c, o->raider);
	if (raider < 0)
		return 0; /* refused at init (rv_state_parse) */
	for (size_t i = 0; i < s->n_animal; i++)
		if (!s->animal[i].gone && s->animal[i].kind != RV_HORSE &&
			s->animal[i].owner >= 0 && s->animal[i].owner < RV_MAX_SIDES)
			held[s->animal[i].owner]++;
	if (held[raider] >= o->victory_animals) {
		*winner = c->players[raider];
		buf_printf(why,
			"%s holds %d head of cattle and sheep, at least the %d the scenario's victory asks",
			c->players[raider], held[raider], o->victory_animals);
		return 1;
	}
	for (int side = 0; side < s->n_sides && (size_t)side < c->n_players; side++) {
		if (side == raider)
			continue;
		if (best < 0 || held[side] > held[best])
			best = side, tie = 0;
		else if (held[side] == held[best])
			tie = 1;
	}
	*winner = best >= 0 && !tie ? c->players[best] : NULL;
	buf_printf(why,
		"%s holds %d head of cattle and sheep, less than the %d the scenario's victory asks",
		c->players[raider], held[raider], o->victory_animals);
	if (best >= 0 && tie)
		buf_printf(why, "; the other sides tie with %d each at most", held[best]);
	else if (best >= 0)
		buf_printf(why, "; %s holds %d, the most of the other sides", c->players[best],
			held[best]);
	return 1;
}
