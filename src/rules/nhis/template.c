/* template.c — an NHiS side's next order file, pre-filled for his report: an impulse per hex
 * holding his units (their values and status) as commented entries, and his opportunity-fire
 * orders in force, commented, since leaving `standing` out keeps them (rules.h,
 * orders_template). */
#include <string.h>

#include "rules/nhis/nhis.h"
#include "rules/lib/template.h"
#include "core/banned.h"

void nhis_orders_template(const struct rules_campaign *c, const void *state, int turn,
	const char *player, struct buf *out)
{
	const struct nhis_state *s = state;
	int side = nhis_side_of(s, player);

	(void)c;
	(void)turn;
	template_orders_head(out, "impulses", "in the order they go");
	for (size_t i = 0; side >= 0 && i < s->n_units; i++) {
		const struct nhis_unit *u = &s->units[i];
		size_t first = i;
		if (u->side != side || u->eliminated)
			continue;
		/* One entry per hex, at the first of its units in scenario order. */
		for (size_t k = 0; k < i; k++)
			if (s->units[k].side == side && !s->units[k].eliminated &&
				s->units[k].hex == u->hex)
				first = k;
		if (first != i)
			continue;
		buf_printf(out, "#   - activate: \"%04d\"   #", u->hex);
		for (size_t k = i; k < s->n_units; k++) {
			const struct nhis_unit *v = &s->units[k];
			if (v->side != side || v->eliminated || v->hex != u->hex)
				continue;
			const struct nhis_values *x = nhis_values_of(v);
			buf_printf(out, "%s %s (%s%s%s: move %d, fire %d range %d)",
				k == i ? "" : ",", v->id, nhis_utype_names[v->type],
				v->is_reduced ? ", reduced" : "", v->shaken ? ", shaken" : "",
				x->movement, x->firepower, x->range);
		}
		buf_puts(out,
			"\n#     move: [HEX, ...]   # a path of adjacent hexes; mode: move|charge|crawl\n");
		buf_puts(out,
			"#     fire: HEX          # or after a move with mode: charge; units: [ID, ...]\n");
	}
	if (side < 0)
		return;
	if (s->side[side].n_opp == 0) {
		buf_puts(out,
			"# standing: {opportunity: [{hex: HEX, within: N, units: [ID, ...]}]}\n");
		return;
	}
	struct node *st = node_new_map();
	node_map_add(st, "opportunity",
		nhis_opportunity_emit(s, s->side[side].opp, s->side[side].n_opp));
	template_standing(out, "left out, they stay; given, they replace them", st);
}
