/* adjust.c — the umpire's rulings on the Border Reivers table (core/adjust.h): a line of sight
 * ruled clear or blocked, or a target's cover ruled none, part or whole, between two figures
 * for one turn, when the table disagrees with the map. The engine computes range, sight and
 * cover from the geometry (geometry.c); a ruling replaces the computed fact for its pair until
 * the end of the turn (docs/rules/reivers.md, "An umpire's ruling"). */
#include <string.h>

#include "rules/reivers/reivers.h"
#include "core/banned.h"

/* The node of key in adjustment a (its item when the key is absent), for diagnostics. */
static const struct node *at(const struct adjustment *a, const char *key)
{
	const struct node *n = a->at ? node_get(a->at, key) : NULL;
	return n ? n : a->at;
}

static int want_fig(const struct rv_state *s, const struct adjustment *a, const char *key,
	const char *id, struct diag *d)
{
	int f = rv_figure_find(s, id);
	if (f < 0) {
		node_error(d, at(a, key), "no figure '%s' (a figure of the scenario)", id);
		return -1;
	}
	if (s->fig[f].dead) {
		node_error(d, at(a, key), "figure '%s' is dead (a figure in play)", id);
		return -1;
	}
	return f;
}

/* One adjustment: a kind the rule system takes, two living figures, a cover grade. */
static int check_one(const struct rv_state *s, const struct adjustment *a, struct diag *d)
{
	int grade;
	if (a->kind != ADJUST_LOS && a->kind != ADJUST_COVER) {
		node_error(d, at(a, "adjust"),
			"reivers takes no 'adjust: %s' (los or cover expected: the umpire rules a "
			"line of sight or a cover for the turn)",
			adjust_kind_names[a->kind]);
		return -1;
	}
	int f = want_fig(s, a, "from", a->from, d), t = want_fig(s, a, "to", a->to, d);
	if (f < 0 || t < 0)
		return -1;
	if (f == t) {
		node_error(d, at(a, "to"), "'from' and 'to' are both '%s' (two figures expected)",
			a->to);
		return -1;
	}
	for (grade = 0; a->kind == ADJUST_COVER && rv_cover_names[grade]; grade++)
		if (strcmp(rv_cover_names[grade], a->grade) == 0)
			return 0;
	if (a->kind == ADJUST_COVER) {
		node_error(d, at(a, "grade"), "no cover grade '%s' (none, part or whole expected)",
			a->grade);
		return -1;
	}
	return 0;
}

int rv_adjust_check(const struct rules_campaign *c, const void *state, const struct adjustment *v,
	size_t n, struct diag *d)
{
	int rc = 0;
	(void)c;
	for (size_t i = 0; i < n; i++)
		if (check_one(state, &v[i], d) < 0)
			rc = -1;
	return rc;
}

int rv_adjust_apply(const struct rules_campaign *c, void *state, const struct adjustment *a,
	struct buf *what)
{
	struct rv_state *s = state;
	struct rv_ruled r = { a->kind == ADJUST_LOS, rv_figure_find(s, a->from),
		rv_figure_find(s, a->to), a->value };
	(void)c;
	if ((a->kind != ADJUST_LOS && a->kind != ADJUST_COVER) || r.from < 0 || r.to < 0)
		return -1;
	if (!r.los)
		for (r.value = 0;
			rv_cover_names[r.value] && strcmp(rv_cover_names[r.value], a->grade);)
			r.value++;
	if (!r.los && !rv_cover_names[r.value])
		return -1;
	size_t i = 0;
	while (i < s->n_ruled &&
		!(s->ruled[i].los == r.los &&
			((s->ruled[i].from == r.from && s->ruled[i].to == r.to) ||
				(r.los && s->ruled[i].from == r.to && s->ruled[i].to == r.from))))
		i++;
	if (i == RV_MAX_RULED)
		return -1;
	s->ruled[i] = r;
	if (i == s->n_ruled)
		s->n_ruled++;
	if (r.los)
		buf_printf(what, "the line of sight between %s and %s is %s this turn", a->from,
			a->to, r.value ? "clear" : "blocked");
	else
		buf_printf(what, "the cover of %s against shots from %s is %s this turn", a->to,
			a->from, rv_cover_names[r.value]);
	return 0;
}
