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

/* 1 when side has a unit (not eliminated) in hex and the other side none. */
static int holds(const struct nhis_state *s, int side, int hex)
{
	int mine = 0, theirs = 0;
	for (size_t i = 0; i < s->n_units; i++) {
		const struct nhis_unit *u = &s->units[i];
		if (u->eliminated || u->hex != hex)
			continue;
		if (u->side == side)
			mine = 1;
		else
			theirs = 1;
	}
	return mine && !theirs;
}

int nhis_victory(const struct rules_campaign *c, const void *state, const char **winner,
	struct buf *why)
{
	const struct nhis_state *s = state;
	const struct nhis_options *o = c->options;
	int score[2] = { 0, 0 }, held[2] = { 0, 0 }, killed[2] = { 0, 0 };

	if (!o || !o->victory)
		return 0;
	for (int side = 0; side < 2; side++) {
		for (int i = 0; i < o->n_victory_hex; i++)
			held[side] += holds(s, side, o->victory_hex[i]);
		for (size_t i = 0; i < s->n_units; i++)
			killed[side] += s->units[i].side != side && s->units[i].eliminated;
		score[side] = held[side] * o->hex_points + killed[side] * o->unit_points;
	}
	*winner = score[0] == score[1] ? NULL : s->side[score[0] > score[1] ? 0 : 1].player;
	for (int side = 0; side < 2; side++)
		buf_printf(why,
			"%s%s %d (%d of %d objective hexes held, %d enemy unit%s eliminated)",
			side ? ", " : "", s->side[side].player, score[side], held[side],
			o->n_victory_hex, killed[side], killed[side] == 1 ? "" : "s");
	return 1;
}
