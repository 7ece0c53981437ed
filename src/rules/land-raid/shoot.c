/* shoot.c — Land Raid §22 Shooting (and §20 Shoot, §6's quality rules): the target
 * priority, hits on 5–6 (6 for response shooting), the one re-roll of misses, saves of 4+
 * made better by buildings and officers, and response shooting by the side not moving. */
#include <stdlib.h>
#include <string.h>

#include "rules/land-raid/landraid.h"
#include "core/banned.h"

static const char phase[] = "actions";

#define LR_SQUARE_MAX 64

/* 1 face-touching, 2 corner-touching, 3 within 3 squares, 0 out of range (§22 target
 * priorities, geometry of NOTES 000). */
static int category(const struct landraid_state *s, int from, int to)
{
	if (landraid_face(s, from, to))
		return 1;
	if (landraid_corner(s, from, to))
		return 2;
	if (from != to && landraid_distance(s, from, to) <= 3)
		return 3;
	return 0;
}

int landraid_shoot_target(const struct landraid_state *s, int sq, int side, int *cat)
{
	int best = -1, best_cat = 4;
	for (int t = 0; t < s->n_squares; t++) {
		int k = category(s, sq, t);
		if (k && k < best_cat && landraid_count(s, t, 1 - side, LR_ALL_ROLES) > 0) {
			best = t;
			best_cat = k;
		}
	}
	if (cat)
		*cat = best < 0 ? 0 : best_cat;
	return best;
}

int landraid_shoot_legal(const struct landraid_state *s, int sq, int side, int target)
{
	int cat, best = landraid_shoot_target(s, sq, side, &cat);
	return best >= 0 && landraid_count(s, target, 1 - side, LR_ALL_ROLES) > 0 &&
	       category(s, sq, target) == cat;
}

static const char *const cat_names[] = { "", "face-touching", "corner-touching",
	"within 3 squares" };

/* The save needed by a base hit in sq (§22: 4+; NOTES 000 reading 2 for "better save"). */
static int save_needed(const struct landraid_ctx *c, const struct landraid_base *b, int sq,
	char *why, size_t len)
{
	int building = landraid_is_building(c->s->kind[sq]);
	int officer = landraid_is_officer(b);
	int pips = 0;
	switch (c->o->better_save) {
	case LR_SAVE_PER_CONDITION:
		pips = building + officer;
		break;
	case LR_SAVE_ONCE:
		pips = building || officer;
		break;
	default:
		break;
	}
	snprintf(why, len, "%s%s", pips && building ? ", better: in a building" : "",
		pips && officer ? ", better: an officer" : "");
	return 4 - pips;
}

int landraid_fire(struct landraid_ctx *c, const char *who, struct landraid_base *const *sh,
	size_t n_sh, int group_quality, int from_sq, int target_sq, int response)
{
	struct landraid_state *s = c->s;
	int side = sh[0]->side, foe = 1 - side;
	int need = response ? 6 : 5;
	int in_target = landraid_count(s, target_sq, foe, LR_ALL_ROLES);
	int big = in_target > 5;
	int v[LR_SQUARE_MAX], r[LR_SQUARE_MAX];
	int n = (int)(n_sh > LR_SQUARE_MAX ? LR_SQUARE_MAX : n_sh), nm = 0, hits = 0, kills = 0;

	dice_roll_many(c->dice, n, 6, v,
		"Land Raid §22 Shooting: %s from %s (%d base%s) at %s, "
		"hits on %s",
		who, s->name[from_sq], n, n == 1 ? "" : "s", s->name[target_sq],
		response ? "6 (response)" : "5-6");
	for (int i = 0; i < n; i++) {
		if (v[i] >= need) {
			hits++;
			continue;
		}
		/* §22 "Re-roll if shooter battle hardened or target more than 5 bases", once. */
		int q = group_quality >= 0 ? group_quality : sh[i]->quality;
		if (q == LR_HARDENED || big)
			nm++;
	}
	int first_hits = hits;
	if (nm) {
		dice_roll_many(c->dice, nm, 6, r,
			"Land Raid §22 Shooting: %s re-rolls %d miss%s "
			"(%s), hits on %s",
			who, nm, nm == 1 ? "" : "es",
			big ? "target square holds more than 5 bases" : "battle hardened",
			response ? "6" : "5-6");
		for (int i = 0; i < nm; i++)
			hits += r[i] >= need;
	}
	events_add(c->ev, phase, "%s: %d shooting %s at %s: %d hit%s%s", who, n,
		n == 1 ? "die" : "dice", s->name[target_sq], hits, hits == 1 ? "" : "s",
		nm ? (hits > first_hits ? " (after re-rolling misses)" : " (re-rolls missed)") :
		     "");
	for (int h = 0; h < hits; h++) {
		struct landraid_base *tb[LR_SQUARE_MAX];
		char why[64];
		size_t nt = landraid_bases_in(s, target_sq, foe, LR_ALL_ROLES, tb, LR_SQUARE_MAX);
		if (!nt)
			break;
		int save = save_needed(c, tb[0], target_sq, why, sizeof(why));
		int d = (int)dice_roll(c->dice, 6,
			"Land Raid §22 Shooting: save for %s (%s %s) in "
			"%s, saves on %d-6%s",
			tb[0]->id, landraid_quality_names[tb[0]->quality],
			landraid_role_names[tb[0]->role], s->name[target_sq], save, why);
		if (d >= save) {
			events_add(c->ev, phase, "%s saves (%d, needed %d)", tb[0]->id, d, save);
			continue;
		}
		events_add(c->ev, phase, "%s is killed (save %d, needed %d)%s", tb[0]->id, d, save,
			tb[0]->role == LR_COMMANDER ? ": the commander falls, 3 casualty markers" :
						      "");
		landraid_kill(c, tb[0], target_sq);
		kills++;
	}
	return kills;
}

int landraid_shoot(struct landraid_ctx *c, struct landraid_base *officer,
	const struct landraid_ids *ignore, int target, int order_index)
{
	struct landraid_state *s = c->s;
	struct landraid_base *group[LR_SQUARE_MAX], *sh[LR_SQUARE_MAX];
	size_t ng = landraid_group(c, officer, ignore, group, LR_SQUARE_MAX), n = 0;
	int cat;
	char who[96];

	if (c->shoot_actions >= c->o->max_shoot_actions) {
		events_void(c->ev, phase, c->player, order_index,
			"%s cannot shoot: %d shoot actions "
			"already this turn (§20 Shoot: max %d)",
			officer->id, c->shoot_actions, c->o->max_shoot_actions);
		return LR_VOID;
	}
	int q = landraid_worst_quality(group, ng);
	for (size_t i = 0; i < ng; i++)
		if (group[i]->role == LR_TROOPS)
			sh[n++] = group[i];
	if (n == 0) {
		events_void(c->ev, phase, c->player, order_index,
			"%s cannot shoot: no troop bases "
			"with him in %s (§20: not plunder carriers or officer)",
			officer->id, s->name[officer->sq]);
		return LR_VOID;
	}
	if (q == LR_SCURVY) {
		events_void(c->ev, phase, c->player, order_index,
			"%s cannot shoot: his group in %s "
			"is scurvy, the worst quality present (§6: scurvy are allowed response shooting "
			"only; an officer may ignore a scurvy base)",
			officer->id, s->name[officer->sq]);
		return LR_VOID;
	}
	int best = landraid_shoot_target(s, officer->sq, officer->side, &cat);
	if (best < 0) {
		events_void(c->ev, phase, c->player, order_index,
			"%s cannot shoot from %s: no "
			"opponents within 3 squares (§22)",
			officer->id, s->name[officer->sq]);
		return LR_VOID;
	}
	if (target >= 0 && !landraid_shoot_legal(s, officer->sq, officer->side, target)) {
		if (landraid_count(s, target, 1 - officer->side, LR_ALL_ROLES) == 0)
			events_void(c->ev, phase, c->player, order_index,
				"%s cannot shoot at %s: no "
				"opponents there",
				officer->id, s->name[target]);
		else
			events_void(c->ev, phase, c->player, order_index,
				"%s cannot shoot at %s: "
				"opponents %s (%s) come first (§22 target priorities: face, corner, within 3)",
				officer->id, s->name[target], cat_names[cat], s->name[best]);
		return LR_VOID;
	}
	if (target < 0)
		target = best;
	c->shoot_actions++;
	snprintf(who, sizeof(who), "%s's group (%s)", officer->id, landraid_quality_names[q]);
	landraid_claim(c, officer, sh, n);
	landraid_fire(c, who, sh, n, q, officer->sq, target, 0);
	/* §22 "or if your opponent shoots at you": the survivors answer. */
	if (landraid_count(s, officer->sq, officer->side, LR_ALL_ROLES) > 0)
		landraid_response(c, target, 1 - officer->side, officer->sq, LR_TRIGGER_SHOT);
	return LR_DONE;
}

int landraid_response(struct landraid_ctx *c, int from_sq, int side, int target_sq, int trigger)
{
	struct landraid_state *s = c->s;
	int resp = s->standing[side].response;
	struct landraid_base *sh[LR_SQUARE_MAX];
	char who[96];

	if (resp == LR_RESP_NONE || (trigger == LR_TRIGGER_MOVE && resp == LR_RESP_ON_SHOT) ||
		(trigger == LR_TRIGGER_SHOT && resp == LR_RESP_ON_MOVE))
		return 0;
	/* Every troop base responds, scurvy included (§6: response shooting only). */
	size_t n = landraid_bases_in(s, from_sq, side, 1u << LR_TROOPS, sh, LR_SQUARE_MAX);
	if (!n || landraid_count(s, target_sq, 1 - side, LR_ALL_ROLES) == 0)
		return 0;
	/* With an officer the bases take the worst quality present (§6); without, each its own. */
	int q = landraid_count(s, from_sq, side, LR_OFFICERS) ? landraid_worst_quality(sh, n) : -1;
	snprintf(who, sizeof(who), "%s response (%s)", landraid_side_names[side],
		trigger == LR_TRIGGER_MOVE ? "enemy on their face" : "shot at");
	return landraid_fire(c, who, sh, n, q, from_sq, target_sq, 1);
}
