/* actions.c — Land Raid §17 step 3 and §20: an officer's actions (1, the commander 2, then a
 * D6 of 3–6 for each further one, at most 3), his group (§6), and the Move and Gather
 * actions. Shooting, fighting and plundering live in their own files. */
#include <stdlib.h>
#include <string.h>

#include "rules/land-raid/landraid.h"
#include "core/banned.h"

static const char phase[] = "actions";

#define LR_SQUARE_MAX 64 /* bases of one side looked at in one square */

size_t landraid_group(const struct landraid_ctx *c, const struct landraid_base *officer,
	const struct landraid_ids *ignore, struct landraid_base **out, size_t max)
{
	struct landraid_base *in[LR_SQUARE_MAX];
	size_t n = landraid_bases_in(c->s, officer->sq, officer->side, LR_NON_OFFICERS, in,
		       LR_SQUARE_MAX),
	       k = 0;
	for (size_t i = 0; i < n && k < max; i++) {
		/* §6 "he may ignore a scurvy base": only scurvy bases can be left out. */
		if (ignore && in[i]->quality == LR_SCURVY && landraid_ids_has(ignore, in[i]->id))
			continue;
		if (!landraid_free_for(in[i], officer))
			continue;
		if (c->group && !landraid_ids_has(c->group, in[i]->id))
			continue;
		out[k++] = in[i];
	}
	return k;
}

int landraid_free_for(const struct landraid_base *b, const struct landraid_base *officer)
{
	return !b->with || b->with == officer;
}

void landraid_claim(struct landraid_ctx *c, const struct landraid_base *officer,
	struct landraid_base *const *v, size_t n)
{
	(void)c;
	for (size_t i = 0; i < n; i++)
		v[i]->with = officer;
}

/* Response shooting at a square the active side just moved into (§22 "Response on your
 * face"): every face-touching square of the other side, in A1 order. */
static void response_on_face(struct landraid_ctx *c, int sq, int side)
{
	int f[4], n = landraid_faces(c->s, sq, f);
	for (int i = 0; i < n; i++) {
		if (landraid_count(c->s, sq, side, LR_ALL_ROLES) == 0)
			return;
		if (landraid_count(c->s, f[i], 1 - side, 1u << LR_TROOPS) > 0)
			landraid_response(c, f[i], 1 - side, sq, LR_TRIGGER_MOVE);
	}
}

int landraid_move(struct landraid_ctx *c, struct landraid_base *officer, int to,
	const struct landraid_ids *drag, int order_index)
{
	struct landraid_state *s = c->s;
	int from = officer->sq, side = officer->side;
	struct buf b = BUF_INIT, skipped = BUF_INIT;
	int dragged = 0;

	if (!landraid_face(s, from, to)) {
		events_void(c->ev, phase, c->player, order_index,
			"%s cannot move from %s to %s: not "
			"face-touching (§20 Move)",
			officer->id, s->name[from], s->name[to]);
		return LR_VOID;
	}
	int foes = landraid_count(s, to, 1 - side, LR_ALL_ROLES);
	if (foes) {
		events_void(c->ev, phase, c->player, order_index,
			"%s cannot move into %s: it holds "
			"%d %s base%s (§20 Move: a square empty of opponents expected)",
			officer->id, s->name[to], foes, landraid_side_names[1 - side],
			foes == 1 ? "" : "s");
		return LR_VOID;
	}
	for (size_t i = 0; drag && i < drag->n; i++) {
		struct landraid_base *x = landraid_base_find(s, drag->v[i]);
		if (!x || x->side != side || landraid_is_officer(x) || x->sq != from ||
			!landraid_free_for(x, officer) || dragged >= LR_MAX_DRAG) {
			buf_printf(&skipped, "%s%s", skipped.len ? ", " : "", drag->v[i]);
			continue;
		}
		x->sq = to;
		x->with = officer;
		buf_printf(&b, "%s%s", dragged ? ", " : "", x->id);
		dragged++;
	}
	officer->sq = to;
	events_add(c->ev, phase, "%s moves from %s to %s%s%s", officer->id, s->name[from],
		s->name[to], dragged ? " dragging " : " alone", buf_str(&b));
	if (skipped.len)
		events_add(c->ev, phase,
			"%s could not drag %s (not with him in %s, or acted with another officer "
			"this turn, §6)",
			officer->id, buf_str(&skipped), s->name[from]);
	buf_release(&b);
	buf_release(&skipped);
	response_on_face(c, to, side);
	return LR_DONE;
}

int landraid_gather(struct landraid_ctx *c, struct landraid_base *officer,
	const struct landraid_ids *picks, int order_index)
{
	struct landraid_state *s = c->s;
	struct landraid_base *cand[4 * LR_SQUARE_MAX], *chosen[3];
	int f[4], nf = landraid_faces(s, officer->sq, f), v[3];
	size_t nc = 0, nchosen = 0;

	if (c->gather_actions >= c->o->max_gather_actions) {
		events_void(c->ev, phase, c->player, order_index,
			"%s cannot gather: %d gather "
			"actions already this turn (§20 Gather: max %d)",
			officer->id, c->gather_actions, c->o->max_gather_actions);
		return LR_VOID;
	}
	for (int i = 0; i < nf; i++) {
		size_t k = landraid_bases_in(s, f[i], officer->side, LR_NON_OFFICERS, cand + nc,
			LR_SQUARE_MAX);
		/* §6: a base that acted with another officer this turn stays where it is. */
		size_t kept = 0;
		for (size_t j = 0; j < k; j++)
			if (landraid_free_for(cand[nc + j], officer))
				cand[nc + kept++] = cand[nc + j];
		nc += kept;
	}
	if (nc == 0) {
		events_void(c->ev, phase, c->player, order_index,
			"%s cannot gather: no %s bases in "
			"the 4 facing squares of %s (§20 Gather)",
			officer->id, landraid_side_names[officer->side], s->name[officer->sq]);
		return LR_VOID;
	}
	c->gather_actions++;
	dice_roll_many(c->dice, 3, 6, v,
		"Land Raid §20 Gather: %s at %s, 3D6, each 5-6 brings "
		"one base from the 4 facing squares, no re-roll",
		officer->id, s->name[officer->sq]);
	int hits = (v[0] >= 5) + (v[1] >= 5) + (v[2] >= 5);
	qsort(cand, nc, sizeof(*cand), landraid_cmp_best); /* gather the best first */
	/* The officer's picks first (in his order), then the best candidates. */
	for (size_t i = 0; picks && i < picks->n && (int)nchosen < hits; i++)
		for (size_t j = 0; j < nc; j++)
			if (cand[j] && strcmp(cand[j]->id, picks->v[i]) == 0) {
				chosen[nchosen++] = cand[j];
				cand[j] = NULL;
				break;
			}
	for (size_t j = 0; j < nc && (int)nchosen < hits; j++)
		if (cand[j]) {
			chosen[nchosen++] = cand[j];
			cand[j] = NULL;
		}
	struct buf b = BUF_INIT;
	for (size_t i = 0; i < nchosen; i++) {
		buf_printf(&b, "%s%s from %s", i ? ", " : "", chosen[i]->id,
			s->name[chosen[i]->sq]);
		chosen[i]->sq = officer->sq;
		chosen[i]->with = officer;
	}
	events_add(c->ev, phase, "%s gathers at %s: %d of 3 dice score 5-6%s%s", officer->id,
		s->name[officer->sq], hits, nchosen ? "; joining him: " : "; nobody comes",
		buf_str(&b));
	buf_release(&b);
	return LR_DONE;
}

static const char *action_label(const struct landraid_state *s, const struct landraid_action *a,
	char *buf, size_t len)
{
	if (a->sq >= 0)
		snprintf(buf, len, "%s %s", landraid_action_names[a->kind], s->name[a->sq]);
	else
		snprintf(buf, len, "%s", landraid_action_names[a->kind]);
	return buf;
}

void landraid_officer_actions(struct landraid_ctx *c, const struct landraid_officer_order *oo,
	int order_index)
{
	struct landraid_state *s = c->s;
	struct landraid_base *officer = landraid_base_find(s, oo->officer);
	char label[32];
	size_t i = 0;

	if (!officer) {
		events_void(c->ev, phase, c->player, order_index,
			"%s is no longer on the table: "
			"none of his %zu action%s carried out",
			oo->officer, oo->n_actions, oo->n_actions == 1 ? "" : "s");
		return;
	}
	/* §17: 1 action, the commander 2 (§13), then D6 3-6 for each further one, max 3. */
	int allowed = officer->role == LR_COMMANDER ? 2 : 1;
	c->group = oo->has_group ? &oo->group : NULL;
	events_add(c->ev, phase, "%s (%s) at %s acts: %zu action%s ordered, %d without a roll",
		officer->id, landraid_role_names[officer->role], s->name[officer->sq],
		oo->n_actions, oo->n_actions == 1 ? "" : "s", allowed);
	for (i = 0; i < oo->n_actions; i++) {
		const struct landraid_action *a = &oo->actions[i];
		if (officer->sq < 0) {
			events_void(c->ev, phase, c->player, order_index,
				"%s was killed: action %zu (%s) "
				"not carried out",
				oo->officer, i + 1, action_label(s, a, label, sizeof(label)));
			continue;
		}
		if ((int)i >= allowed) {
			/* Sealed: the die is public, the action it may never carry out is not
			 * (docs/fairness.md, "Sealed turns"). */
			int r = (int)dice_roll(c->dice, 6,
				"Land Raid §17 Turn sequence: %s's extra "
				"action %zu%s%s%s, needs 3-6",
				officer->id, i + 1, c->ev->sealed ? "" : " (",
				c->ev->sealed ? "" : action_label(s, a, label, sizeof(label)),
				c->ev->sealed ? "" : ")");
			if (r < 3) {
				events_void(c->ev, phase, c->player, order_index,
					"%s rolls %d for action "
					"%zu (%s): no further action, his turn ends (§17: 3-6 needed)",
					officer->id, r, i + 1,
					action_label(s, a, label, sizeof(label)));
				for (size_t j = i + 1; j < oo->n_actions; j++)
					events_void(c->ev, phase, c->player, order_index,
						"%s's action %zu (%s) "
						"not carried out: his turn ended",
						officer->id, j + 1,
						action_label(s, &oo->actions[j], label,
							sizeof(label)));
				c->group = NULL;
				return;
			}
			allowed++;
			events_add(c->ev, phase, "%s rolls %d: action %zu", officer->id, r, i + 1);
		}
		switch (a->kind) {
		case LR_MOVE:
			landraid_move(c, officer, a->sq, &a->bases, order_index);
			break;
		case LR_SHOOT:
			landraid_shoot(c, officer, &oo->ignore, a->sq, order_index);
			break;
		case LR_FIGHT:
			landraid_fight(c, officer, &oo->ignore, a->sq,
				a->has_bases ? &a->bases : NULL, order_index);
			break;
		case LR_PLUNDER:
			landraid_plunder(c, officer, &oo->ignore, order_index);
			break;
		case LR_GATHER:
			landraid_gather(c, officer, a->has_bases ? &a->bases : NULL, order_index);
			break;
		}
		if (c->error)
			break;
	}
	c->group = NULL;
}
