/* plunder.c — Land Raid §24 Plunder: blocked by 5 or more defenders in the 4 facing squares;
 * otherwise one D6 per base, the plunder marker removed, each 5–6 a roll on the plunder
 * loop (campaign data), then the deviation roll that keeps all the loot or loses it all. */
#include <stdlib.h>
#include <string.h>

#include "rules/land-raid/landraid.h"
#include "core/banned.h"

static const char phase[] = "actions";

#define LR_SQUARE_MAX 64

/* §24 "No plundering if 5 or more defenders in 4 facing squares (includes officers)", and
 * only the attacker plunders a square with a plunder marker. Returns the defenders counted,
 * or -1 with a void event. */
static int plunder_allowed(struct landraid_ctx *c, const struct landraid_base *officer,
	int order_index)
{
	struct landraid_state *s = c->s;
	int sq = officer->sq, f[4], nf = landraid_faces(s, sq, f), blockers = 0;
	if (officer->side != LR_ATTACKER) {
		events_void(c->ev, phase, c->player, order_index,
			"%s cannot plunder: only the "
			"attacker plunders (§24)",
			officer->id);
		return -1;
	}
	if (s->plunder[sq] <= 0) {
		events_void(c->ev, phase, c->player, order_index,
			"%s cannot plunder %s: no plunder "
			"marker there (§24)",
			officer->id, s->name[sq]);
		return -1;
	}
	for (int i = 0; i < nf; i++)
		blockers += landraid_count(s, f[i], LR_DEFENDER, LR_ALL_ROLES);
	if (blockers >= 5) {
		events_void(c->ev, phase, c->player, order_index,
			"%s cannot plunder %s: %d defender "
			"bases in the 4 facing squares (§24: no plundering if 5 or more, officers "
			"included)",
			officer->id, s->name[sq], blockers);
		return -1;
	}
	return blockers;
}

/* Adds loot to a tally, saturating at LR_MAX_LOOT so that the state stays readable. */
static void add_loot(int *tally, int loot)
{
	*tally = *tally > LR_MAX_LOOT - loot ? LR_MAX_LOOT : *tally + loot;
}

/* Deviation (NOTES 000 reading 5), from the campaign's `deviation:` data: a D6 each, the
 * defender's +defender, the attacker's +battle-hardened for battle-hardened plunderers; the
 * higher total wins, a tie goes to deviation.tie; if the defender wins, all the loot
 * deviates and is lost ("Deviate all or nothing"), else all of it is carried off. */
static void deviation(struct landraid_ctx *c, const struct landraid_base *officer,
	struct landraid_base **pl, size_t n, int loot)
{
	struct landraid_state *s = c->s;
	const struct landraid_deviation *dv = &s->deviation;
	int hardened = landraid_worst_quality(pl, n) == LR_HARDENED;
	char plus[48] = "";
	if (hardened)
		snprintf(plus, sizeof(plus), " +%d battle-hardened plunderers",
			dv->battle_hardened);
	int a = (int)dice_roll(c->dice, 6, "Land Raid §24 Plunder: deviation, attacker's D6%s",
		plus);
	int d = (int)dice_roll(c->dice, 6, "Land Raid §24 Plunder: deviation, defender's D6 +%d",
		dv->defender);
	int at = a + (hardened ? dv->battle_hardened : 0), dt = d + dv->defender;
	if (dt > at || (dt == at && dv->tie == LR_DEFENDER)) {
		add_loot(&s->loot_lost, loot);
		events_add(c->ev, phase,
			"deviation: attacker %d, defender %d%s: the loot deviates, "
			"all %d lost",
			at, dt, dt == at ? " (a tie goes to the defender)" : "", loot);
	} else {
		add_loot(&s->loot_taken, loot);
		c->loot += loot;
		events_add(c->ev, phase,
			"deviation: attacker %d, defender %d: %s's group carries "
			"off %d loot (%d in all)",
			at, dt, officer->id, loot, s->loot_taken);
	}
}

int landraid_plunder(struct landraid_ctx *c, struct landraid_base *officer,
	const struct landraid_ids *ignore, int order_index)
{
	struct landraid_state *s = c->s;
	struct landraid_base *g[LR_SQUARE_MAX], *pl[LR_SQUARE_MAX];
	int sq = officer->sq, v[LR_SQUARE_MAX];
	size_t ng = landraid_group(c, officer, ignore, g, LR_SQUARE_MAX), n = 0;
	int blockers = plunder_allowed(c, officer, order_index);

	if (blockers < 0)
		return LR_VOID;
	/* §24/§20: a D6 per base, not officers; loot carriers only with the option. */
	for (size_t i = 0; i < ng; i++)
		if (g[i]->role == LR_TROOPS ||
			(g[i]->role == LR_LOOT_CARRIER && c->o->loot_carriers_plunder))
			pl[n++] = g[i];
	if (!n) {
		events_void(c->ev, phase, c->player, order_index,
			"%s cannot plunder %s: no bases "
			"with him to plunder (§24: officers do not)",
			officer->id, s->name[sq]);
		return LR_VOID;
	}
	s->plunder[sq]--;
	landraid_claim(c, officer, pl, n);
	dice_roll_many(c->dice, (int)n, 6, v,
		"Land Raid §24 Plunder: %s's group at %s (%zu "
		"base%s, %d defender%s in the facing squares), each 5-6 consults the plunder loop",
		officer->id, s->name[sq], n, n == 1 ? "" : "s", blockers, blockers == 1 ? "" : "s");
	int finds = 0;
	for (size_t i = 0; i < n; i++)
		finds += v[i] >= 5;
	events_add(c->ev, phase,
		"%s plunders %s: plunder marker removed, %d of %zu dice score "
		"5-6",
		officer->id, s->name[sq], finds, n);
	int loot = 0;
	for (int i = 0; i < finds; i++) {
		int r = (int)dice_roll(c->dice, 6,
			"Land Raid §24 Plunder: plunder loop at %s, find "
			"%d of %d",
			s->name[sq], i + 1, finds);
		loot += s->loop[r - 1].loot;
		events_add(c->ev, phase, "plunder loop %d: %s (%d loot)", r, s->loop[r - 1].text,
			s->loop[r - 1].loot);
	}
	if (loot > 0)
		deviation(c, officer, pl, n, loot);
	return LR_DONE;
}
