/* adjust.c — the umpire's rulings on the Border Reivers table (core/adjust.h): a line of sight
 * ruled clear or blocked, a target's cover ruled none, part or whole, or its range band from
 * a shooter ruled close, long or beyond, between two figures for one turn, when the table
 * disagrees with the map. The engine computes range, sight and cover from the geometry
 * (geometry.c); a ruling replaces the computed fact for its pair until the end of the turn
 * (docs/rules/reivers.md, "An umpire's ruling"). */
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
	if (rv_hidden_from(s, f, -1)) {
		node_error(d, at(a, key),
			"figure '%s' is hidden (a figure every side sees: the journal would tell "
			"where he lies)",
			id);
		return -1;
	}
	return f;
}

/* The rule kind of a, and the index of its word in words (grade or band); -1 if unknown. */
static int word_of(const struct adjustment *a, enum rv_rule *kind)
{
	const char *const *words = a->kind == ADJUST_COVER ? rv_cover_names : rv_band_names;
	const char *w = a->kind == ADJUST_COVER ? a->grade : a->band;
	*kind = a->kind == ADJUST_LOS   ? RV_RULE_LOS :
		a->kind == ADJUST_COVER ? RV_RULE_COVER :
					  RV_RULE_RANGE;
	if (a->kind == ADJUST_LOS)
		return a->value;
	for (int i = 0; w && words[i]; i++)
		if (strcmp(words[i], w) == 0)
			return i;
	return -1;
}

/* One adjustment: a kind the rule system takes, two living figures in sight of every side, a
 * cover grade or a range band it knows. */
static int check_one(const struct rv_state *s, const struct adjustment *a, struct diag *d)
{
	enum rv_rule kind;
	if (a->kind != ADJUST_LOS && a->kind != ADJUST_COVER && a->kind != ADJUST_RANGE) {
		node_error(d, at(a, "adjust"),
			"reivers takes no 'adjust: %s' (los, cover or range expected: the umpire "
			"rules a line of sight, a cover or a range for the turn)",
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
	if (word_of(a, &kind) >= 0)
		return 0;
	if (a->kind == ADJUST_COVER)
		node_error(d, at(a, "grade"), "no cover grade '%s' (none, part or whole expected)",
			a->grade);
	else
		node_error(d, at(a, "band"), "no range band '%s' (close, long or beyond expected)",
			a->band);
	return -1;
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

/* What ruling r says, for the journal. */
static void say(const struct rv_state *s, const struct rv_ruled *r, struct buf *what)
{
	const char *f = s->fig[r->from].id, *t = s->fig[r->to].id;
	if (r->kind == RV_RULE_LOS)
		buf_printf(what, "the line of sight between %s and %s is %s this turn", f, t,
			r->value ? "clear" : "blocked");
	else if (r->kind == RV_RULE_COVER)
		buf_printf(what, "the cover of %s against shots from %s is %s this turn", t, f,
			rv_cover_names[r->value]);
	else
		buf_printf(what, "the range of %s from %s is %s this turn", t, f,
			r->value == RV_CLOSE ? "close" :
			r->value == RV_LONG  ? "long" :
					       "beyond long range");
}

int rv_adjust_apply(const struct rules_campaign *c, void *state, const struct adjustment *a,
	struct buf *what)
{
	struct rv_state *s = state;
	struct rv_ruled r = { RV_RULE_LOS, rv_figure_find(s, a->from), rv_figure_find(s, a->to),
		0 };
	(void)c;
	if ((a->kind != ADJUST_LOS && a->kind != ADJUST_COVER && a->kind != ADJUST_RANGE) ||
		r.from < 0 || r.to < 0 || (r.value = word_of(a, &r.kind)) < 0)
		return -1;
	size_t i = 0;
	while (i < s->n_ruled &&
		!(s->ruled[i].kind == r.kind &&
			((s->ruled[i].from == r.from && s->ruled[i].to == r.to) ||
				(r.kind == RV_RULE_LOS && s->ruled[i].from == r.to &&
					s->ruled[i].to == r.from))))
		i++;
	if (i == RV_MAX_RULED)
		return -1;
	s->ruled[i] = r;
	if (i == s->n_ruled)
		s->n_ruled++;
	say(s, &r, what);
	return 0;
}
