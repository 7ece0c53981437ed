/* template.c — a Land Raid side's next order file, pre-filled for his report: his officers
 * with their squares, groups and actions as commented entries, and his standing orders in
 * force, commented (rules.h, orders_template). */
#include <string.h>

#include "rules/land-raid/landraid.h"
#include "rules/lib/template.h"
#include "core/banned.h"

void landraid_orders_template(const struct rules_campaign *c, const void *state, int turn,
	const char *player, struct buf *out)
{
	const struct landraid_state *s = state;
	int side = -1;

	(void)c;
	(void)turn;
	for (int i = 0; i < LR_SIDES; i++)
		if (strcmp(player, landraid_side_names[i]) == 0)
			side = i;
	template_orders_head(out, "entries", "in the order they act");
	for (size_t i = 0; side >= 0 && i < s->n_bases; i++) {
		const struct landraid_base *o = s->bases[i];
		if (o->side != side || o->sq < 0 || !landraid_is_officer(o))
			continue;
		/* §17: 1 action, the commander 2, then a D6 of 3-6 for each further one, 3 at most. */
		buf_printf(out, "#   - officer: %s   # %s in %s, %s; with him:", o->id,
			o->role == LR_COMMANDER ? "commander" : "officer", s->name[o->sq],
			landraid_quality_names[o->quality]);
		size_t n = 0;
		for (size_t k = 0; k < s->n_bases; k++) {
			const struct landraid_base *b = s->bases[k];
			if (b->side == side && b->sq == o->sq && !landraid_is_officer(b))
				buf_printf(out, "%s %s", n++ ? "," : "", b->id);
		}
		buf_puts(out, n ? "\n" : " nobody\n");
		buf_printf(out,
			"#     actions:   # %s, then D6 3-6 for each further one (3 at most):\n",
			o->role == LR_COMMANDER ? "2 actions" : "1 action");
		buf_printf(out, "#       - move: SQUARE   # face-touching %s; drag: [BASE, ...]\n",
			s->name[o->sq]);
		buf_puts(out,
			"#       - shoot: SQUARE  # or `- shoot`, or `- gather: [BASE, ...]`\n");
		buf_puts(out, side == LR_ATTACKER ?
				      "#       - fight: SQUARE  # last action; or `- plunder`\n" :
				      "#       - fight: SQUARE  # last action\n");
	}
	if (side < 0)
		return;
	/* Commented: left out they stay, and a base they name may have left the table since,
	 * which a file may not name. */
	template_standing(out, "left out, they stay; a key given replaces its value",
		landraid_standing_emit(s, &s->standing[side]));
}
