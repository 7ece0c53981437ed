/* template.c — a Border Reivers side's next order file, pre-filled for his report: one
 * commented entry per group he has on the table, with its morale and each figure where it
 * stands, mounted or not, and its weapon loaded or not (rules.h, orders_template); a side of
 * more than RV_TEMPLATE_FULL groups, a line a group. Positions in tenths of an inch. */
#include <string.h>

#include "rules/reivers/reivers.h"
#include "rules/lib/template.h"
#include "core/banned.h"

/* A side of more groups than this on the table gets a line a group (compact). */
#define RV_TEMPLATE_FULL 100

/* Figures of group g standing (not dead). */
static size_t standing(const struct rv_state *s, size_t g)
{
	size_t n = 0;
	for (size_t i = rv_first(s, (int)g); i < s->n_fig; i = rv_next(s, i))
		n += !s->fig[i].dead;
	return n;
}

/* A big side's template (issue 38: 800 groups were 170 KB a report, each figure's place
 * repeated from the Situation): a line a group, "- {group: ID, move: [[x, y]]}", with a comment
 * only for what is not a steady group with its leader in view. */
static void compact(const struct rv_state *s, int side, size_t groups, struct buf *out)
{
	template_orders_head(out, "entries", "a line per group");
	buf_printf(out,
		"#   your %zu groups, a line each (where each figure stands and its state: the "
		"report's Situation); instead of move: [[x, y]] (positions in tenths of an inch), "
		"charge: FIGURE, fire: FIGURE, aim: FIGURE, load: true, herd: [ANIMAL] with path, "
		"dismount/remount: true\n",
		groups);
	for (size_t g = 0; g < s->n_group; g++) {
		const struct rv_group *gr = &s->group[g];
		if (gr->side != side || !standing(s, g))
			continue;
		buf_puts(out, "#   - {group: ");
		buf_puts(out, gr->id);
		buf_puts(out, ", move: [[x, y]]}");
		if (gr->morale != RV_STEADY || gr->hidden || gr->leader_killed)
			buf_printf(out, "   # %s%s%s", rv_morale_names[gr->morale],
				gr->hidden ? ", hidden (hold: true acts after the deck)" : "",
				gr->leader_killed ? ", no leader (appoint one)" : "");
		buf_puts(out, "\n");
	}
}

void rv_orders_template(const struct rules_campaign *c, const void *state, int turn,
	const char *player, struct buf *out)
{
	const struct rv_state *s = state;
	int side = rv_side_of(c, player);
	size_t groups = 0;

	for (size_t g = 0; side >= 0 && g < s->n_group; g++)
		groups += s->group[g].side == side && standing(s, g);
	if (groups > RV_TEMPLATE_FULL)
		compact(s, side, groups, out);
	else
		template_orders_head(out, "entries",
			"one per group (positions [x, y] in tenths of an inch)");
	for (size_t g = 0; groups <= RV_TEMPLATE_FULL && g < s->n_group; g++) {
		const struct rv_group *gr = &s->group[g];
		if (gr->side != side || !standing(s, g))
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
