/* result.c — how a Land Raid ended (rules.h, result): the sheet scores the raid by the loot
 * the attacker carried off (§24); the bases each side still has on the table beside it. */
#include "rules/land-raid/landraid.h"
#include "core/banned.h"

void landraid_result(const struct rules_campaign *c, const void *state, struct buf *out)
{
	const struct landraid_state *s = state;

	(void)c;
	buf_printf(out,
		"- loot (the raid's score, §24): the attacker carried off **%d** (lost to deviation: %d)\n",
		s->loot_taken, s->loot_lost);
	for (int side = 0; side < LR_SIDES; side++)
		buf_printf(out, "- %s: %d bases on the table, %d of them officers\n",
			landraid_side_names[side], landraid_count_side(s, side, LR_ALL_ROLES),
			landraid_count_side(s, side, (1u << LR_OFFICER) | (1u << LR_COMMANDER)));
}

int landraid_victory(const struct landraid_state *s, const struct landraid_options *o,
	const char **winner, struct buf *why)
{
	if (!o->victory_loot)
		return 0;
	int won = s->loot_taken >= o->victory_loot;
	*winner = landraid_side_names[won ? LR_ATTACKER : LR_DEFENDER];
	buf_printf(why,
		"the attacker carried off %d loot, %s the %d the scenario's victory asks (§24)",
		s->loot_taken, won ? "at least" : "less than", o->victory_loot);
	return 1;
}
