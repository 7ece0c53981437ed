/* adjust.c — the umpire's adjustments to an NHiS game (core/adjust.h), by which he applies
 * the outcome of a melee he rules (docs/rules/nhis.md "Melee"): `remove` eliminates a unit,
 * `status` sets or clears `shaken` (Shaken, else Prepared) or `reduced` (the counter's step).
 * The other kinds (DISR, break, army morale, new units) have no meaning in NHiS and are
 * refused. */
#include <stdlib.h>
#include <string.h>

#include "core/adjust.h"
#include "rules/nhis/nhis.h"
#include "core/banned.h"

/* The node of key in adjustment a (its item when the key is absent), for diagnostics. */
static const struct node *at(const struct adjustment *a, const char *key)
{
	const struct node *n = a->at ? node_get(a->at, key) : NULL;
	return n ? n : a->at;
}

/* A `status` adjustment of unit u (in play) against the unit as it stands. */
static int check_status(const struct nhis_ctx *x, const struct nhis_unit *u,
	const struct adjustment *a, struct diag *d)
{
	if (strcmp(a->status, "shaken") == 0) {
		if (a->value && nhis_unshakable(x, u)) {
			node_error(d, at(a, "status"),
				"unit '%s' is Unshakable (%s) and cannot be Shaken (a Shakeable "
				"unit expected)",
				u->id, x->s->side[u->side].nationality);
			return -1;
		}
		if (a->value == u->shaken) {
			node_error(d, at(a, "value"), "unit '%s' is %s (a %s unit expected)", u->id,
				u->shaken ? "already Shaken" : "not Shaken",
				u->shaken ? "Prepared" : "Shaken");
			return -1;
		}
		return 0;
	}
	if (strcmp(a->status, "reduced") == 0) {
		if (a->value == u->is_reduced) {
			node_error(d, at(a, "value"), "unit '%s' is %s (a %s unit expected%s)",
				u->id, u->is_reduced ? "already reduced" : "at full strength",
				u->is_reduced ? "full-strength" : "reduced",
				u->is_reduced ? "; 'adjust: remove' eliminates" : "");
			return -1;
		}
		return 0;
	}
	node_error(d, at(a, "status"),
		"'%s' is not a status of nhis ('shaken' or 'reduced' expected)", a->status);
	return -1;
}

/* One adjustment against x->s as the earlier ones left it; 0 when it can be applied. */
static int check_one(const struct nhis_ctx *x, const struct adjustment *a, struct diag *d)
{
	if (a->kind != ADJUST_REMOVE && a->kind != ADJUST_STATUS) {
		node_error(d, at(a, "adjust"),
			"'adjust: %s' has no meaning in nhis ('remove' or 'status' expected)",
			adjust_kind_names[a->kind]);
		return -1;
	}
	int i = nhis_unit_find(x->s, a->unit);
	if (i < 0) {
		node_error(d, at(a, "unit"),
			"'%s' is not a unit of the scenario (a unit id expected)", a->unit);
		return -1;
	}
	const struct nhis_unit *u = &x->s->units[i];
	if (u->eliminated) {
		node_error(d, at(a, "unit"),
			"unit '%s' has been eliminated (a unit in play expected)", a->unit);
		return -1;
	}
	return a->kind == ADJUST_STATUS ? check_status(x, u, a, d) : 0;
}

int nhis_adjust_check(const struct rules_campaign *c, const void *state, const struct adjustment *v,
	size_t n, struct diag *d)
{
	const struct nhis_state *s = state;
	struct nhis_options def;
	const struct nhis_options *o = c ? c->options : NULL;
	if (!o) {
		nhis_options_default(&def);
		o = &def;
	}
	/* Adjustments change only the units' flags: a shallow copy of the units (sharing
	 * their ids) is enough to check each against what the earlier ones leave. */
	struct nhis_state copy = *s;
	copy.units = xcalloc(s->n_units ? s->n_units : 1, sizeof(*copy.units));
	if (s->n_units)
		memcpy(copy.units, s->units, s->n_units * sizeof(*copy.units));
	struct nhis_ctx x = { .s = &copy, .o = o };
	struct buf what = BUF_INIT;
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		if (check_one(&x, &v[i], d) < 0)
			rc = -1;
		else
			nhis_adjust_apply(c, &copy, &v[i], &what);
	}
	buf_release(&what);
	free(copy.units);
	return rc;
}

int nhis_adjust_apply(const struct rules_campaign *c, void *state, const struct adjustment *a,
	struct buf *what)
{
	struct nhis_state *s = state;
	int i = a->unit ? nhis_unit_find(s, a->unit) : -1;
	char hx[5];
	(void)c;
	if (i < 0)
		return -1;
	struct nhis_unit *u = &s->units[i];
	nhis_hex_name(u->hex, hx);
	if (a->kind == ADJUST_REMOVE) {
		/* as a unit eliminated by fire (fire.c) */
		u->eliminated = 1;
		u->shaken = 0;
		buf_printf(what, "%s in %s is eliminated", u->id, hx);
		return 0;
	}
	if (a->kind != ADJUST_STATUS)
		return -1;
	if (strcmp(a->status, "shaken") == 0) {
		u->shaken = a->value;
		buf_printf(what, "%s in %s is %s", u->id, hx,
			a->value ? "Shaken" : "Prepared (no longer Shaken)");
	} else if (strcmp(a->status, "reduced") == 0) {
		u->is_reduced = a->value;
		buf_printf(what, "%s in %s is %s", u->id, hx,
			a->value ? "reduced" : "back on its full side");
	} else
		return -1;
	return 0;
}
