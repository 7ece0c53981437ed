/* template.c — a Border Reivers side's next order file, pre-filled for his report: one
 * commented entry per group he has on the table, with its morale and each figure where it
 * stands, mounted or not, and its weapon loaded or not (rules.h, orders_template). Positions
 * in tenths of an inch, as the table is measured. */
#include <string.h>

#include "rules/reivers/reivers.h"
#include "rules/lib/template.h"
#include "core/banned.h"

void rv_orders_template(const struct rules_campaign *c, const void *state, int turn,
	const char *player, struct buf *out)
{
	const struct rv_state *s = state;
	int side = rv_side_of(c, player);

	template_orders_head(out, "entries",
		"one per group (positions [x, y] in tenths of an inch)");
	for (size_t g = 0; side >= 0 && g < s->n_group; g++) {
		const struct rv_group *gr = &s->group[g];
		size_t n = 0;
		if (gr->side != side)
			continue;
		for (size_t i = rv_first(s, (int)g); i < s->n_fig; i = rv_next(s, i))
			n += !s->fig[i].dead;
		if (!n)
			continue;
		buf_printf(out, "#   - group: %s   # %s%s%s:", gr->id, rv_morale_names[gr->morale],
			gr->hidden ? ", hidden (hold: true acts after the deck)" : "",
			gr->leader_killed ? ", no leader (appoint one)" : "");
		for (size_t i = rv_first(s, (int)g); i < s->n_fig; i = rv_next(s, i)) {
			const struct rv_figure *f = &s->fig[i];
			if (f->dead)
				continue;
			buf_printf(out, "\n#      %s (%s%s, %s%s%s%s) at [%d, %d]", f->id,
				f->role == RV_FIGURE ? "" : rv_role_names[f->role],
				f->role == RV_FIGURE ? rv_class_names[f->cls] : "",
				f->mounted ? "mounted, " : "", rv_weapon_names[f->weapon],
				f->weapon == RV_HAND || f->weapon == RV_LONGBOW ? "" :
				f->reload                                       ? " to load" :
										  " loaded",
				turn <= f->stunned_until ? ", stunned" : "", (int)f->at.x,
				(int)f->at.y);
		}
		buf_puts(out,
			"\n#     move: [[x, y]]   # or charge: FIGURE, fire: FIGURE, aim: FIGURE, "
			"load: true, herd: [ANIMAL] with path, dismount/remount: true\n");
	}
	buf_puts(out, "# standing: {stun: true}   # your attackers stun rather than wound in melee "
		      "(this file only)\n");
}
