/* mechanics.c — the Border Reivers mechanics one rule at a time: morale by class, the movement
 * roll with the road bonus die, firing (weapons table, aim, close range, cover, armour
 * ricochet), horses spooked by firearms and thrown riders, wounds and stun, melee rounds and
 * herding. Every die goes through the dice service with the rule in its purpose. */
#include <stdio.h>
#include <string.h>

#include "rules/reivers/reivers.h"
#include "core/banned.h"

#define PH "action"

static int in_group(const struct rv_state *s, int f, int g)
{
	return s->fig[f].gi == g;
}

int rv_wounded(const struct rv_figure *f)
{
	return !f->dead &&
	       ((f->role == RV_HEIDMAN && f->hits >= 2) || (f->role != RV_HEIDMAN && f->hits >= 1));
}

static int d10(struct dice *d, const char *what, const char *who)
{
	return (int)dice_roll(d, 10, "Border Reivers %s: %s (d10)", what, who);
}

int rv_morale_target(const struct rv_state *s, int g)
{
	static const int base[] = { 7, 8, 9, 10 };
	const struct rv_group *gr = &s->group[g];
	int lead = rv_group_leader(s, g), cls = -1;
	for (size_t i = rv_first(s, g); i < s->n_fig; i = rv_next(s, i))
		if (!s->fig[i].dead && in_group(s, (int)i, g) && (int)s->fig[i].cls > cls &&
			(lead < 0 || (int)i == lead))
			cls = (int)s->fig[i].cls;
	if (cls < 0)
		return 0;
	int t = base[cls] - gr->lost - gr->leader_killed;
	int h = s->heidman[gr->side];
	if (h >= 0 && s->fig[h].dead)
		t -= 2;
	int at = lead >= 0 ? lead : -1;
	for (size_t i = rv_first(s, g); at < 0 && i < s->n_fig; i = rv_next(s, i))
		if (!s->fig[i].dead && in_group(s, (int)i, g))
			at = (int)i;
	if (at >= 0 && rv_melee_cover(s, s->fig[at].at) != RV_NO_MCOVER)
		t += 1;
	if (at >= 0 && h >= 0 && !s->fig[h].dead && !in_group(s, h, g) &&
		table_within(s->fig[h].at, s->fig[at].at, RV_GROUP_RADIUS))
		t += 2;
	return t;
}

int rv_morale_test(struct rv_state *s, int g, int turn, struct dice *d, struct events *e,
	const char *why)
{
	struct rv_group *gr = &s->group[g];
	int target = rv_morale_target(s, g), lead = rv_group_leader(s, g);
	char who[160];
	snprintf(who, sizeof(who), "morale of %s (%s, needs %d or less)", gr->id, why, target);
	int roll = d10(d, "§Morale", who);
	int pen = lead >= 0 && rv_wounded(&s->fig[lead]);
	int margin = roll + pen - target;
	gr->unchecked = 0;
	if (margin <= 0) {
		gr->morale = RV_STEADY;
		gr->passed_turn = turn;
		events_add(e, "morale",
			"%s tests morale (%s): rolls %d%s, needs %d or less: passes", gr->id, why,
			roll, pen ? " +1 wounded leader" : "", target);
		return 0;
	}
	gr->morale = margin <= 2 ? RV_SHAKEN : RV_BROKEN;
	events_add(e, "morale",
		"%s tests morale (%s): rolls %d%s, needs %d or less: fails by %d, %s", gr->id, why,
		roll, pen ? " +1 wounded leader" : "", target, margin,
		margin <= 2 ? "load, fire or retreat to cover only" :
			      "retreats a full move until it passes");
	return margin;
}

int rv_move_roll(const struct rv_state *s, int f, struct dice *d)
{
	const struct rv_figure *fg = &s->fig[f];
	int n = fg->mounted ? 3 : 2, road = rv_on_road(s, fg->at), v[4], sum = 0, low = 7;
	dice_roll_many(d, n + road, 6, v, "Border Reivers §Movement: %s moves (%dd6%s%s)", fg->id,
		n, road ? " + road d6, lowest dropped" : "", rv_wounded(fg) ? " -1 wounded" : "");
	for (int i = 0; i < n + road; i++) {
		sum += v[i];
		if (v[i] < low)
			low = v[i];
	}
	if (road)
		sum -= low;
	/* §Wounds: a wounded figure's roll is 1 less (1", never below 0). */
	if (rv_wounded(fg) && sum > 0)
		sum--;
	return sum * RV_INCH;
}

/* §Firing: the armour ricochet roll (metal items: helmet, back/breast, plates). 1 if saved. */
static int ricochet(const struct rv_figure *t, struct dice *d, struct events *e)
{
	int metal = t->armour[RV_HELMET] + t->armour[RV_BREAST] + t->armour[RV_PLATES];
	if (metal == 0)
		return 0;
	int pen = rv_wounded(t);
	int r = (int)dice_roll(d, 10,
		"Border Reivers §Firing: armour of %s (d10%s <= %d ricochets)", t->id,
		pen ? " +1 wounded" : "", metal);
	events_add(e, PH, "%s's armour: rolls %d%s against %d: %s", t->id, r,
		pen ? " +1 wounded" : "", metal,
		r + pen <= metal ? "the shot ricochets" : "no save");
	return r + pen <= metal;
}

int rv_fire(struct rv_state *s, const struct rv_options *o, int f, int t, int turn, struct dice *d,
	struct events *e)
{
	struct rv_figure *fg = &s->fig[f], *tg = &s->fig[t];
	const struct rv_weapon_row *w = &rv_weapons[fg->weapon];
	(void)o;
	if (fg->weapon == RV_HAND || fg->reload > 0 || tg->dead) {
		events_add(e, PH, "%s cannot shoot at %s (%s)", fg->id, tg->id,
			tg->dead ? "the target is dead" : "no loaded missile weapon");
		return 0;
	}
	int ruled_los, ruled_cover, ruled_range, los = rv_fig_los(s, f, t, &ruled_los);
	enum rv_band band = rv_fig_range(s, f, t, &ruled_range);
	if (band == RV_BEYOND || !los) {
		events_add(e, PH, "%s has no shot at %s (%s%s)", fg->id, tg->id,
			los ? "beyond long range" : "no line of sight",
			(!los && ruled_los) || (los && ruled_range) ? ", by the umpire's ruling" :
								      "");
		return 0;
	}
	int aim = fg->aim_turn == turn - 1 && fg->aim_turn > 0;
	int close = band == RV_CLOSE;
	int cover = (int)rv_fig_cover(s, f, t, &ruled_cover);
	int pen = rv_wounded(fg);
	int r = (int)dice_roll(d, 10,
		"Border Reivers §Firing: %s (%s) at %s (d10 %+d aim %+d close -%d cover -%d wound, "
		"9 hits)",
		fg->id, rv_weapon_names[fg->weapon], tg->id, aim, close, cover, pen);
	int total = r + aim + close - cover - pen;
	fg->reload = w->reload;
	fg->aim_turn = 0;
	events_add(e, PH, "%s fires %s at %s%s%s: rolls %d%s%s%s%s%s = %d: %s", fg->id,
		rv_weapon_names[fg->weapon], tg->id,
		ruled_los ? " (sight by the umpire's ruling)" : "",
		!ruled_range ? "" :
		close        ? " (close range by the umpire's ruling)" :
			       " (long range by the umpire's ruling)",
		r, aim ? " +1 aim" : "", close ? " +1 close" : "",
		cover == 2 ? " -2 whole cover" :
		cover      ? " -1 part cover" :
			     "",
		ruled_cover ? " (the umpire's ruling)" : "", pen ? " -1 wounded" : "", total,
		total >= 9 ? "hit" : "miss");
	if (total < 9 || ricochet(tg, d, e))
		return 0;
	rv_hit(s, t, 0, turn, e);
	return 1;
}

/* §Firing: a spooked horse (rider f, or -1 and loose horse a) gallops 2d6" and may throw. */
static void gallop_rider(struct rv_state *s, int f, int turn, struct dice *d, struct events *e)
{
	struct rv_figure *fg = &s->fig[f];
	int v[2];
	int dist = dice_roll_many(d, 2, 6, v, "Border Reivers §Firing: %s's horse gallops (2d6\")",
		fg->id);
	int hour = (int)dice_roll(d, 12, "Border Reivers §Firing: %s's horse gallops (d12 clock)",
		fg->id);
	struct table_pt from = fg->at;
	fg->at = rv_clock_step(s, fg->at, hour, dist * RV_INCH);
	rv_face(fg, from);
	int pen = rv_wounded(fg);
	int thrown = (int)dice_roll(d, 10, "Border Reivers §Firing: is %s thrown (d10%s <= 3)",
		fg->id, pen ? " -1 wounded" : "");
	events_add(e, PH, "%s's horse bolts %d\" towards %d o'clock; throw roll %d%s: %s", fg->id,
		dist, hour, thrown, pen ? " -1 wounded" : "",
		thrown - pen <= 3 ? "thrown and stunned next turn" : "keeps his seat");
	if (thrown - pen <= 3) {
		fg->stunned_until = turn + 1;
		rv_horse_loose(s, f, 1);
	}
}

/* 1 if id is taken by a figure or by an animal still on the table. */
static int id_taken(const struct rv_state *s, const char *id)
{
	for (size_t i = 0; i < s->n_animal; i++)
		if (!s->animal[i].gone && strcmp(s->animal[i].id, id) == 0)
			return 1;
	return rv_figure_find(s, id) >= 0;
}

int rv_horse_loose(struct rv_state *s, int f, int spooked)
{
	struct rv_figure *fg = &s->fig[f];
	char id[RV_ID_LEN + 1];
	fg->mounted = 0;
	if (fg->horse[0])
		snprintf(id, sizeof(id), "%s", fg->horse);
	else
		snprintf(id, sizeof(id), "%.58s-horse", fg->id);
	fg->horse[0] = '\0';
	size_t len = strlen(id);
	for (int k = 2; id_taken(s, id) && k < 1000; k++)
		snprintf(id + (len > 60 ? 60 : len), sizeof(id) - (len > 60 ? 60 : len), "-%d", k);
	if (s->n_animal >= RV_MAX_ANIMALS || id_taken(s, id))
		return -1;
	struct rv_animal_def *a = &s->animal[s->n_animal];
	memset(a, 0, sizeof(*a));
	snprintf(a->id, sizeof(a->id), "%s", id);
	a->kind = RV_HORSE;
	a->spooked = spooked;
	a->owner = fg->side;
	a->at = fg->at;
	return (int)s->n_animal++;
}

int rv_can_remount(const struct rv_state *s, const struct rv_options *o, int f, int a, int turn)
{
	const struct rv_figure *fg = &s->fig[f];
	const struct rv_animal_def *an = &s->animal[a];
	return !fg->dead && !fg->mounted && fg->stunned_until < turn && an->kind == RV_HORSE &&
	       !an->gone && !an->spooked &&
	       (!o->remount_own || an->owner < 0 || an->owner == fg->side) &&
	       table_within(fg->at, an->at, RV_CONTACT);
}

void rv_remount(struct rv_state *s, int f, int a, struct events *e)
{
	struct rv_figure *fg = &s->fig[f];
	struct rv_animal_def *an = &s->animal[a];
	char own[RV_ID_LEN + 1];
	snprintf(own, sizeof(own), "%.58s-horse", fg->id);
	fg->mounted = 1;
	snprintf(fg->horse, sizeof(fg->horse), "%s", strcmp(an->id, own) == 0 ? "" : an->id);
	an->gone = 1;
	events_add(e, PH, "%s catches %s and mounts%s", fg->id, an->id,
		an->owner >= 0 && an->owner != fg->side ? " (a horse lifted from the enemy)" : "");
}

void rv_reveal(struct rv_state *s, int g, struct events *e, const char *how)
{
	if (g < 0 || !s->group[g].hidden)
		return;
	s->group[g].hidden = 0;
	events_add(e, "cards", "%s is revealed: %s", s->group[g].id, how);
}

void rv_spook(struct rv_state *s, const struct rv_options *o, struct table_pt p, int turn,
	struct dice *d, struct events *e)
{
	size_t n_fig = s->n_fig, n_animal = s->n_animal;
	for (size_t i = 0; i < n_fig; i++) {
		struct rv_figure *fg = &s->fig[i];
		if (fg->dead || !fg->mounted || !table_within(fg->at, p, RV_SPOOK_RANGE))
			continue;
		rv_reveal(s, rv_group_find(s, fg->side, fg->group), e,
			"its horses are within 9\" of the discharge");
		int first = o->spook_first == RV_FIRST_HORSE ? !fg->horse_spooked : !s->discharged;
		int need = first ? 7 : 4;
		int r = (int)dice_roll(d, 10,
			"Border Reivers §Firing: %s's horse spooks (d10 <= %d)", fg->id, need);
		fg->horse_spooked = 1;
		if (r > need) {
			events_add(e, PH, "%s's horse: rolls %d against %d: steady", fg->id, r,
				need);
			continue;
		}
		events_add(e, PH, "%s's horse: rolls %d against %d: spooked", fg->id, r, need);
		gallop_rider(s, (int)i, turn, d, e);
	}
	for (size_t i = 0; i < n_animal; i++) {
		struct rv_animal_def *a = &s->animal[i];
		if (a->kind != RV_HORSE || a->gone || !table_within(a->at, p, RV_SPOOK_RANGE))
			continue;
		int need = !s->discharged ? 7 : 4;
		int r = (int)dice_roll(d, 10, "Border Reivers §Firing: horse %s spooks (d10 <= %d)",
			a->id, need);
		events_add(e, PH, "horse %s: rolls %d against %d: %s", a->id, r, need,
			r <= need ? "spooked" : "steady");
		if (r <= need) {
			a->spooked = 1;
			rv_animal_scatter(s, (int)i, 1, d, e);
		}
	}
	s->discharged = 1;
}

static void kill(struct rv_state *s, int f, struct events *e)
{
	struct rv_figure *fg = &s->fig[f];
	int g = fg->gi;
	fg->dead = 1;
	events_add(e, PH, "%s is killed", fg->id);
	/* His horse stands loose where he fell, to be caught or herded (docs/rules/reivers.md,
	 * "Horses and their riders"). */
	if (fg->mounted) {
		int a = rv_horse_loose(s, f, 0);
		if (a >= 0)
			events_add(e, PH, "%s's horse %s stands loose", fg->id, s->animal[a].id);
	}
	if (g < 0)
		return;
	s->group[g].lost++;
	s->group[g].unchecked++;
	if (fg->role != RV_FIGURE && rv_group_leader(s, g) < 0) {
		s->group[g].leader_killed = 1;
		events_add(e, PH,
			"%s has lost its leader: load, fire or retreat to cover only "
			"until the heidman names another",
			s->group[g].id);
	}
}

void rv_hit(struct rv_state *s, int f, int stun, int turn, struct events *e)
{
	struct rv_figure *fg = &s->fig[f];
	if (stun) {
		fg->stunned_until = turn + 1;
		events_add(e, PH, "%s is stunned (out of action until the end of turn %d)", fg->id,
			turn + 1);
		return;
	}
	fg->hits++;
	int dies = fg->role == RV_HEIDMAN ? 3 : fg->role == RV_LEADER ? 2 : 1;
	if (fg->hits >= dies) {
		kill(s, f, e);
		return;
	}
	/* A wound is a casualty for the morale test; a hole in the sleeve is not. */
	int g = fg->gi;
	if (g >= 0 && !(fg->role == RV_HEIDMAN && fg->hits == 1))
		s->group[g].unchecked++;
	events_add(e, PH, "%s takes %s", fg->id,
		fg->role == RV_HEIDMAN && fg->hits == 1 ?
			"a flesh wound (a hole in the sleeve: no effect)" :
			"a wound (-1 to all later rolls; the next hit kills)");
}

/* §Melee modifiers for one side's roll. */
static int melee_mods(const struct rv_state *s, const int *figs, int n, int charging, int def,
	char *why, size_t len)
{
	int cav = 0, lead = 0, mod = 0;
	for (int i = 0; i < n; i++) {
		cav |= s->fig[figs[i]].mounted;
		lead |= s->fig[figs[i]].role != RV_FIGURE;
	}
	int pen = rv_wounded(&s->fig[figs[0]]);
	int cover = def ? (int)rv_melee_cover(s, s->fig[figs[0]].at) : 0;
	mod = charging + cav + lead - (n - 1) + cover - pen;
	snprintf(why, len, "%s%s%s%s%s%s", charging ? " +1 charging" : "", cav ? " +1 cavalry" : "",
		lead ? " +1 leader" : "",
		n > 1 ? (n == 2 ? " -1 extra attacker" : " -2 extra attackers") : "",
		cover == 2 ? " +2 hard cover" :
		cover      ? " +1 soft cover" :
			     "",
		pen ? " -1 wounded" : "");
	return mod;
}

void rv_face(struct rv_figure *f, struct table_pt from)
{
	if (f->at.x == from.x && f->at.y == from.y)
		return;
	f->face_dx = f->at.x - from.x;
	f->face_dy = f->at.y - from.y;
}

int rv_in_front(const struct rv_figure *f, struct table_pt p)
{
	if (f->face_dx == 0 && f->face_dy == 0)
		return 1;
	return (int64_t)(p.x - f->at.x) * f->face_dx + (int64_t)(p.y - f->at.y) * f->face_dy > 0;
}

/* §Melee: the target's armour roll, d10 <= 2 per item (shield: front only, so only when
 * every attacker att[0..n-1] stands in front of him), the roll 1 worse for a wounded target
 * (§Wounds). 1 if no effect. */
static int melee_armour(const struct rv_state *s, const struct rv_figure *t, const int *att, int n,
	struct dice *d, struct events *e)
{
	int items = 0, front = 1;
	for (int i = 0; i < n; i++)
		front &= rv_in_front(t, s->fig[att[i]].at);
	for (int i = 0; i < RV_N_ARMOUR; i++)
		items += t->armour[i] && (i != RV_SHIELD || front);
	if (items == 0) {
		if (t->armour[RV_SHIELD])
			events_add(e, "melee", "%s's shield: the attack is not to his front",
				t->id);
		return 0;
	}
	int pen = rv_wounded(t);
	int r = (int)dice_roll(d, 10,
		"Border Reivers §Melee: armour of %s (d10%s <= %d no effect%s)", t->id,
		pen ? " +1 wounded" : "", 2 * items,
		t->armour[RV_SHIELD] && !front ? "; the shield does not count, not to his front" :
						 "");
	events_add(e, "melee", "%s's armour: rolls %d%s against %d%s: %s", t->id, r,
		pen ? " +1 wounded" : "", 2 * items,
		t->armour[RV_SHIELD] && !front ? " (the shield is not to his front)" : "",
		r + pen <= 2 * items ? "no effect" : "no save");
	return r + pen <= 2 * items;
}

int rv_melee_round(struct rv_state *s, struct rv_melee *m, int turn, int stun, struct dice *d,
	struct events *e)
{
	int att[3], n = 0;
	for (int i = 0; i < 3; i++) {
		int a = m->attackers[i];
		if (a >= 0 && !s->fig[a].dead && s->fig[a].stunned_until < turn)
			att[n++] = a;
	}
	struct rv_figure *df = &s->fig[m->defender];
	if (n == 0 || df->dead) {
		events_add(e, "melee", "the melee at %s ends (%s)", df->id,
			n == 0 ? "no attacker fights on" : "the defender is down");
		return n == 0 ? -1 : 1;
	}
	char wa[160], wd[160];
	int ma = melee_mods(s, att, n, m->started == turn, 0, wa, sizeof(wa));
	int dfig = m->defender;
	int md = df->stunned_until >= turn ? -100 : melee_mods(s, &dfig, 1, 0, 1, wd, sizeof(wd));
	int ra = (int)dice_roll(d, 10, "Border Reivers §Melee: %s and %d more attack %s (d10%s)",
		s->fig[att[0]].id, n - 1, df->id, wa);
	int rd = md == -100 ? 0 :
			      (int)dice_roll(d, 10, "Border Reivers §Melee: %s defends (d10%s)",
				      df->id, wd);
	int ta = ra + ma, td = md == -100 ? 0 : rd + md;
	events_add(e, "melee", "%s%s %s: %d%s = %d against %s's %d%s = %d: %s", s->fig[att[0]].id,
		n > 1 ? " and others attack" : " attacks", df->id, ra, wa, ta, df->id, rd,
		md == -100 ? " (stunned)" : wd, td,
		ta > td ? "the attackers win" :
		ta < td ? "the defender wins" :
			  "a tie, fought on");
	if (ta == td)
		return 0;
	if (ta < td)
		return -1; /* the defender cannot wound the attacker */
	if (!melee_armour(s, df, att, n, d, e))
		rv_hit(s, m->defender, stun, turn, e);
	return 1;
}

int rv_herd_test(const struct rv_options *o, int n, int melee6, int fire12, int wounded,
	struct dice *d, struct events *e)
{
	int r = (int)dice_roll(d, (uint64_t)o->herd_die,
		"Border Reivers §Herding: %d animal(s) (d%d -%d extra%s%s%s, 5 or better)", n,
		o->herd_die, n - 1, melee6 ? " -2 melee" : "", fire12 ? " -4 firing" : "",
		wounded ? " -1 wounded" : "");
	int total = r - (n - 1) - 2 * melee6 - 4 * fire12 - (wounded != 0);
	events_add(e, PH, "herding %d animal(s): rolls %d, %d after modifiers: %s", n, r, total,
		total >= 5 ? "they move with the herders" : "they scatter");
	return total >= 5;
}

void rv_animal_scatter(struct rv_state *s, int a, int gallop, struct dice *d, struct events *e)
{
	struct rv_animal_def *an = &s->animal[a];
	int v[2], two = gallop || an->spooked;
	int dist = dice_roll_many(d, two ? 2 : 1, 6, v, "Border Reivers §Herding: %s runs (%s\")",
		an->id, two ? "2d6" : "d6");
	int hour = (int)dice_roll(d, 12, "Border Reivers §Herding: %s runs (d12 clock)", an->id);
	an->at = rv_clock_step(s, an->at, hour, dist * RV_INCH);
	events_add(e, PH, "%s %s %d\" towards %d o'clock", an->id, gallop ? "gallops" : "scatters",
		dist, hour);
}
