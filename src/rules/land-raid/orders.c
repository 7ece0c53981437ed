/* orders.c — reading a Land Raid order file: the officers' action lists and the standing
 * orders, checked against the current state when checked: everything that does not depend
 * on the dice, each problem reported at its node. What depends on the dice is checked at
 * resolution, where an impossible order becomes a void event. */
#include <stdlib.h>
#include <string.h>

#include "rules/land-raid/landraid.h"
#include "core/suggest.h"
#include "core/banned.h"

const char *const landraid_response_names[] = { "all", "on-move", "on-shot", "none", NULL };
const char *const landraid_save_names[] = { "per-condition", "once", "none", NULL };
const char *const landraid_choice_names[] = { "officer", "scurvy", "remove-scurvy", NULL };
const char *const landraid_action_names[] = {
	"move",
	"shoot",
	"fight",
	"plunder",
	"gather",
	NULL,
};

/* After "no base 'id'": a did-you-mean among side's bases on the table (officers only when
 * officers is set; side -1: every side's), else the list of them (core/suggest.h). */
static void suggest_bases(struct buf *out, const struct landraid_state *s, const char *id, int side,
	int officers)
{
	const char **names = xcalloc(s->n_bases + 1, sizeof(*names));
	size_t n = 0;

	for (size_t i = 0; i < s->n_bases; i++) {
		const struct landraid_base *b = s->bases[i];
		if (b->sq >= 0 && (side < 0 || b->side == side) &&
			(!officers || landraid_is_officer(b)))
			names[n++] = b->id;
	}
	suggest_append(out, id, names, n, 12);
	free(names);
}

static const char *const standing_keys[] = {
	"response",
	"withdraw",
	"fall-back",
	"morale-removal",
	"events",
	NULL,
};
static const char *const events_keys[] = {
	"dockside",
	"redeploy",
	"garrison",
	"choice-8-10",
	"officer-square",
	"scurvy-square",
	"choice-11-12",
	"remove-scurvy",
	NULL,
};
static const char *const redeploy_keys[] = { "base", "to", NULL };
static const char *const officer_keys[] = { "officer", "group", "ignore", "actions", NULL };
static const char *const action_keys[] = {
	"move",
	"drag",
	"shoot",
	"fight",
	"with",
	"plunder",
	"gather",
	NULL,
};
static const char *const choice_8_10_names[] = { "officer", "scurvy", NULL };
static const char *const choice_11_12_names[] = { "remove-scurvy", "officer", NULL };

/* A plain empty scalar (YAML null): `shoot:` with no target. */
static int is_null(const struct node *n)
{
	return !n || (n->kind == NODE_SCALAR && !n->quoted &&
			     (n->scalar[0] == '\0' || strcmp(n->scalar, "~") == 0 ||
				     strcmp(n->scalar, "null") == 0));
}

/* A list of squares, each of kind `kind` unless kind is -1. */
static int want_squares(const struct landraid_state *s, const struct node *n, const char *what,
	int kind, struct landraid_squares *out, struct diag *d)
{
	int rc = 0;
	if (node_check_seq(n, what, LR_MAX_LIST, d) < 0)
		return -1;
	for (size_t i = 0; i < n->n; i++) {
		int sq = landraid_want_square(s, n->items[i], what, d);
		if (sq < 0) {
			rc = -1;
			continue;
		}
		if (kind >= 0 && s->kind[sq] != kind) {
			node_error(d, n->items[i], "%s %s is %s (a square of kind %s expected)",
				what, s->name[sq], landraid_kind_names[s->kind[sq]],
				landraid_kind_names[kind]);
			rc = -1;
			continue;
		}
		landraid_squares_add(out, sq);
	}
	return rc;
}

/* A list of base ids without duplicates; with check_bases each must be a live base of
 * `side` whose role is in role_mask (and of quality `quality` unless -1). */
static int want_ids(const struct landraid_state *s, const struct node *n, const char *what,
	size_t max, int check_bases, int side, unsigned role_mask, int quality,
	struct landraid_ids *out, struct diag *d)
{
	int rc = 0;
	if (node_check_seq(n, what, max, d) < 0)
		return -1;
	for (size_t i = 0; i < n->n; i++) {
		const char *id;
		const struct node *x = n->items[i];
		if (node_want_id(x, what, &id, d) < 0) {
			rc = -1;
			continue;
		}
		if (landraid_ids_has(out, id)) {
			node_error(d, x,
				"base '%s' is listed twice in %s (each base once expected)", id,
				what);
			rc = -1;
			continue;
		}
		if (check_bases) {
			const struct landraid_base *b = landraid_base_find(s, id);
			if (!b) {
				struct buf hint = BUF_INIT;
				suggest_bases(&hint, s, id, side, 0);
				node_error(d, x,
					"no base '%s' on the table (a base id from the state "
					"expected)%s",
					id, buf_str(&hint));
				buf_release(&hint);
				rc = -1;
				continue;
			}
			if (b->side != side) {
				node_error(d, x,
					"base '%s' is the %s's (a base of the %s expected in %s)",
					id, landraid_side_names[b->side], landraid_side_names[side],
					what);
				rc = -1;
				continue;
			}
			if (!(role_mask & (1u << b->role))) {
				node_error(d, x, "base '%s' is %s %s, which %s does not take", id,
					b->role == LR_TROOPS ? "a" : "the",
					landraid_role_names[b->role], what);
				rc = -1;
				continue;
			}
			if (quality >= 0 && b->quality != quality) {
				node_error(d, x, "base '%s' is %s (a %s base expected in %s)", id,
					landraid_quality_names[b->quality],
					landraid_quality_names[quality], what);
				rc = -1;
				continue;
			}
		}
		landraid_ids_add(out, id);
	}
	return rc;
}

static int want_choices(const struct node *n, const char *what, const char *const *names, int *out,
	size_t *n_out, struct diag *d)
{
	int v[2];
	size_t k = 0;
	if (node_check_seq(n, what, 2, d) < 0)
		return -1;
	for (size_t i = 0; i < n->n; i++) {
		int c;
		if (node_want_enum(n->items[i], what, names, &c, d) < 0)
			return -1;
		/* The names tables are subsets of landraid_choice_names: map to that enum. */
		int e = strcmp(names[c], "officer") == 0 ? LR_CHOICE_OFFICER :
			strcmp(names[c], "scurvy") == 0  ? LR_CHOICE_SCURVY :
							   LR_CHOICE_REMOVE_SCURVY;
		if (k && v[0] == e) {
			node_error(d, n->items[i],
				"'%s' is listed twice in %s (each option once "
				"expected)",
				names[c], what);
			return -1;
		}
		v[k++] = e;
	}
	memcpy(out, v, k * sizeof(int));
	*n_out = k;
	return 0;
}

/* Reports a key set by the wrong side (a non-empty list the side never uses). */
static int only_side(const struct node *n, int side, int want, const char *what, const char *why,
	struct diag *d)
{
	if (side == want || (n->kind == NODE_SEQ && n->n == 0))
		return 0;
	node_error(d, n, "%s is the %s's standing order (%s)", what, landraid_side_names[want],
		why);
	return -1;
}

/* A standing list of squares of kind `kind` (-1: any) in n: if it is good it replaces
 * *dst and `bit` is set in *set. */
static void standing_squares(const struct landraid_state *s, const struct node *n, const char *what,
	int kind, struct landraid_squares *dst, unsigned bit, unsigned *set, struct diag *d)
{
	struct landraid_squares l = { NULL, 0 };
	if (want_squares(s, n, what, kind, &l, d) == 0) {
		landraid_squares_release(dst);
		*dst = l;
		*set |= bit;
	} else {
		landraid_squares_release(&l);
	}
}

/* A standing list of base ids in n (want_ids's checks): if it is good it replaces *dst and
 * `bit` is set in *set. */
static void standing_ids(const struct landraid_state *s, const struct node *n, const char *what,
	int check_bases, int side, unsigned roles, int quality, struct landraid_ids *dst,
	unsigned bit, unsigned *set, struct diag *d)
{
	struct landraid_ids l = { NULL, 0 };
	if (want_ids(s, n, what, LR_MAX_LIST, check_bases, side, roles, quality, &l, d) == 0) {
		landraid_ids_release(dst);
		*dst = l;
		*set |= bit;
	} else {
		landraid_ids_release(&l);
	}
}

/* One redeploy entry {base, to} into *out (base owned); 0, or -1 if it is wrong. */
static int parse_redeploy_entry(const struct landraid_state *s, int side, const struct node *e,
	int check_bases, struct landraid_redeploy *out, struct diag *d)
{
	const struct node *b, *to;
	struct landraid_ids one = { NULL, 0 };
	if (node_check_map(e, "redeploy entry", redeploy_keys, d) < 0)
		return -1;
	b = node_need(e, "base", d);
	to = node_need(e, "to", d);
	if (!b || !to)
		return -1;
	struct node seq = { .kind = NODE_SEQ,
		.file = b->file,
		.line = b->line,
		.column = b->column,
		.n = 1,
		.items = (struct node **)&b };
	int sq = landraid_want_square(s, to, "redeploy square", d);
	if (want_ids(s, &seq, "redeploy", 1, check_bases, side, LR_NON_OFFICERS, -1, &one, d) < 0 ||
		sq < 0) {
		landraid_ids_release(&one);
		return -1;
	}
	out->base = xstrdup(one.v[0]);
	out->sq = sq;
	landraid_ids_release(&one);
	return 0;
}

/* §18 6, "Move any 3 own bases": the redeploy list; if it is all good it replaces the
 * standing one. */
static void parse_redeploy(struct landraid_standing *st, unsigned *set,
	const struct landraid_state *s, int side, const struct node *n, int check_bases,
	struct diag *d)
{
	if (node_check_seq(n, "redeploy", LR_MAX_REDEPLOY, d) < 0)
		return;
	struct landraid_redeploy *v = xcalloc(n->n ? n->n : 1, sizeof(*v));
	size_t k = 0;
	int ok = 1;
	for (size_t i = 0; i < n->n; i++) {
		if (parse_redeploy_entry(s, side, n->items[i], check_bases, &v[k], d) < 0) {
			ok = 0;
			continue;
		}
		for (size_t j = 0; j < k; j++)
			if (strcmp(v[j].base, v[k].base) == 0) {
				node_error(d, node_get(n->items[i], "base"),
					"base '%s' is listed twice in "
					"redeploy (each base once expected)",
					v[k].base);
				ok = 0;
			}
		k++;
	}
	if (ok) {
		for (size_t i = 0; i < st->n_redeploy; i++)
			free(st->redeploy[i].base);
		free(st->redeploy);
		st->redeploy = v;
		st->n_redeploy = k;
		*set |= LR_ST_REDEPLOY;
	} else {
		for (size_t i = 0; i < k; i++)
			free(v[i].base);
		free(v);
	}
}

/* The standing choices for the §18 Events: which square or base each event takes, and
 * which option of 8-10 and 11-12 a player prefers. */
static void parse_events(struct landraid_standing *st, unsigned *set,
	const struct landraid_state *s, int side, const struct node *ev, int check_bases,
	struct diag *d)
{
	const struct node *n;
	if (node_check_map(ev, "standing events", events_keys, d) < 0)
		return;
	if ((n = node_get(ev, "dockside")) &&
		only_side(n, side, LR_ATTACKER, "dockside",
			"§18 2-5: the attacker places new bases", d) == 0)
		standing_squares(s, n, "dockside", LR_DOCKSIDE, &st->dockside, LR_ST_DOCKSIDE, set,
			d);
	if ((n = node_get(ev, "redeploy")))
		parse_redeploy(st, set, s, side, n, check_bases, d);
	if ((n = node_get(ev, "garrison")) &&
		only_side(n, side, LR_DEFENDER, "garrison",
			"§18 7: troops appear in the defender's garrison building", d) == 0)
		standing_squares(s, n, "garrison", LR_GARRISON, &st->garrison, LR_ST_GARRISON, set,
			d);
	if ((n = node_get(ev, "choice-8-10")) &&
		want_choices(n, "choice-8-10", choice_8_10_names, st->choice_8_10,
			&st->n_choice_8_10, d) == 0)
		*set |= LR_ST_CHOICE_8_10;
	if ((n = node_get(ev, "officer-square")))
		standing_squares(s, n, "officer-square", -1, &st->officer_square,
			LR_ST_OFFICER_SQUARE, set, d);
	if ((n = node_get(ev, "scurvy-square")))
		standing_squares(s, n, "scurvy-square", LR_OPEN, &st->scurvy_square,
			LR_ST_SCURVY_SQUARE, set, d);
	if ((n = node_get(ev, "choice-11-12")) &&
		only_side(n, side, LR_ATTACKER, "choice-11-12", "§18 11-12: the attacker chooses",
			d) == 0 &&
		want_choices(n, "choice-11-12", choice_11_12_names, st->choice_11_12,
			&st->n_choice_11_12, d) == 0)
		*set |= LR_ST_CHOICE_11_12;
	if ((n = node_get(ev, "remove-scurvy")) &&
		only_side(n, side, LR_ATTACKER, "remove-scurvy",
			"§18 11-12: the attacker removes defender scurvy bases", d) == 0)
		standing_ids(s, n, "remove-scurvy", check_bases, LR_DEFENDER, 1u << LR_TROOPS,
			LR_SCURVY, &st->remove_scurvy, LR_ST_REMOVE_SCURVY, set, d);
}

int landraid_standing_parse(struct landraid_standing *st, unsigned *set,
	const struct landraid_state *s, int side, const struct node *n, int check_bases,
	struct diag *d)
{
	size_t before = diag_count(d);
	const struct node *x;
	int v;
	if (node_check_map(n, "standing", standing_keys, d) < 0)
		return -1;
	if ((x = node_get(n, "response")) &&
		node_want_enum(x, "response", landraid_response_names, &v, d) == 0) {
		st->response = v;
		*set |= LR_ST_RESPONSE;
	}
	if ((x = node_get(n, "withdraw")) && node_want_bool(x, "withdraw", &v, d) == 0) {
		st->withdraw = v;
		*set |= LR_ST_WITHDRAW;
	}
	if ((x = node_get(n, "fall-back")))
		standing_squares(s, x, "fall-back", -1, &st->fall_back, LR_ST_FALL_BACK, set, d);
	/* §19: the opponent's pick is never an officer or a plunder carrier. */
	if ((x = node_get(n, "morale-removal")))
		standing_ids(s, x, "morale-removal", check_bases, 1 - side, 1u << LR_TROOPS, -1,
			&st->morale_removal, LR_ST_MORALE_REMOVAL, set, d);
	if ((x = node_get(n, "events")))
		parse_events(st, set, s, side, x, check_bases, d);
	return diag_count(d) == before ? 0 : -1;
}

/* *dst takes the list *keep holds (keep is left empty). */
static void take_squares(struct landraid_squares *dst, struct landraid_squares *keep)
{
	landraid_squares_release(dst);
	*dst = *keep;
	keep->v = NULL;
	keep->n = 0;
}

static void take_ids(struct landraid_ids *dst, struct landraid_ids *keep)
{
	landraid_ids_release(dst);
	*dst = *keep;
	keep->v = NULL;
	keep->n = 0;
}

static void take_redeploy(struct landraid_standing *dst, struct landraid_standing *keep)
{
	for (size_t i = 0; i < dst->n_redeploy; i++)
		free(dst->redeploy[i].base);
	free(dst->redeploy);
	dst->redeploy = keep->redeploy;
	dst->n_redeploy = keep->n_redeploy;
	keep->redeploy = NULL;
	keep->n_redeploy = 0;
}

void landraid_standing_apply(struct landraid_state *s, const struct landraid_orders *o)
{
	struct landraid_standing *st = &s->standing[o->side];
	unsigned set = o->standing_set;
	struct landraid_standing old, keep;

	if (!set)
		return;
	/* Start from the new values and keep the old ones of the keys the file left out. */
	old = *st;
	landraid_standing_copy(st, &o->standing);
	if (!(set & LR_ST_RESPONSE))
		st->response = old.response;
	if (!(set & LR_ST_WITHDRAW))
		st->withdraw = old.withdraw;
	if (!(set & LR_ST_CHOICE_8_10)) {
		memcpy(st->choice_8_10, old.choice_8_10, sizeof(st->choice_8_10));
		st->n_choice_8_10 = old.n_choice_8_10;
	}
	if (!(set & LR_ST_CHOICE_11_12)) {
		memcpy(st->choice_11_12, old.choice_11_12, sizeof(st->choice_11_12));
		st->n_choice_11_12 = old.n_choice_11_12;
	}
	memset(&keep, 0, sizeof(keep));
	landraid_standing_copy(&keep, &old);
	landraid_standing_release(&old);
	if (!(set & LR_ST_FALL_BACK))
		take_squares(&st->fall_back, &keep.fall_back);
	if (!(set & LR_ST_MORALE_REMOVAL))
		take_ids(&st->morale_removal, &keep.morale_removal);
	if (!(set & LR_ST_DOCKSIDE))
		take_squares(&st->dockside, &keep.dockside);
	if (!(set & LR_ST_REDEPLOY))
		take_redeploy(st, &keep);
	if (!(set & LR_ST_GARRISON))
		take_squares(&st->garrison, &keep.garrison);
	if (!(set & LR_ST_OFFICER_SQUARE))
		take_squares(&st->officer_square, &keep.officer_square);
	if (!(set & LR_ST_SCURVY_SQUARE))
		take_squares(&st->scurvy_square, &keep.scurvy_square);
	if (!(set & LR_ST_REMOVE_SCURVY))
		take_ids(&st->remove_scurvy, &keep.remove_scurvy);
	/* Whatever keep still owns was replaced by the file's values. */
	landraid_standing_release(&keep);
}

/* --- officers' orders ------------------------------------------------------------------- */

/* What the check knows of the turn as it reads the actions: where the officer and the
 * player's bases will be, as far as that does not depend on the dice. */
struct sim {
	const struct landraid_state *s;
	int *pos;            /* per base index: simulated square (bases in s order) */
	int uncertain;       /* a gather happened: base positions no longer known */
	int *plunder;        /* plunder markers left, per square */
	int shoots, gathers; /* shoot and gather actions asked for so far */
};

static int sim_index(const struct sim *m, const char *id)
{
	for (size_t i = 0; i < m->s->n_bases; i++)
		if (m->s->bases[i]->sq >= 0 && strcmp(m->s->bases[i]->id, id) == 0)
			return (int)i;
	return -1;
}

/* Checks that the bases of l (already checked as the player's) stand in sq, unless the
 * positions became uncertain. */
static void check_in_square(const struct sim *m, const struct node *list,
	const struct landraid_ids *l, int sq, const char *officer, const char *what, struct diag *d)
{
	if (m->uncertain)
		return;
	for (size_t i = 0; i < l->n; i++) {
		int bi = sim_index(m, l->v[i]);
		if (bi >= 0 && m->pos[bi] != sq) {
			const struct node *x = list;
			for (size_t j = 0; list->kind == NODE_SEQ && j < list->n; j++)
				if (list->items[j]->kind == NODE_SCALAR &&
					strcmp(list->items[j]->scalar, l->v[i]) == 0)
					x = list->items[j];
			node_error(d, x,
				"base '%s' is in %s, not with %s in %s (%s takes bases from "
				"the officer's square)",
				l->v[i], m->s->name[m->pos[bi]], officer, m->s->name[sq], what);
		}
	}
}

/* What the check of one action needs besides the action itself. */
struct action_check {
	struct sim *m;
	int side;            /* the player's side */
	int officer_idx;     /* the officer's index in the sim, or -1: not known */
	const char *officer; /* his id, for messages */
	int pos;             /* his square when the action comes, or -1: not known */
	int live;            /* the sim follows the action (it can happen) */
	const struct landraid_options *o;
	struct diag *d;
};

/* Which action a list item is: a bare name (shoot, plunder, gather) or a map with one
 * action key and its helpers (drag, with). Every key is checked; the first action named is
 * the one read (*kn its key or name, *val its value or NULL), each further one an error.
 * Returns the enum landraid_action_kind, or -1. */
static int action_kind(const struct node *an, const struct node **kn, const struct node **val,
	struct diag *d)
{
	int kind = -1;
	*kn = *val = NULL;
	if (an->kind == NODE_SCALAR) {
		static const char *const bare[] = { "shoot", "plunder", "gather", NULL };
		int b;
		if (node_want_enum(an, "action", bare, &b, d) < 0)
			return -1;
		*kn = an;
		return b == 0 ? LR_SHOOT : b == 1 ? LR_PLUNDER : LR_GATHER;
	}
	/* Unknown keys are reported, and the known ones still checked. */
	int unknown = 0;
	if (node_check_keys(an, "action", action_keys, &unknown, d) < 0)
		return -1;
	for (size_t i = 0; i < an->n; i++) {
		int k;
		for (k = 0; landraid_action_names[k]; k++)
			if (strcmp(an->keys[i]->scalar, landraid_action_names[k]) == 0)
				break;
		if (!landraid_action_names[k])
			continue;
		if (kind >= 0) {
			node_error(d, an->keys[i],
				"action has both '%s' and '%s' (one action per "
				"list item expected)",
				landraid_action_names[kind], landraid_action_names[k]);
			continue;
		}
		kind = k;
		*kn = an->keys[i];
		*val = an->items[i];
	}
	if (kind < 0) {
		if (!unknown)
			node_error(d, an,
				"action names no action (one of: move, shoot, fight, "
				"plunder, gather expected)");
		return -1;
	}
	for (size_t i = 0; i < an->n; i++) {
		const char *k = an->keys[i]->scalar;
		if ((strcmp(k, "drag") == 0 && kind != LR_MOVE) ||
			(strcmp(k, "with") == 0 && kind != LR_FIGHT))
			node_error(d, an->keys[i], "'%s' belongs to a %s (not to %s)", k,
				k[0] == 'd' ? "move" : "fight", landraid_action_names[kind]);
	}
	return kind;
}

/* A move or fight square: a square of the grid, face-touching the officer's if known (why
 * cites the rule). Returns it, or -1 (reported). */
static int want_face_square(const struct action_check *x, const struct node *val, const char *what,
	const char *why)
{
	const struct landraid_state *s = x->m->s;
	int sq = landraid_want_square(s, val, what, x->d);
	if (sq >= 0 && x->pos >= 0 && !landraid_face(s, x->pos, sq)) {
		node_error(x->d, val,
			"%s is not face-touching %s, where %s is then (%s: a "
			"face-touching square expected)",
			s->name[sq], s->name[x->pos], x->officer, why);
		return -1;
	}
	return sq;
}

/* The bases a move drags or a fight takes `with` (list `key` of an): the player's, of the
 * roles given, standing in the officer's square while that is known. */
static void want_group_bases(const struct action_check *x, struct landraid_action *a,
	const struct node *an, const char *key, size_t max, unsigned roles)
{
	const struct node *list = node_get(an, key);
	if (!list)
		return;
	want_ids(x->m->s, list, key, max, 1, x->side, roles, -1, &a->bases, x->d);
	if (x->pos >= 0)
		check_in_square(x->m, list, &a->bases, x->pos, x->officer, key, x->d);
	a->has_bases = 1;
}

/* §20 Move: a face-touching square, dragging up to 4 of his bases. */
static void check_move(const struct action_check *x, struct landraid_action *a,
	const struct node *an, const struct node *val)
{
	struct sim *m = x->m;
	int to = want_face_square(x, val, "move", "§20 Move");
	a->sq = to;
	want_group_bases(x, a, an, "drag", LR_MAX_DRAG, LR_NON_OFFICERS);
	if (!x->live || to < 0)
		return;
	if (!m->uncertain)
		for (size_t i = 0; i < a->bases.n; i++) {
			int bi = sim_index(m, a->bases.v[i]);
			if (bi >= 0)
				m->pos[bi] = to;
		}
	m->pos[x->officer_idx] = to;
}

/* §20 Shoot, §22: at most 3 shoot actions; a named target within 3 squares. */
static void check_shoot(const struct action_check *x, struct landraid_action *a,
	const struct node *kn, const struct node *val)
{
	const struct landraid_state *s = x->m->s;
	if (x->live && ++x->m->shoots > x->o->max_shoot_actions)
		node_error(x->d, kn, "shoot action %d this turn (§20 Shoot: at most %d expected)",
			x->m->shoots, x->o->max_shoot_actions);
	if (is_null(val))
		return;
	int t = landraid_want_square(s, val, "shoot target", x->d);
	if (t >= 0 && x->pos >= 0 && (t == x->pos || landraid_distance(s, x->pos, t) > 3)) {
		node_error(x->d, val,
			"%s is not within 3 squares of %s, where %s is then (§22: a "
			"target within 3 squares expected)",
			s->name[t], s->name[x->pos], x->officer);
		t = -1;
	}
	a->sq = t;
}

/* §23 Fighting: a face-touching square, with up to 4 of his troop bases; his last action. */
static void check_fight(const struct action_check *x, struct landraid_action *a,
	const struct node *an, const struct node *val, int *ended)
{
	a->sq = want_face_square(x, val, "fight", "§23");
	want_group_bases(x, a, an, "with", LR_MAX_FIGHT_BASES, 1u << LR_TROOPS);
	if (!*ended)
		*ended = 1;
}

/* §24 Plunder: the attacker's, of the officer's own square while a plunder marker is left
 * there; his last action. */
static void check_plunder(const struct action_check *x, const struct node *kn,
	const struct node *val, int *ended)
{
	struct sim *m = x->m;
	if (!is_null(val))
		node_error(x->d, val,
			"plunder takes no value (§24: the officer's own square is "
			"plundered)");
	if (x->side != LR_ATTACKER)
		node_error(x->d, kn, "only the attacker plunders (§24)");
	else if (x->pos >= 0 && m->plunder[x->pos] <= 0)
		node_error(x->d, kn,
			"no plunder marker left in %s, where %s is then (§24: a square "
			"with a plunder marker expected)",
			m->s->name[x->pos], x->officer);
	else if (x->live)
		m->plunder[x->pos]--;
	if (!*ended)
		*ended = 2;
}

/* §20 Gather: at most 3 gather actions, up to 3 bases picked first. */
static void check_gather(const struct action_check *x, struct landraid_action *a,
	const struct node *kn, const struct node *val)
{
	if (x->live && ++x->m->gathers > x->o->max_gather_actions)
		node_error(x->d, kn, "gather action %d this turn (§20 Gather: at most %d expected)",
			x->m->gathers, x->o->max_gather_actions);
	if (!is_null(val)) {
		want_ids(x->m->s, val, "gather", 3, 1, x->side, LR_NON_OFFICERS, -1, &a->bases,
			x->d);
		a->has_bases = 1;
	}
	/* Which bases come depends on the dice. */
	if (x->live)
		x->m->uncertain = 1;
}

/* Reads one action and checks every field of it, whatever else is wrong with it, so a player
 * sees all its errors at once. officer_idx < 0: the officer is not known (his own errors are
 * reported), so what depends on where he stands is not checked. The sim follows the action
 * only when it can happen: the officer is known and his turn has not ended. */
static void parse_action(struct landraid_action *a, const struct node *an, struct sim *m, int side,
	int officer_idx, const char *officer, const struct landraid_options *o, int *ended,
	struct diag *d)
{
	const struct action_check x = {
		.m = m,
		.side = side,
		.officer_idx = officer_idx,
		.officer = officer,
		.pos = officer_idx >= 0 ? m->pos[officer_idx] : -1,
		.live = officer_idx >= 0 && !*ended,
		.o = o,
		.d = d,
	};
	const struct node *kn, *val;
	int kind = action_kind(an, &kn, &val, d);

	a->sq = -1;
	if (kind < 0)
		return;
	a->kind = kind;
	if (*ended)
		node_error(d, kn,
			"%s after the officer's %s (§23/§24: a fight or a plunder is the "
			"officer's last action)",
			landraid_action_names[kind], *ended == 1 ? "fight" : "plunder");
	switch (kind) {
	case LR_MOVE:
		check_move(&x, a, an, val);
		break;
	case LR_SHOOT:
		check_shoot(&x, a, kn, val);
		break;
	case LR_FIGHT:
		check_fight(&x, a, an, val, ended);
		break;
	case LR_PLUNDER:
		check_plunder(&x, kn, val, ended);
		break;
	case LR_GATHER:
		check_gather(&x, a, kn, val);
		break;
	}
}

/* The officer an order list names: his index in the sim, or -1 (reported) if the name is
 * not one of the player's officers on the table. */
static int want_officer(const struct node *on, struct sim *m, int side, const char **id,
	struct diag *d)
{
	const struct landraid_state *s = m->s;
	if (node_want_id(on, "officer", id, d) < 0)
		return -1;
	const struct landraid_base *ob = landraid_base_find(s, *id);
	if (!ob) {
		struct buf hint = BUF_INIT;
		suggest_bases(&hint, s, *id, side, 1);
		node_error(d, on, "no base '%s' on the table (one of your officers expected)%s",
			*id, buf_str(&hint));
		buf_release(&hint);
		return -1;
	}
	if (ob->side != side) {
		node_error(d, on, "'%s' is the %s's (one of your officers expected)", *id,
			landraid_side_names[ob->side]);
		return -1;
	}
	if (!landraid_is_officer(ob)) {
		node_error(d, on, "'%s' is a %s base, not an officer (§17: officers act)", *id,
			landraid_role_names[ob->role]);
		return -1;
	}
	return sim_index(m, *id);
}

/* §6 "Officers select the bases in his group": the officer's `group`, the player's
 * non-officer bases, none of them in an earlier officer's group of the file. */
static void want_group(struct landraid_officer_order *oo, const struct node *gr,
	const struct landraid_state *s, int side, const struct landraid_orders *all, size_t index,
	struct diag *d)
{
	want_ids(s, gr, "group", LR_MAX_LIST, 1, side, LR_NON_OFFICERS, -1, &oo->group, d);
	oo->has_group = 1;
	if (gr->kind != NODE_SEQ)
		return;
	for (size_t j = 0; j < gr->n; j++) {
		const struct node *x = gr->items[j];
		if (x->kind != NODE_SCALAR)
			continue;
		for (size_t i = 0; i < index; i++)
			if (all->v[i].has_group && landraid_ids_has(&all->v[i].group, x->scalar)) {
				node_error(d, x,
					"base '%s' is already in %s's group (§6: a base belongs to "
					"one officer's group a turn)",
					x->scalar,
					all->v[i].officer ? all->v[i].officer : "another officer");
				break;
			}
	}
}

/* Reads one officer's order list. A bad officer name does not stop the check: his actions
 * are still read and checked as far as that does not depend on where he stands. */
static void parse_officer(struct landraid_officer_order *oo, const struct node *e, struct sim *m,
	int side, const struct landraid_options *o, const struct landraid_orders *all, size_t index,
	struct diag *d)
{
	const struct landraid_state *s = m->s;
	const char *id = NULL;
	int oi = -1;
	if (e->kind != NODE_MAP) {
		node_check_map(e, "officer order", officer_keys, d);
		return;
	}
	/* Unknown keys are reported, and the rest is still checked. */
	node_check_map(e, "officer order", officer_keys, d);
	const struct node *on = node_need(e, "officer", d);
	if (on && (oi = want_officer(on, m, side, &id, d)) >= 0) {
		for (size_t i = 0; i < index; i++)
			if (all->v[i].officer && strcmp(all->v[i].officer, id) == 0) {
				node_error(d, on,
					"officer '%s' has a second order list (one per officer "
					"expected)",
					id);
				break;
			}
		oo->officer = xstrdup(id);
	}
	const char *who = id ? id : on && on->kind == NODE_SCALAR ? on->scalar : "?";

	const struct node *ig = node_get(e, "ignore");
	if (ig) {
		size_t max = o->ignore_scurvy_one ? 1 : LR_MAX_DRAG * 4;
		want_ids(s, ig, "ignore", max, 1, side, 1u << LR_TROOPS, LR_SCURVY, &oo->ignore, d);
	}

	const struct node *gr = node_get(e, "group");
	if (gr)
		want_group(oo, gr, s, side, all, index, d);

	const struct node *acts = node_need(e, "actions", d);
	if (!acts)
		return;
	if (acts->kind != NODE_SEQ) {
		node_check_seq(acts, "actions", 0, d);
		return;
	}
	if (acts->n == 0) {
		node_error(d, acts, "no actions for '%s' (1 to 3 actions expected)", who);
		return;
	}
	size_t n = acts->n;
	if (n > LR_MAX_ACTIONS) {
		node_error(d, acts->items[LR_MAX_ACTIONS],
			"action %d for '%s' (§17: at most 3 "
			"actions per officer expected)",
			LR_MAX_ACTIONS + 1, who);
		/* The first three are still checked. */
		n = LR_MAX_ACTIONS;
	}
	int ended = 0;
	for (size_t i = 0; i < n; i++)
		parse_action(&oo->actions[i], acts->items[i], m, side, oi, who, o, &ended, d);
	oo->n_actions = n;
}

int landraid_orders_parse(struct landraid_orders **out, const struct landraid_state *s,
	const struct landraid_options *o, const char *player, const struct node *orders,
	const struct node *standing, struct diag *d)
{
	size_t before = diag_count(d);
	struct landraid_orders *r = xcalloc(1, sizeof(*r));
	struct sim m = { .s = s };

	*out = NULL;
	r->side = strcmp(player, "defender") == 0 ? LR_DEFENDER : LR_ATTACKER;
	if (strcmp(player, landraid_side_names[r->side]) != 0) {
		node_error(d, orders,
			"player '%s' is not a Land Raid side (attacker or defender "
			"expected)",
			player);
		goto done;
	}
	m.pos = xcalloc(s->n_bases ? s->n_bases : 1, sizeof(int));
	for (size_t i = 0; i < s->n_bases; i++)
		m.pos[i] = s->bases[i]->sq;
	m.plunder = xcalloc((size_t)s->n_squares, sizeof(int));
	memcpy(m.plunder, s->plunder, (size_t)s->n_squares * sizeof(int));

	if (orders && !is_null(orders) && node_check_seq(orders, "orders", LR_MAX_LIST, d) == 0) {
		r->v = xcalloc(orders->n ? orders->n : 1, sizeof(*r->v));
		r->n = orders->n;
		for (size_t i = 0; i < orders->n; i++)
			parse_officer(&r->v[i], orders->items[i], &m, r->side, o, r, i, d);
	}
	landraid_standing_copy(&r->standing, &s->standing[r->side]);
	if (standing && !is_null(standing))
		landraid_standing_parse(&r->standing, &r->standing_set, s, r->side, standing, 1, d);
	free(m.pos);
	free(m.plunder);
done:
	if (diag_count(d) != before) {
		landraid_orders_free(r);
		return -1;
	}
	*out = r;
	return 0;
}

void landraid_orders_free(struct landraid_orders *o)
{
	if (!o)
		return;
	for (size_t i = 0; i < o->n; i++) {
		free(o->v[i].officer);
		landraid_ids_release(&o->v[i].ignore);
		landraid_ids_release(&o->v[i].group);
		for (size_t j = 0; j < LR_MAX_ACTIONS; j++)
			landraid_ids_release(&o->v[i].actions[j].bases);
	}
	free(o->v);
	landraid_standing_release(&o->standing);
	free(o);
}
