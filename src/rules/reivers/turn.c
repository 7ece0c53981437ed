/* turn.c — the Border Reivers turn (Sequence of Play): the deck of side cards and the animal
 * card shuffled with the dice service, each side's groups activated in turn (morale, one
 * action, melee), held groups after the deck; and the rule system's registration. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/reivers/reivers.h"
#include "core/words.h"
#include "rules/lib/turns.h"
#include "core/banned.h"

#define MAX_SHOTS 256

/* What one turn's resolution carries from activation to activation. */
struct ctx {
	struct rv_state *s;
	const struct rv_options *o;
	const struct rules_campaign *c;
	struct rules_turn *t;
	const struct rv_orders *by_side[RV_MAX_SIDES]; /* NULL: no orders */
	struct table_pt shots[MAX_SHOTS];              /* firing this turn (§Herding -4) */
	size_t n_shots;
	struct table_pt melees[MAX_SHOTS]; /* melee fought or begun this turn (§Herding -2) */
	size_t n_melees;
	unsigned char fought[RV_MAX_MELEES]; /* melee already fought this turn */
	const struct rv_order **order;       /* by group: its side's order for it, or NULL */
	int none_hidden; /* no group hidden: a turn only reveals, so spotting is over */
};

static int in_group(const struct rv_state *s, int f, int g)
{
	return s->fig[f].gi == g;
}

static int group_alive(const struct rv_state *s, int g)
{
	for (size_t i = rv_first(s, g); i < s->n_fig; i = rv_next(s, i))
		if (!s->fig[i].dead && in_group(s, (int)i, g))
			return 1;
	return 0;
}

/* The figure whose position the group is measured from: its leader, else (leader dead or
 * stunned) its first living figure able to act (docs/rules/reivers.md). */
static int group_anchor(const struct rv_state *s, int g, int turn)
{
	int l = rv_group_leader(s, g);
	if (l >= 0 && s->fig[l].stunned_until < turn)
		return l;
	for (size_t i = rv_first(s, g); i < s->n_fig; i = rv_next(s, i))
		if (!s->fig[i].dead && in_group(s, (int)i, g) && s->fig[i].stunned_until < turn)
			return (int)i;
	return l >= 0 ? l : -1;
}

static void void_order(struct ctx *x, const struct rv_order *o, const char *fmt, const char *a)
{
	char text[300];
	snprintf(text, sizeof(text), fmt, a);
	events_void(x->t->events, "action", x->c->players[x->s->group[o->group].side], o->index,
		"%s: %s", x->s->group[o->group].id, text);
}

/* Moves the group's figures by the leader's displacement (or to their ordered places), each
 * kept within 6" of the leader (§Movement: measure for the leader, place the group). */
static void place_group(struct ctx *x, int g, int lead, struct table_pt from,
	const struct rv_order *o)
{
	struct rv_state *s = x->s;
	struct table_pt to = s->fig[lead].at;
	for (size_t i = rv_first(s, g); i < s->n_fig; i = rv_next(s, i)) {
		struct rv_figure *f = &s->fig[i];
		if ((int)i == lead || f->dead || !in_group(s, (int)i, g) ||
			f->stunned_until >= x->t->turn)
			continue;
		struct table_pt p = { f->at.x + to.x - from.x, f->at.y + to.y - from.y };
		for (size_t k = 0; o && k < o->n_place; k++)
			if (o->place[k].fig == (int)i)
				p = o->place[k].at;
		p = rv_on_table(s, p.x, p.y);
		if (!table_within(p, to, RV_GROUP_RADIUS)) {
			/* closes up to 6" of the leader, on the line from him */
			int64_t dx = p.x - to.x, dy = p.y - to.y;
			int64_t len = (int64_t)table_isqrt((uint64_t)(dx * dx + dy * dy));
			p.x = (int32_t)(to.x + dx * RV_GROUP_RADIUS / len);
			p.y = (int32_t)(to.y + dy * RV_GROUP_RADIUS / len);
		}
		/* Horses cannot jump: a rider the placing would carry over a fence or wall
		 * stays with his leader instead. */
		if (f->mounted && rv_obstacles_crossed(s, f->at, p) > 0)
			p = to;
		struct table_pt was = f->at;
		f->at = p;
		rv_face(f, was);
	}
}

/* §Movement: the leader follows the path with his movement roll; returns the distance note. */
static int move_group(struct ctx *x, int g, const struct table_pt *w, size_t n,
	const struct rv_order *o)
{
	struct rv_state *s = x->s;
	int lead = group_anchor(s, g, x->t->turn);
	if (lead < 0 || s->fig[lead].stunned_until >= x->t->turn) {
		events_add(x->t->events, "action", "%s cannot move (every figure is stunned)",
			s->group[g].id);
		return 0;
	}
	int roll = rv_move_roll(s, lead, x->t->dice);
	struct table_pt from = s->fig[lead].at, end;
	struct table_pt path[RV_MAX_PATH];
	memcpy(path, w, n * sizeof(*w));
	path[0] = from;
	int done = rv_move_along(s, path, n, roll, &end);
	s->fig[lead].at = end;
	rv_face(&s->fig[lead], from);
	place_group(x, g, lead, from, o);
	events_add(x->t->events, "action", "%s rolls %d\" of movement and %s at [%d, %d]",
		s->group[g].id, roll / RV_INCH, done ? "arrives" : "stops short", end.x, end.y);
	return done;
}

/* Where the ray from a (on the table) along (dx, dy) leaves the table: the nearer of its
 * crossings of the edges it runs towards, exactly on that edge (the other coordinate rounded
 * towards a, so on the table). (0, 0) runs up the table. */
static struct table_pt edge_point(const struct rv_state *s, struct table_pt a, int64_t dx,
	int64_t dy)
{
	if (dx == 0 && dy == 0)
		dy = 1;
	/* the ray reaches the vertical edge after tx = nx / |dx|, the horizontal after ny / |dy| */
	int64_t nx = dx < 0 ? a.x : s->width - a.x, ny = dy < 0 ? a.y : s->height - a.y;
	int64_t ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
	if (dy == 0 || (dx != 0 && nx * ay <= ny * ax))
		return (struct table_pt){ dx < 0 ? 0 : s->width, (int32_t)(a.y + dy * nx / ax) };
	return (struct table_pt){ (int32_t)(a.x + dx * ny / ay), dy < 0 ? 0 : s->height };
}

/* §Morale result by 3+: retreat a full move straight away from the nearest enemy. */
static void retreat(struct ctx *x, int g)
{
	struct rv_state *s = x->s;
	int lead = group_anchor(s, g, x->t->turn), near = -1;
	for (size_t i = 0; i < s->n_fig; i++)
		if (!s->fig[i].dead && s->fig[i].side != s->group[g].side &&
			!rv_hidden_from(s, (int)i, s->group[g].side) &&
			(near < 0 || table_dist2(s->fig[i].at, s->fig[lead].at) <
					     table_dist2(s->fig[near].at, s->fig[lead].at)))
			near = (int)i;
	if (near < 0)
		return;
	struct table_pt a = s->fig[lead].at, e = s->fig[near].at;
	struct table_pt w[2] = { a, edge_point(s, a, a.x - e.x, a.y - e.y) };
	if (w[1].x == a.x && w[1].y == a.y)
		return;
	events_add(x->t->events, "action", "%s retreats from %s", s->group[g].id, s->fig[near].id);
	move_group(x, g, w, 2, NULL);
}

/* §Herding -2: a melee at p (its defender's place) this turn. */
static void note_melee(struct ctx *x, struct table_pt p)
{
	if (x->n_melees < MAX_SHOTS)
		x->melees[x->n_melees++] = p;
}

static int in_cover(const struct rv_state *s, struct table_pt p)
{
	return rv_melee_cover(s, p) != RV_NO_MCOVER;
}

static void do_fire(struct ctx *x, int g, const struct rv_order *o)
{
	struct rv_state *s = x->s;
	int fired = 0, firearm = 0, turn = x->t->turn;
	struct table_pt where = { 0, 0 };
	for (size_t i = rv_first(s, g); i < s->n_fig; i = rv_next(s, i)) {
		struct rv_figure *f = &s->fig[i];
		if (f->dead || !in_group(s, (int)i, g) || f->stunned_until >= turn ||
			f->weapon == RV_HAND || f->reload > 0 || s->fig[o->target].dead)
			continue;
		struct table_pt at = f->at;
		int ruled, ruled_range, los = rv_fig_los(s, (int)i, o->target, &ruled);
		enum rv_band band = rv_fig_range(s, (int)i, o->target, &ruled_range);
		if (band == RV_BEYOND || !los) {
			events_add(x->t->events, "action", "%s has no shot at %s (%s%s)", f->id,
				s->fig[o->target].id,
				los ? "beyond long range" : "no line of sight",
				(!los && ruled) || (los && ruled_range) ?
					", by the umpire's ruling" :
					"");
			continue;
		}
		/* One spook test per volley, from its first firearm, or per discharge (option
		 * spook-test, docs/rules/reivers.md). */
		if (rv_weapons[f->weapon].firearm && !firearm) {
			firearm = 1;
			where = at;
		}
		fired = 1;
		rv_fire(s, x->o, (int)i, o->target, turn, x->t->dice, x->t->events);
		if (x->o->spook_each && rv_weapons[f->weapon].firearm)
			rv_spook(s, x->o, at, turn, x->t->dice, x->t->events);
		if (x->n_shots < MAX_SHOTS)
			x->shots[x->n_shots++] = at;
	}
	if (!fired)
		void_order(x, o, "no figure could shoot at %s (loaded, in range and in sight)",
			s->fig[o->target].id);
	else if (firearm && !x->o->spook_each)
		rv_spook(s, x->o, where, turn, x->t->dice, x->t->events);
}

static void do_load(struct ctx *x, int g)
{
	struct rv_state *s = x->s;
	for (size_t i = rv_first(s, g); i < s->n_fig; i = rv_next(s, i)) {
		struct rv_figure *f = &s->fig[i];
		if (f->dead || !in_group(s, (int)i, g) || f->reload == 0 ||
			f->loaded_turn == x->t->turn || f->stunned_until >= x->t->turn)
			continue;
		f->reload--;
		f->loaded_turn = x->t->turn;
		events_add(x->t->events, "action", "%s loads his %s (%s)", f->id,
			rv_weapon_names[f->weapon], f->reload ? "one more turn" : "ready to fire");
	}
}

static void do_aim(struct ctx *x, int g, const struct rv_order *o)
{
	struct rv_state *s = x->s;
	for (size_t i = rv_first(s, g); i < s->n_fig; i = rv_next(s, i)) {
		struct rv_figure *f = &s->fig[i];
		if (f->dead || !in_group(s, (int)i, g) || f->weapon == RV_HAND || f->reload > 0 ||
			f->stunned_until >= x->t->turn)
			continue;
		f->aim_turn = x->t->turn;
		events_add(x->t->events, "action", "%s takes aim at %s (+1 next turn)", f->id,
			s->fig[o->target].id);
	}
}

/* §Herding: base contact with every animal, the test, then the drive or the scatter. */
static void do_herd(struct ctx *x, int g, const struct rv_order *o)
{
	struct rv_state *s = x->s;
	int lead = group_anchor(s, g, x->t->turn);
	for (size_t k = 0; k < o->n_animals; k++) {
		int touch = 0;
		if (s->animal[o->animals[k]].gone) {
			void_order(x, o, "%s has been caught and is ridden",
				s->animal[o->animals[k]].id);
			return;
		}
		for (size_t i = rv_first(s, g); i < s->n_fig; i = rv_next(s, i))
			touch |= !s->fig[i].dead && in_group(s, (int)i, g) &&
				 table_within(s->fig[i].at, s->animal[o->animals[k]].at,
					 RV_CONTACT);
		if (!touch) {
			void_order(x, o, "not in base contact with %s (within 1\")",
				s->animal[o->animals[k]].id);
			return;
		}
	}
	/* Both read "this turn" (docs/rules/reivers.md): a melee going on, or fought or begun
	 * this turn and over since; any shot this turn. */
	int melee6 = 0, fire12 = 0;
	for (size_t m = 0; m < s->n_melee; m++)
		melee6 |= table_within(s->fig[s->melee[m].defender].at, s->fig[lead].at, 60);
	for (size_t k = 0; k < x->n_melees; k++)
		melee6 |= table_within(x->melees[k], s->fig[lead].at, 60);
	for (size_t k = 0; k < x->n_shots; k++)
		fire12 |= table_within(x->shots[k], s->fig[lead].at, 120);
	if (!rv_herd_test(x->o, (int)o->n_animals, melee6, fire12, rv_wounded(&s->fig[lead]),
		    x->t->dice, x->t->events)) {
		for (size_t k = 0; k < o->n_animals; k++)
			rv_animal_scatter(s, o->animals[k], 0, x->t->dice, x->t->events);
		return;
	}
	struct table_pt from = s->fig[lead].at;
	move_group(x, g, o->path, o->n_path, o);
	struct table_pt to = s->fig[lead].at;
	for (size_t k = 0; k < o->n_animals; k++) {
		/* A beast the drive would take past an edge stops at it (docs/rules/reivers.md
		 * §Herding Animals: umpire has no move off the table). */
		struct rv_animal_def *a = &s->animal[o->animals[k]];
		a->at = rv_on_table(s, (int64_t)a->at.x + to.x - from.x,
			(int64_t)a->at.y + to.y - from.y);
		a->owner = s->group[g].side;
	}
}

/* Remounting (docs/rules/reivers.md): every mounted figure of the group able to act gets down;
 * his horse stands loose beside him. */
static void do_dismount(struct ctx *x, int g, const struct rv_order *o)
{
	struct rv_state *s = x->s;
	int any = 0;
	for (size_t i = rv_first(s, g); i < s->n_fig; i = rv_next(s, i)) {
		struct rv_figure *f = &s->fig[i];
		if (f->dead || !f->mounted || !in_group(s, (int)i, g) ||
			f->stunned_until >= x->t->turn)
			continue;
		int a = rv_horse_loose(s, (int)i, 0);
		events_add(x->t->events, "action", "%s dismounts%s%s", f->id,
			a >= 0 ? "; his horse stands as " : " and his horse is lost",
			a >= 0 ? s->animal[a].id : "");
		any = 1;
	}
	if (!any)
		void_order(x, o, "%s", "no figure of the group is mounted and able to dismount");
}

/* Remounting: each figure of the group on foot catches a loose horse within 1": the one he
 * rode if it is there, else the nearest (the first listed of equals). */
static void do_remount(struct ctx *x, int g, const struct rv_order *o)
{
	struct rv_state *s = x->s;
	int any = 0;
	for (size_t i = rv_first(s, g); i < s->n_fig; i = rv_next(s, i)) {
		if (!in_group(s, (int)i, g))
			continue;
		char own[RV_ID_LEN + 1];
		snprintf(own, sizeof(own), "%.58s-horse", s->fig[i].id);
		int best = -1;
		for (size_t k = 0; k < s->n_animal; k++) {
			if (!rv_can_remount(s, x->o, (int)i, (int)k, x->t->turn))
				continue;
			if (strcmp(s->animal[k].id, own) == 0) {
				best = (int)k;
				break;
			}
			if (best < 0 || table_dist2(s->fig[i].at, s->animal[k].at) <
						table_dist2(s->fig[i].at, s->animal[best].at))
				best = (int)k;
		}
		if (best >= 0) {
			rv_remount(s, (int)i, best, x->t->events);
			any = 1;
		}
	}
	if (!any)
		void_order(x, o, "%s",
			"no figure of the group on foot and able to act is within 1\" of a loose "
			"horse standing still (not spooked)");
}

/* Loose horses caught this turn leave the animals (their riders have them). */
static void drop_caught_horses(struct rv_state *s)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n_animal; i++)
		if (!s->animal[i].gone)
			s->animal[n++] = s->animal[i];
	s->n_animal = n;
}

static void do_charge(struct ctx *x, int g, const struct rv_order *o);

/* The action of an activation, as the group's morale allows (§Morale results). */
static void act(struct ctx *x, int g, const struct rv_order *o)
{
	struct rv_state *s = x->s;
	struct rv_group *gr = &s->group[g];
	int limited = gr->morale == RV_SHAKEN || gr->leader_killed;
	if (gr->morale == RV_BROKEN) {
		if (o && o->action != RV_NONE)
			void_order(x, o, "%s", "broken: it retreats a full move instead");
		retreat(x, g);
		return;
	}
	if (!o)
		return;
	if (limited && (o->action == RV_HERD || o->action == RV_CHARGE || o->action == RV_AIM ||
			       o->action == RV_DISMOUNT || o->action == RV_REMOUNT ||
			       (o->action == RV_MOVE && !in_cover(s, o->path[o->n_path - 1])))) {
		void_order(x, o, "%s",
			gr->leader_killed ? "leaderless: load, fire or retreat to cover only" :
					    "shaken: load, fire or retreat to cover only");
		return;
	}
	switch (o->action) {
	case RV_MOVE:
		move_group(x, g, o->path, o->n_path, o);
		break;
	case RV_HERD:
		do_herd(x, g, o);
		break;
	case RV_CHARGE:
		do_charge(x, g, o);
		break;
	case RV_LOAD:
		do_load(x, g);
		break;
	case RV_FIRE:
		do_fire(x, g, o);
		break;
	case RV_AIM:
		do_aim(x, g, o);
		break;
	case RV_DISMOUNT:
		do_dismount(x, g, o);
		break;
	case RV_REMOUNT:
		do_remount(x, g, o);
		break;
	default:
		break;
	}
}

/* Where a charger from a stops in base contact with a figure at t: half an inch short of it on
 * the line from a (where he is, if nearer already). */
static struct table_pt contact_point(struct table_pt a, struct table_pt t)
{
	int64_t dx = a.x - t.x, dy = a.y - t.y;
	int64_t len = (int64_t)table_isqrt((uint64_t)(dx * dx + dy * dy));
	if (len <= RV_CONTACT / 2)
		return a;
	return (struct table_pt){ (int32_t)(t.x + dx * (RV_CONTACT / 2) / len),
		(int32_t)(t.y + dy * (RV_CONTACT / 2) / len) };
}

/* §Charging: the attacker tests (unless it passed this turn), the defender tests, then the
 * charge move; contact starts a melee of up to 3 attackers on the target. */
static void do_charge(struct ctx *x, int g, const struct rv_order *o)
{
	struct rv_state *s = x->s;
	int turn = x->t->turn, tgt = o->target;
	if (s->fig[tgt].dead) {
		void_order(x, o, "the target %s is dead", s->fig[tgt].id);
		return;
	}
	/* A tie fights on (§Melee): charging the same figure again starts no second melee. */
	for (size_t m = 0; m < s->n_melee; m++)
		for (int k = 0; k < 3 && s->melee[m].defender == tgt; k++)
			if (s->melee[m].attackers[k] >= 0 &&
				in_group(s, s->melee[m].attackers[k], g)) {
				void_order(x, o, "already in melee with %s: the melee is fought on",
					s->fig[tgt].id);
				return;
			}
	/* §Morale: failing by 3+ the attacker retreats a full move at once, as a defender does. */
	if (s->group[g].passed_turn != turn) {
		int margin = rv_morale_test(s, g, turn, x->t->dice, x->t->events, "to charge");
		if (margin >= 3)
			retreat(x, g);
		if (margin > 0)
			return;
	}
	int lead = group_anchor(s, g, x->t->turn);
	int dg = s->fig[tgt].gi;
	struct table_pt w[2] = { s->fig[lead].at, s->fig[tgt].at };
	if (s->fig[lead].mounted && rv_obstacles_crossed(s, w[0], w[1]) > 0) {
		void_order(x, o, "%s",
			"a fence or wall lies across the charge (horses cannot jump)");
		return;
	}
	if (dg >= 0 &&
		rv_morale_test(s, dg, turn, x->t->dice, x->t->events, "to receive a charge") >= 3)
		retreat(x, dg);
	w[1] = contact_point(s->fig[lead].at, s->fig[tgt].at);
	if (!move_group(x, g, w, 2, o) &&
		!table_within(s->fig[lead].at, s->fig[tgt].at, RV_CONTACT)) {
		events_add(x->t->events, "action", "%s%s charge falls short of %s", s->group[g].id,
			words_possessive(s->group[g].id), s->fig[tgt].id);
		return;
	}
	if (s->n_melee == RV_MAX_MELEES)
		return;
	struct rv_melee *m = &s->melee[s->n_melee++];
	m->attackers[0] = lead;
	m->attackers[1] = m->attackers[2] = -1;
	m->defender = tgt;
	m->started = turn;
	note_melee(x, s->fig[tgt].at);
	for (size_t i = rv_first(s, g), k = 1; i < s->n_fig && k < 3; i = rv_next(s, i))
		if ((int)i != lead && !s->fig[i].dead && in_group(s, (int)i, g) &&
			s->fig[i].stunned_until < turn &&
			table_within(s->fig[i].at, s->fig[tgt].at, RV_GROUP_RADIUS)) {
			m->attackers[k++] = (int)i;
			struct table_pt was = s->fig[i].at;
			s->fig[i].at = contact_point(s->fig[i].at, s->fig[tgt].at);
			rv_face(&s->fig[i], was);
		}
	events_add(x->t->events, "action", "%s charges into contact with %s", s->group[g].id,
		s->fig[tgt].id);
}

/* §Melee phase of an activation: every melee the group is in, once a turn each. */
static void melee_phase(struct ctx *x, int g)
{
	struct rv_state *s = x->s;
	for (size_t m = 0; m < s->n_melee;) {
		struct rv_melee *me = &s->melee[m];
		int mine = in_group(s, me->defender, g);
		for (int k = 0; k < 3; k++)
			mine |= me->attackers[k] >= 0 && in_group(s, me->attackers[k], g);
		if (!mine || x->fought[m]) {
			m++;
			continue;
		}
		const struct rv_orders *ao = x->by_side[s->fig[me->attackers[0]].side];
		note_melee(x, s->fig[me->defender].at);
		int r = rv_melee_round(s, me, x->t->turn, ao && ao->stun, x->t->dice, x->t->events);
		if (r == 0) {
			x->fought[m++] = 1;
			continue;
		}
		memmove(me, me + 1, (s->n_melee - m - 1) * sizeof(*me));
		memmove(&x->fought[m], &x->fought[m + 1], s->n_melee - m - 1);
		s->n_melee--;
	}
}

static void appoint(struct ctx *x, const struct rv_order *o)
{
	struct rv_state *s = x->s;
	int side = s->group[o->group].side, h = s->heidman[side];
	if (o->appoint < 0)
		return;
	if (h < 0 || s->fig[h].dead || s->fig[o->appoint].dead ||
		!table_within(s->fig[h].at, s->fig[o->appoint].at, RV_GROUP_RADIUS)) {
		void_order(x, o, "the heidman is not within 6\" of %s to name him leader",
			s->fig[o->appoint].id);
		return;
	}
	s->fig[o->appoint].role = RV_LEADER;
	s->group[o->appoint_group].leader_killed = 0;
	events_add(x->t->events, "morale", "the heidman names %s leader of %s",
		s->fig[o->appoint].id, s->group[o->appoint_group].id);
}

/* One group's activation: morale, then one action (and a new leader named), then melee
 * (§Sequence of Play). */
static void activate(struct ctx *x, int g, const struct rv_order *o)
{
	struct rv_state *s = x->s;
	struct rv_group *gr = &s->group[g];
	if (gr->hidden && !o)
		return; /* lying hidden: nothing it does is seen, nothing is due */
	if (gr->hidden && !o->hold)
		rv_reveal(s, g, x->t->events, "it acts on its card");
	if (!group_alive(s, g)) {
		if (o)
			void_order(x, o, "%s", "no figure of the group is left");
		return;
	}
	if (gr->unchecked > 0)
		rv_morale_test(s, g, x->t->turn, x->t->dice, x->t->events, "casualties");
	else if (gr->morale == RV_BROKEN)
		rv_morale_test(s, g, x->t->turn, x->t->dice, x->t->events, "to rally");
	else
		gr->morale = RV_STEADY;
	act(x, g, o);
	/* After the action: the heidman comes within 6", then names the new leader. */
	if (o)
		appoint(x, o);
	melee_phase(x, g);
}

static const struct rv_order *order_of(const struct ctx *x, int g)
{
	return x->order[g];
}

/* x->order: each group's order, the first for it in its own side's order file (a turn of
 * 9,600 orders looks each up once, not by a scan of its side's orders). */
static void index_orders(struct ctx *x)
{
	const struct rv_state *s = x->s;
	x->order = xcalloc(s->n_group ? s->n_group : 1, sizeof(*x->order));
	for (size_t side = 0; side < RV_MAX_SIDES; side++) {
		const struct rv_orders *os = x->by_side[side];
		for (size_t i = 0; os && i < os->n; i++) {
			int g = os->v[i].group;
			if (g >= 0 && (size_t)g < s->n_group && s->group[g].side == (int)side &&
				!x->order[g])
				x->order[g] = &os->v[i];
		}
	}
}

/* §Sequence of Play, hidden groups (docs/rules/reivers.md): a hidden group is seen, and so
 * revealed, when a figure of another side able to act (alive, not stunned, not hidden
 * itself) stands within spot-range of one of its figures with a line of sight to him. */
static void spot(struct ctx *x)
{
	struct rv_state *s = x->s;
	int turn = x->t->turn;
	size_t hidden = 0;
	if (x->none_hidden)
		return;
	for (size_t g = 0; g < s->n_group; g++)
		hidden += s->group[g].hidden != 0;
	/* Nothing in a turn hides a group (setup and the state do): none now, none later. */
	x->none_hidden = hidden == 0;
	for (size_t h = 0; h < s->n_fig && hidden && x->o->spot_range > 0; h++) {
		const struct rv_figure *hf = &s->fig[h];
		int g = hf->gi;
		if (hf->dead || g < 0 || !s->group[g].hidden)
			continue;
		for (size_t e = 0; e < s->n_fig; e++) {
			const struct rv_figure *ef = &s->fig[e];
			if (ef->dead || ef->side == hf->side || ef->stunned_until >= turn ||
				rv_hidden_from(s, (int)e, hf->side) ||
				!table_within(ef->at, hf->at, x->o->spot_range) ||
				!rv_fig_los(s, (int)e, (int)h, NULL))
				continue;
			char how[2 * RV_ID_LEN + 40];
			snprintf(how, sizeof(how), "%s sees %s", ef->id, hf->id);
			rv_reveal(s, g, x->t->events, how);
			break;
		}
	}
}

/* The animal card: spooked animals settle. A spooked animal galloped once, when it was
 * spooked (§Firing, "spooked and gallop 2d6 in random direction"): the card does not run it
 * again (docs/rules/reivers.md). */
static void animal_card(struct ctx *x)
{
	struct rv_state *s = x->s;
	for (size_t i = 0; i < s->n_animal; i++)
		if (s->animal[i].spooked && !s->animal[i].gone) {
			s->animal[i].spooked = 0;
			events_add(x->t->events, "action", "%s settles", s->animal[i].id);
		}
}

/* docs/rules/reivers.md "Hold orders": no group has an order, so each still takes its
 * morale test on its card and fights in contact (§Sequence of Play, §Morale, §Melee); the
 * stun order lasts one file, so there is nothing standing to set aside. */
static int rv_hold_orders(void **out, const struct rules_campaign *c, const void *state, int turn,
	const char *player)
{
	struct rv_orders *o = xcalloc(1, sizeof(*o));
	(void)state;
	(void)turn;
	o->side = rv_side_of(c, player);
	if (o->side < 0) {
		free(o);
		return -1;
	}
	*out = o;
	return 0;
}

int rv_resolve(const struct rules_campaign *c, void *state, struct rules_turn *t)
{
	struct ctx *x = xcalloc(1, sizeof(*x));
	struct rv_state *s = state;
	size_t perm[RV_MAX_SIDES + 1], m = c->n_players + 1;
	x->s = s;
	x->o = c->options;
	x->c = c;
	x->t = t;
	for (size_t i = 0; i < t->n_orders; i++) {
		const struct rv_orders *o = t->orders[i].orders;
		if (o)
			x->by_side[o->side] = o;
	}
	index_orders(x);
	for (size_t i = 0; i < m; i++)
		perm[i] = i;
	spot(x);
	dice_shuffle(t->dice, perm, m, "Border Reivers §Sequence of Play: the deck of cards");
	buf_puts(&t->summary, "cards");
	for (size_t k = 0; k < m; k++) {
		int side = (int)perm[k];
		buf_printf(&t->summary, " %s",
			side == (int)c->n_players ? "animals" : c->players[side]);
		events_add(t->events, "cards", "the %s card",
			side == (int)c->n_players ? "animal" : c->players[side]);
		if (side == (int)c->n_players) {
			animal_card(x);
			continue;
		}
		for (size_t g = 0; g < s->n_group; g++) {
			const struct rv_order *o = order_of(x, (int)g);
			if (s->group[g].side == side && !(o && o->hold)) {
				activate(x, (int)g, o);
				spot(x);
			}
		}
	}
	for (size_t g = 0; g < s->n_group; g++) {
		const struct rv_order *o = order_of(x, (int)g);
		if (o && o->hold) {
			events_add(t->events, "cards", "%s acts from hiding", s->group[g].id);
			s->group[g].hidden = 0;
			activate(x, (int)g, o);
			spot(x);
		}
	}
	s->n_ruled = 0; /* the umpire's rulings on sight, cover and range hold for this turn only */
	drop_caught_horses(s);
	free(x->order);
	free(x);
	return 0;
}

static int rv_player_due(const struct rules_campaign *c, const void *state, int turn,
	const char *player)
{
	(void)state;
	(void)turn;
	for (size_t i = 0; i < c->n_players; i++)
		if (strcmp(c->players[i], player) == 0)
			return 1;
	return 0;
}

static int rv_game_over(const struct rules_campaign *c, const void *state, int turn,
	const char **why)
{
	const struct rv_state *s = state;
	(void)c;
	return turns_last_played(s->turns, turn, why);
}

const struct rule_system rules_reivers = {
	.version = RULES_INTERFACE_VERSION,
	.name = "reivers",
	.title = "Border Reivers skirmish",
	.revision = 4,
	.flags = RULES_SIMULTANEOUS | RULES_MEASURED | RULES_PRIVATE,
	.min_players = 2,
	.max_players = RV_MAX_SIDES,
	.help = "A measured table in tenths of an inch ([x, y], 10 = 1\"). Every side sends orders\n"
		"every turn; a deck of a card per side and the animal card decides who acts when.\n"
		"orders: a list, at most one per group:\n"
		"  group: ID               the group\n"
		"  move: [[x, y], ...]     the leader's path (2d6\" foot, 3d6\" horse)\n"
		"  herd: [ANIMAL, ...]     with path: [[x, y], ...]: drive animals in contact\n"
		"  charge: FIGURE          charge an enemy figure (morale tests, then melee)\n"
		"  load: true              one Load action (firearms and latches need two)\n"
		"  fire: FIGURE            every loaded shooter of the group fires at it\n"
		"  aim: FIGURE             take aim: +1 to next turn's shots\n"
		"  dismount: true          riders get down; their horses stand loose beside them\n"
		"  remount: true           figures on foot catch loose horses within 1\" and mount\n"
		"  place: {FIGURE: [x, y]} with move or herd: where followers stand (within 6\")\n"
		"  hold: true              a hidden group acts after the deck\n"
		"  appoint: {group: ID, leader: FIGURE}  the heidman names a new leader\n"
		"standing:\n"
		"  stun: true              your attackers stun rather than wound in melee\n"
		"umpire adjustments: los (from, to, value: true clear / false blocked), cover\n"
		"  (from, to, grade: none|part|whole) and range (from, to, band:\n"
		"  close|long|beyond), figures' ids, for this turn only.\n"
		"options: spook-first (game|horse), spook-test (volley|discharge), herd-die (d10|d6),\n"
		"  remount-horses (any|own), spot-range (inches: a hidden group is seen within it).\n"
		"See docs/rules/reivers.md.",
	.options_parse = rv_options_parse,
	.options_emit = rv_options_emit,
	.options_free = rv_options_free,
	.state_parse = rv_state_parse,
	.state_emit = rv_state_emit,
	.state_free = rv_state_free,
	.player_due = rv_player_due,
	.game_over = rv_game_over,
	.orders_parse = rv_orders_parse,
	.orders_free = rv_orders_free,
	.resolve = rv_resolve,
	.report = rv_report,
	.state_view = rv_state_view,
	.draw_map = rv_map,
	.adjust_check = rv_adjust_check,
	.adjust_apply = rv_adjust_apply,
	.orders_template = rv_orders_template,
	.result = rv_result,
	.victory = rv_victory,
	.hold_orders = rv_hold_orders,
	.state_clone = rv_state_clone,
	.map_as_public = rv_map_as_public,
};
