/* template.c — a horse-and-musket events player's next order file, pre-filled for his report:
 * the play-held order when he holds an event, the units for `choose`, and his standing orders
 * in force, commented (rules.h, orders_template). */
#include <string.h>

#include "rules/hm-events/hmevents.h"
#include "rules/lib/template.h"
#include "core/banned.h"

void hm_orders_template(const struct rules_campaign *c, const void *state, int turn,
	const char *player, struct buf *out)
{
	const struct hm_state *s = state;
	int side = hm_side_find(s, player);

	(void)c;
	(void)turn;
	if (side < 0) {
		buf_puts(out, "orders: []\n");
		return;
	}
	const struct hm_side *me = &s->side[side];
	if (me->held) {
		buf_printf(out,
			"orders: []   # you hold %s (event %d) since turn %d: to play it "
			"now, replace [] with the entry below, uncommented\n",
			hm_events[me->held].title, me->held, me->held_since);
		buf_puts(out, "#   - play-held: true\n");
	} else {
		buf_puts(out, "orders: []   # you hold no event: nothing to order this turn\n");
	}
	for (int k = 0; k < 2; k++) {
		int sd = k == 0 ? side : 1 - side;
		size_t n = 0;
		buf_puts(out, k == 0 ? "# units for `choose`, yours:" : "# the enemy's:");
		for (size_t i = 0; i < s->n_units; i++) {
			const struct hm_unit *u = &s->units[i];
			if (u->side == sd && !u->broken)
				buf_printf(out, "%s %s (%s, DISR %d of %d)", n++ ? "," : "", u->id,
					hm_type_names[u->type], u->disr, u->break_at);
		}
		buf_puts(out, n ? "\n" : " none\n");
	}
	/* Commented: left out they stay, and a unit they name may have left the model since. */
	template_standing(out, "left out, they stay; given, they replace them",
		hm_standing_emit(&me->standing));
}
