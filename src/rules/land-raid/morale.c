/* morale.c — Land Raid §19 Morale (with §13's commander re-roll): every square with
 * casualty markers tests at the start of the turn, one D6 per marker (max 3), and each 5–6
 * removes a base; with no base left the opponent may take one from anywhere. */
#include <stdlib.h>
#include <string.h>

#include "rules/land-raid/landraid.h"
#include "core/banned.h"

static const char phase[] = "morale";

/* §19: "4, 5, 6 = base from anywhere (not officer or plunder carrier)": the opponent's
 * standing order first, else his best pick: the best quality, then by id. */
static struct landraid_base *opponent_pick(struct landraid_state *s, int side)
{
	const struct landraid_ids *pref = &s->standing[1 - side].morale_removal;
	struct landraid_base *best = NULL;
	for (size_t i = 0; i < pref->n; i++) {
		struct landraid_base *b = landraid_base_find(s, pref->v[i]);
		if (b && b->side == side && b->role == LR_TROOPS)
			return b;
	}
	for (size_t i = 0; i < s->n_bases; i++) {
		struct landraid_base *b = s->bases[i];
		if (b->sq < 0 || b->side != side || b->role != LR_TROOPS)
			continue;
		if (!best || b->quality > best->quality ||
			(b->quality == best->quality && strcmp(b->id, best->id) < 0))
			best = b;
	}
	return best;
}

static int count_fails(const int *v, int n)
{
	int fails = 0;
	for (int i = 0; i < n; i++)
		fails += v[i] >= 5;
	return fails;
}

/* §13 "His square may re-roll morale": by default only the failed dice, which is what a
 * player choosing the re-roll would take (option commander-morale-reroll). Returns the fails
 * after the re-roll. */
static int commander_reroll(struct landraid_ctx *c, int sq, int side, int *v, int dice, int fails)
{
	const char *name = landraid_side_names[side];
	int idx[8], k = 0, r[8];
	for (int i = 0; i < dice; i++)
		if (c->o->morale_reroll_all || v[i] >= 5)
			idx[k++] = i;
	dice_roll_many(c->dice, k, 6, r,
		"Land Raid §19 Morale / §13 Commander: %s at %s "
		"re-rolls %d %s, each 5-6 fails",
		name, c->s->name[sq], k,
		c->o->morale_reroll_all ? "morale dice" : "failed morale dice");
	for (int i = 0; i < k; i++)
		v[idx[i]] = r[i];
	int after = count_fails(v, dice);
	events_add(c->ev, phase, "%s at %s: the commander's re-roll turns %d fail%s into %d", name,
		c->s->name[sq], fails, fails == 1 ? "" : "s", after);
	return after;
}

/* One failed morale die (§19 "Each 5, 6 = fail = remove 1 base"): the worst base of side in
 * sq flees, officers last; with none left, the opponent rolls D6 and on 4-6 removes a base from anywhere.
 * Returns 1 if a base was removed. */
static int lose_base(struct landraid_ctx *c, int sq, int side)
{
	struct landraid_state *s = c->s;
	const char *name = landraid_side_names[side], *foe = landraid_side_names[1 - side];
	struct landraid_base *in[64];
	size_t nb = landraid_bases_in(s, sq, side, LR_NON_OFFICERS, in, 64);
	/* §19 excludes officers only from the opponent's removal "from anywhere": an officer
	 * left alone in the square flees too (option morale-officers: never keeps him). */
	if (!nb && c->o->morale_officers == LR_MORALE_OFFICERS_FLEE)
		nb = landraid_bases_in(s, sq, side, LR_OFFICERS, in, 64);
	if (nb) {
		events_add(c->ev, phase, "%s at %s: %s (%s %s) flees and is removed", name,
			s->name[sq], in[0]->id, landraid_quality_names[in[0]->quality],
			landraid_role_names[in[0]->role]);
		landraid_base_remove(s, in[0]);
		c->lost[side]++;
		return 1;
	}
	int r = (int)dice_roll(c->dice, 6,
		"Land Raid §19 Morale: no %s base left in %s, the "
		"%s rolls D6, 4-6 removes a %s base from anywhere",
		name, s->name[sq], foe, name);
	struct landraid_base *b = r >= 4 ? opponent_pick(s, side) : NULL;
	if (r < 4) {
		events_add(c->ev, phase, "%s at %s: no base left; the %s rolls %d: nothing more",
			name, s->name[sq], foe, r);
		return 0;
	}
	if (!b) {
		events_add(c->ev, phase,
			"%s at %s: no base left; the %s rolls %d but the %s has "
			"no troop base to lose",
			name, s->name[sq], foe, r, name);
		return 0;
	}
	events_add(c->ev, phase, "%s at %s: no base left; the %s rolls %d and removes %s from %s",
		name, s->name[sq], foe, r, b->id, s->name[b->sq]);
	landraid_base_remove(s, b);
	c->lost[side]++;
	return 1;
}

int landraid_morale_square(struct landraid_ctx *c, int sq, int side)
{
	struct landraid_state *s = c->s;
	const char *name = landraid_side_names[side];
	int markers = s->cas[side][sq];
	int n = markers > 3 ? 3 : markers;
	int officers = landraid_count(s, sq, side, LR_OFFICERS);
	int commander = landraid_count(s, sq, side, 1u << LR_COMMANDER);
	int hardened = 0, removed = 0;
	int v[8];
	struct landraid_base *in[64];

	size_t nb = landraid_bases_in(s, sq, side, LR_NON_OFFICERS, in, 64);
	for (size_t i = 0; i < nb; i++)
		hardened |= in[i]->quality == LR_HARDENED;
	/* NOTES 000 reading 3: +1 die on their own (no officer), -1 die with an officer or
	 * battle-hardened bases; the -1 applies once. */
	int dice = n + (officers ? 0 : 1) - (officers || hardened ? 1 : 0);
	char mods[96];
	snprintf(mods, sizeof(mods), "%s%s", officers ? ", -1 officer" : ", +1 on their own",
		!officers && hardened ? ", -1 battle hardened" : "");
	s->cas[side][sq] = 0;
	if (dice <= 0) {
		events_add(c->ev, phase,
			"%s at %s: %d casualty marker%s%s: no morale dice; markers "
			"removed",
			name, s->name[sq], markers, markers == 1 ? "" : "s", mods);
		return 0;
	}
	dice_roll_many(c->dice, dice, 6, v,
		"Land Raid §19 Morale: %s at %s, %d casualty "
		"marker%s (max 3)%s: %dD6, each 5-6 fails",
		name, s->name[sq], markers, markers == 1 ? "" : "s", mods, dice);
	int fails = count_fails(v, dice);
	if (fails && commander)
		fails = commander_reroll(c, sq, side, v, dice, fails);
	events_add(c->ev, phase, "%s at %s: %d casualty marker%s%s, %d morale %s: %d fail%s", name,
		s->name[sq], markers, markers == 1 ? "" : "s", mods, dice,
		dice == 1 ? "die" : "dice", fails, fails == 1 ? "" : "s");
	for (int f = 0; f < fails; f++)
		removed += lose_base(c, sq, side);
	return removed;
}

void landraid_morale(struct landraid_ctx *c)
{
	int tested = 0;
	for (int sq = 0; sq < c->s->n_squares; sq++)
		for (int side = 0; side < LR_SIDES; side++)
			if (c->s->cas[side][sq] > 0) {
				landraid_morale_square(c, sq, side);
				tested++;
			}
	if (!tested)
		events_add(c->ev, phase, "no casualty markers on the table: no morale tests");
}
