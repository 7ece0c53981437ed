/* template.c — a Warmaster side's next order file, pre-filled for his report: each character
 * (where it stands, its command and range) with commented orders for the side's units, each
 * unit where it stands, and the standing choices in force (rules.h, orders_template).
 * Distances in mm, as the table is measured. */
#include <string.h>

#include "rules/warmaster/warmaster.h"
#include "rules/lib/template.h"
#include "core/banned.h"

void wm_orders_template(const struct rules_campaign *c, const void *state, int turn,
	const char *player, struct buf *out)
{
	const struct wm_state *s = state;
	int side = wm_side_of(s, player);

	(void)c;
	(void)turn;
	template_orders_head(out, "entries", "in the order they go (positions [x, y] in mm)");
	if (side < 0)
		return;
	for (size_t i = 0; i < s->n_chars; i++) {
		const struct wm_character *ch = &s->chars[i];
		if (ch->side != side || ch->slain)
			continue;
		buf_printf(out, "#   - character: %s   # %s, command %d, at [%d, %d]", ch->id,
			wm_role_names[ch->role], ch->command, (int)ch->at.x, (int)ch->at.y);
		if (ch->range)
			buf_printf(out, ", orders within %d mm", ch->range);
		if (ch->with)
			buf_printf(out, ", with %s", s->units[ch->with - 1].id);
		buf_puts(out, "\n#     orders:   # tried in sequence, each a command roll\n");
		buf_puts(out,
			"#       - {unit: UNIT, move: [[x, y]]}   # or brigade: ID; charge: ENEMY;"
			" formation: line|column|irregular\n");
		buf_printf(out,
			"#     move: [%d, %d]   # where it goes after its orders (or join: UNIT)\n",
			(int)ch->at.x, (int)ch->at.y);
	}
	buf_puts(out, "#   - {shoot: UNIT, at: TARGET}   # Shooting phase");
	int wizard = 0;
	for (size_t i = 0; i < s->n_chars; i++)
		wizard |= s->chars[i].side == side && !s->chars[i].slain &&
			  s->chars[i].role == WM_WIZARD;
	buf_puts(out, wizard ? "; {cast: SPELL, by: WIZARD, at: UNIT}\n" : "\n");
	buf_puts(out, "# your units (front edge's centre, mm):");
	size_t n = 0;
	for (size_t i = 0; i < s->n_units; i++) {
		const struct wm_unit *u = &s->units[i];
		if (u->side != side || u->destroyed)
			continue;
		buf_printf(out, "%s\n#   %s (%s, %d of %d stands, %s) at [%d, %d]", n++ ? "," : "",
			u->id, u->name, u->stands, u->max_stands, wm_formation_names[u->formation],
			(int)((u->fl.x + u->fr.x) / 2), (int)((u->fl.y + u->fr.y) / 2));
		if (u->brigade)
			buf_printf(out, ", brigade %s", u->brigade);
		if (u->shoot)
			buf_printf(out, ", shoots %d mm", u->range);
	}
	buf_puts(out, n ? "\n" : " none\n");
	buf_printf(out,
		"# standing choices in force (left out, they stay): standing: {win: %s, draw: %s}"
		"; also initiative: {UNIT: charge|evade}\n",
		wm_after_names[s->side[side].win],
		s->side[side].draw_stand ? "stand" : "fall-back");
}
