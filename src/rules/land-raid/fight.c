/* fight.c — Land Raid §23 Fighting (with §13's commander and §6's quality): an officer and up
 * to 4 bases assault a face-touching square; dice, the better side's re-roll, casualties
 * with the officer always the 3rd, the winner's extra hits, falling back with the casualty
 * markers, and withdrawing instead of fighting. */
#include <stdlib.h>
#include <string.h>

#include "rules/land-raid/landraid.h"
#include "core/banned.h"

static const char phase[] = "actions";

#define LR_SQUARE_MAX 64
#define LR_FIGHT_DICE 64

/* Fight quality: the §6 scale, one step higher with the commander (§13), which may take
 * battle-hardened bases one step beyond battle hardened. */
static const char *const fight_quality_names[] = {
	"scurvy",
	"ordinary",
	"battle-hardened",
	"battle-hardened + commander",
};

struct fighter {
	int side;
	struct landraid_base *b[LR_MAX_FIGHT_BASES]; /* fighting bases */
	size_t n;
	struct landraid_base *officer; /* the one fighting officer, or NULL */
	int quality;                   /* fight quality (index into fight_quality_names) */
	int casualties;                /* casualties taken so far in this fight (the count) */
	int kills;                     /* of those, the ones that removed a base */
	int markers;                   /* casualty markers to place where the side ends up */
};

int landraid_cmp_best(const void *a, const void *b)
{
	const struct landraid_base *x = *(struct landraid_base *const *)a;
	const struct landraid_base *y = *(struct landraid_base *const *)b;
	if ((x->role == LR_TROOPS) != (y->role == LR_TROOPS))
		return x->role == LR_TROOPS ? -1 : 1;
	if (x->quality != y->quality)
		return y->quality - x->quality;
	return strcmp(x->id, y->id);
}

/* Loss order among fighting bases: the owner loses his worst bases first. */
static int cmp_worst(const void *a, const void *b)
{
	const struct landraid_base *x = *(struct landraid_base *const *)a;
	const struct landraid_base *y = *(struct landraid_base *const *)b;
	if ((x->role == LR_TROOPS) != (y->role == LR_TROOPS))
		return x->role == LR_TROOPS ? -1 : 1;
	if (x->quality != y->quality)
		return x->quality - y->quality;
	return strcmp(x->id, y->id);
}

/* §13 "Improves square by one quality in fights": the commander in the side's square (the
 * assaulters' launch square, the target square) raises it, fighting or not (option
 * commander-fight: fighting, only as the fighting officer). */
static void set_quality(const struct landraid_ctx *c, struct fighter *f, int sq)
{
	int commander = f->officer && f->officer->role == LR_COMMANDER;
	if (c->o->commander_fight == LR_COMMANDER_SQUARE)
		commander |= landraid_count(c->s, sq, f->side, 1u << LR_COMMANDER) > 0;
	f->quality = landraid_worst_quality(f->b, f->n);
	if (commander)
		f->quality++;
	qsort(f->b, f->n, sizeof(*f->b), cmp_worst);
}

static int alive(const struct fighter *f)
{
	int n = f->officer && f->officer->sq >= 0;
	for (size_t i = 0; i < f->n; i++)
		n += f->b[i]->sq >= 0;
	return n;
}

/* One casualty on f: §23 "Officer (if present) is always 3rd casualty". The count goes on
 * while anyone of f fights; a casualty before the 3rd with only the officer left falls on
 * no one (option officer-casualty: third-or-last takes the officer then, NOTES 000 reading
 * 4). */
static void casualty(struct landraid_ctx *c, struct fighter *f)
{
	struct landraid_base *v = NULL;
	int k = f->casualties + 1;
	int officer = f->officer && f->officer->sq >= 0;
	for (size_t i = 0; i < f->n && !v; i++)
		if (f->b[i]->sq >= 0)
			v = f->b[i];
	if (officer && (k == 3 || (!v && c->o->officer_casualty == LR_OFFICER_THIRD_OR_LAST)))
		v = f->officer;
	if (!v && !officer)
		return;
	f->casualties++;
	if (!v) {
		events_add(c->ev, phase,
			"casualty %d of the %s: only %s is left, and an officer is always "
			"the 3rd casualty (§23): no one falls",
			k, landraid_side_names[f->side], f->officer->id);
		return;
	}
	f->kills++;
	f->markers += v->role == LR_COMMANDER ? 3 : 1;
	events_add(c->ev, phase, "casualty %d of the %s: %s (%s %s)%s", k,
		landraid_side_names[f->side], v->id, landraid_quality_names[v->quality],
		landraid_role_names[v->role],
		v->role == LR_COMMANDER ? ": the commander falls, 3 casualty markers" : "");
	landraid_kill(c, v, -1);
}

/* The winner's 2D6 extra hits on the loser, each 5-6 a casualty; a loser of better quality
 * insists the hitting dice be re-rolled (NOTES 000 reading 4). */
static void extra_hits(struct landraid_ctx *c, const struct fighter *w, struct fighter *l)
{
	int v[2], hits = 0;
	if (!alive(l))
		return;
	dice_roll_many(c->dice, 2, 6, v,
		"Land Raid §23 Fighting: the %s's extra hits on the "
		"%s, 2D6, each 5-6 = casualty",
		landraid_side_names[w->side], landraid_side_names[l->side]);
	hits = (v[0] >= 5) + (v[1] >= 5);
	if (hits && l->quality > w->quality) {
		int r[2], before = hits;
		dice_roll_many(c->dice, hits, 6, r,
			"Land Raid §23 Fighting: the %s (%s) insists the "
			"%s (%s) re-roll %d extra hit%s, each 5-6 = casualty",
			landraid_side_names[l->side], fight_quality_names[l->quality],
			landraid_side_names[w->side], fight_quality_names[w->quality], hits,
			hits == 1 ? "" : "s");
		hits = 0;
		for (int i = 0; i < before; i++)
			hits += r[i] >= 5;
		events_add(c->ev, phase, "extra hits: %d, re-rolled at the %s's insistence: %d",
			before, landraid_side_names[l->side], hits);
	} else {
		events_add(c->ev, phase, "extra hits on the %s: %d", landraid_side_names[l->side],
			hits);
	}
	for (int i = 0; i < hits; i++)
		casualty(c, l);
}

int landraid_fall_back_square(const struct landraid_state *s, int sq, int side, int exclude)
{
	int f[4], n = landraid_faces(s, sq, f);
	const struct landraid_squares *pref = &s->standing[side].fall_back;
	for (size_t i = 0; i < pref->n; i++)
		for (int j = 0; j < n; j++)
			if (f[j] == pref->v[i] && f[j] != exclude &&
				landraid_count(s, f[j], 1 - side, LR_ALL_ROLES) == 0)
				return f[j];
	for (int j = 0; j < n; j++)
		if (f[j] != exclude && landraid_count(s, f[j], 1 - side, LR_ALL_ROLES) == 0)
			return f[j];
	return -1;
}

/* Moves every live base of f->side in from (fighting or not) and its casualty markers,
 * plus those of the fight, to the fall-back square. With no square to fall back to, §23 says
 * nothing: they stay with their markers (option blocked-fall-back: cut-down removes them,
 * no markers). Returns 1 if the square is left to the winner, 0 if they stayed. */
static int fall_back(struct landraid_ctx *c, struct fighter *f, int from, int exclude)
{
	struct landraid_state *s = c->s;
	int to = landraid_fall_back_square(s, from, f->side, exclude);
	struct landraid_base *v[LR_SQUARE_MAX];
	size_t n = landraid_bases_in(s, from, f->side, LR_ALL_ROLES, v, LR_SQUARE_MAX);
	struct buf b = BUF_INIT;
	if (n == 0) {
		/* Nobody left to fall back: the markers stay where the bases fell. */
		s->cas[f->side][from] += f->markers;
		f->markers = 0;
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		buf_printf(&b, "%s%s", i ? ", " : "", v[i]->id);
	if (to < 0 && c->o->blocked_fall_back == LR_BLOCKED_STAY) {
		events_add(c->ev, phase,
			"the %s cannot fall back from %s (no face-touching square free of "
			"opponents): %s stay%s there with the casualty markers",
			landraid_side_names[f->side], s->name[from], buf_str(&b),
			n == 1 ? "s" : "");
		s->cas[f->side][from] += f->markers;
		f->markers = 0;
		buf_release(&b);
		return 0;
	}
	if (to < 0) {
		events_add(c->ev, phase,
			"the %s cannot fall back from %s (no face-touching square "
			"free of opponents): %s cut down",
			landraid_side_names[f->side], s->name[from],
			n ? buf_str(&b) : "nobody left");
		for (size_t i = 0; i < n; i++)
			landraid_kill(c, v[i], -1);
		s->cas[f->side][from] = 0;
		f->markers = 0;
		buf_release(&b);
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		v[i]->sq = to;
	int markers = s->cas[f->side][from] + f->markers;
	s->cas[f->side][to] += markers;
	s->cas[f->side][from] = 0;
	f->markers = 0;
	events_add(c->ev, phase,
		"the %s falls back from %s to %s (%s) dragging %d casualty "
		"marker%s",
		landraid_side_names[f->side], s->name[from], s->name[to], buf_str(&b), markers,
		markers == 1 ? "" : "s");
	buf_release(&b);
	return 1;
}

static void move_in(struct landraid_state *s, struct fighter *f, int to)
{
	if (f->officer && f->officer->sq >= 0)
		f->officer->sq = to;
	for (size_t i = 0; i < f->n; i++)
		if (f->b[i]->sq >= 0)
			f->b[i]->sq = to;
	s->cas[f->side][to] += f->markers;
	f->markers = 0;
}

static void describe(struct buf *b, const struct fighter *f)
{
	if (f->officer)
		buf_printf(b, "%s", f->officer->id);
	for (size_t i = 0; i < f->n; i++)
		buf_printf(b, "%s%s", f->officer || i ? ", " : "", f->b[i]->id);
	if (!f->officer && !f->n)
		buf_puts(b, "nobody");
}

static int sixes(const int *v, int n)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		k += v[i] == 6;
	return k;
}

/* The better side re-rolls its non-6s once (§23 "Better quality may re-roll (first)"). */
static void better_reroll(struct landraid_ctx *c, const struct fighter *f, int *v, int n)
{
	int idx[LR_FIGHT_DICE], r[LR_FIGHT_DICE], k = 0;
	for (int i = 0; i < n; i++)
		if (v[i] != 6)
			idx[k++] = i;
	if (!k)
		return;
	dice_roll_many(c->dice, k, 6, r,
		"Land Raid §23 Fighting: the %s re-rolls %d non-6 "
		"dice (better quality: %s), 6 = casualty",
		landraid_side_names[f->side], k, fight_quality_names[f->quality]);
	for (int i = 0; i < k; i++)
		v[idx[i]] = r[i];
}

/* §20 Fight: "Enters a face touching square and fight ... This square must contain
 * opponents". 1 if officer may fight at target, else 0 and a void event. */
static int fight_allowed(struct landraid_ctx *c, const struct landraid_base *officer, int target,
	int order_index)
{
	const struct landraid_state *s = c->s;
	int launch = officer->sq;
	if (!landraid_face(s, launch, target)) {
		events_void(c->ev, phase, c->player, order_index,
			"%s cannot fight at %s from %s: not "
			"face-touching (§23)",
			officer->id, s->name[target], s->name[launch]);
		return 0;
	}
	if (landraid_count(s, target, 1 - officer->side, LR_ALL_ROLES) == 0) {
		events_void(c->ev, phase, c->player, order_index,
			"%s cannot fight at %s: no "
			"opponents there (§20 Fight: the square must contain opponents)",
			officer->id, s->name[target]);
		return 0;
	}
	return 1;
}

/* The assaulters (§23): the officer and at most 4 troop bases of his group, those named in
 * `with` if given, else his best. */
static void pick_assaulters(struct landraid_ctx *c, struct landraid_base *officer,
	const struct landraid_ids *ignore, const struct landraid_ids *with, struct fighter *a)
{
	struct landraid_base *g[LR_SQUARE_MAX];
	size_t ng = landraid_group(c, officer, ignore, g, LR_SQUARE_MAX);
	memset(a, 0, sizeof(*a));
	a->side = officer->side;
	a->officer = officer;
	if (with) {
		for (size_t i = 0; i < with->n && a->n < LR_MAX_FIGHT_BASES; i++)
			for (size_t j = 0; j < ng; j++)
				if (g[j] && g[j]->role == LR_TROOPS &&
					strcmp(g[j]->id, with->v[i]) == 0) {
					a->b[a->n++] = g[j];
					g[j] = NULL;
					break;
				}
		if (a->n < with->n)
			events_add(c->ev, phase,
				"%s: %zu of the bases named in 'with' are not troop "
				"bases of his group in %s and stay out",
				officer->id, with->n - a->n, c->s->name[officer->sq]);
	} else {
		struct landraid_base *tr[LR_SQUARE_MAX];
		size_t k = 0;
		for (size_t j = 0; j < ng; j++)
			if (g[j]->role == LR_TROOPS)
				tr[k++] = g[j];
		qsort(tr, k, sizeof(*tr), landraid_cmp_best);
		for (size_t j = 0; j < k && a->n < LR_MAX_FIGHT_BASES; j++)
			a->b[a->n++] = tr[j];
	}
	set_quality(c, a, officer->sq);
}

/* The target (§23): one officer of side in sq (the commander first) and its 4 best bases. */
static void pick_targets(const struct landraid_ctx *c, int sq, int side, struct fighter *t)
{
	const struct landraid_state *s = c->s;
	struct landraid_base *tb[LR_SQUARE_MAX];
	size_t nt = landraid_bases_in(s, sq, side, LR_ALL_ROLES, tb, LR_SQUARE_MAX), k = 0;
	memset(t, 0, sizeof(*t));
	t->side = side;
	for (size_t i = nt; i-- > 0;)
		if (landraid_is_officer(tb[i]) && (!t->officer || tb[i]->role == LR_COMMANDER))
			t->officer = tb[i];
	for (size_t i = 0; i < nt; i++)
		if (!landraid_is_officer(tb[i]))
			tb[k++] = tb[i];
	qsort(tb, k, sizeof(*tb), landraid_cmp_best);
	for (size_t i = 0; i < k && t->n < LR_MAX_FIGHT_BASES; i++)
		t->b[t->n++] = tb[i];
	set_quality(c, t, sq);
}

/* §23 "May choose to withdraw instead of fighting" (the target's standing order): the
 * assaulters roll their extra hits, the target falls back and the assaulters enter. Returns
 * 1 if the target withdrew, 0 if it fights (no order, or no square to fall back to). */
static int withdraw(struct landraid_ctx *c, struct fighter *a, struct fighter *t, int target,
	const char *da, const char *dt)
{
	struct landraid_state *s = c->s;
	int launch = a->officer->sq;
	if (!s->standing[t->side].withdraw)
		return 0;
	if (landraid_fall_back_square(s, target, t->side, launch) < 0) {
		events_add(c->ev, phase,
			"the %s in %s cannot withdraw (no free square to fall back "
			"to) and fight",
			landraid_side_names[t->side], s->name[target]);
		return 0;
	}
	events_add(c->ev, phase,
		"%s assaults %s from %s: the %s (%s) withdraw instead of "
		"fighting",
		a->officer->id, s->name[target], s->name[launch], landraid_side_names[t->side], dt);
	extra_hits(c, a, t);
	fall_back(c, t, target, launch);
	move_in(s, a, target);
	events_add(c->ev, phase, "%s's assault group (%s) enters %s", a->officer->id, da,
		s->name[target]);
	return 1;
}

/* The fight's dice (NOTES 000 reading 4): 2 per base including officers, +2 officer, +2
 * assaulter, +1 per defending base in an important building or barracks (max +3); the
 * better side re-rolls its non-6s first. Each side's sixes into *hits_a and *hits_t. */
static void fight_dice(struct landraid_ctx *c, const struct fighter *a, const struct fighter *t,
	int target, const char *da, const char *dt, int *hits_a, int *hits_t)
{
	const struct landraid_state *s = c->s;
	const char *officer = a->officer->id;
	int va[LR_FIGHT_DICE], vt[LR_FIGHT_DICE];
	int na = (int)a->n + 1, nd = (int)t->n + (t->officer ? 1 : 0);
	int dice_a = 2 * na + 2 + 2;
	int bonus = s->kind[target] == LR_IMPORTANT || s->kind[target] == LR_BARRACKS ?
			    (nd < 3 ? nd : 3) :
			    0;
	int dice_t = 2 * nd + (t->officer ? 2 : 0) + bonus;
	events_add(c->ev, phase, "%s assaults %s from %s: %s (%s) against %s (%s)", officer,
		s->name[target], s->name[a->officer->sq], da, fight_quality_names[a->quality], dt,
		fight_quality_names[t->quality]);
	dice_roll_many(c->dice, dice_a, 6, va,
		"Land Raid §23 Fighting: %s's assault on %s, "
		"%d base%s + officer: %dD6 (2 per base, +2 officer, +2 assaulter), 6 = casualty",
		officer, s->name[target], na - 1, na == 2 ? "" : "s", dice_a);
	if (dice_t > 0)
		dice_roll_many(c->dice, dice_t, 6, vt,
			"Land Raid §23 Fighting: the %s in %s, %d "
			"base%s%s: %dD6 (2 per base%s%s), 6 = casualty",
			landraid_side_names[t->side], s->name[target], nd, nd == 1 ? "" : "s",
			t->officer ? " incl. officer" : "", dice_t,
			t->officer ? ", +2 officer" : "",
			bonus ? (bonus == 1        ? ", +1 important building/barracks" :
					bonus == 2 ? ", +2 important building/barracks" :
						     ", +3 important building/barracks") :
				"");
	if (a->quality > t->quality)
		better_reroll(c, a, va, dice_a);
	else if (t->quality > a->quality && dice_t > 0)
		better_reroll(c, t, vt, dice_t);
	*hits_a = sixes(va, dice_a);
	*hits_t = dice_t > 0 ? sixes(vt, dice_t) : 0;
	events_add(c->ev, phase, "fight at %s: the %s roll %d six%s, the %s %d", s->name[target],
		landraid_side_names[a->side], *hits_a, *hits_a == 1 ? "" : "es",
		landraid_side_names[t->side], *hits_t);
}

/* §23 "Target wins unless assaulter kills more or all"; the winner's extra hits; the loser
 * falls back: the target to a face-touching square, the assaulters stay at their launch
 * square, each side with its casualty markers. */
static void fight_outcome(struct landraid_ctx *c, struct fighter *a, struct fighter *t, int launch,
	int target)
{
	struct landraid_state *s = c->s;
	int side = a->side, foe = t->side;
	int a_wins = !alive(t) || a->kills < t->kills;
	struct fighter *w = a_wins ? a : t, *l = a_wins ? t : a;
	events_add(c->ev, phase,
		"the %s win the fight at %s (casualties inflicted: %s %d, %s "
		"%d%s)",
		a_wins ? "assaulters" : "targets", s->name[target], landraid_side_names[side],
		t->kills, landraid_side_names[foe], a->kills,
		!alive(t) ? ", all fighting targets killed" : "");
	if (alive(w))
		extra_hits(c, w, l);
	if (a_wins) {
		if (!fall_back(c, t, target, launch)) {
			s->cas[side][launch] += a->markers;
			events_add(c->ev, phase, "the assaulters stay in %s", s->name[launch]);
			return;
		}
		if (alive(a)) {
			move_in(s, a, target);
			events_add(c->ev, phase, "%s's assault group enters %s", a->officer->id,
				s->name[target]);
		} else {
			s->cas[side][launch] += a->markers;
		}
		return;
	}
	/* The assaulters never left their launch square: they stay with their markers. */
	s->cas[side][launch] += a->markers;
	s->cas[foe][target] += t->markers;
	if (alive(a))
		events_add(c->ev, phase,
			"the assaulters fall back to %s with %d casualty "
			"marker%s",
			s->name[launch], s->cas[side][launch],
			s->cas[side][launch] == 1 ? "" : "s");
	else
		events_add(c->ev, phase,
			"none of the assaulters is left; %d casualty marker%s "
			"in %s",
			s->cas[side][launch], s->cas[side][launch] == 1 ? "" : "s",
			s->name[launch]);
}

int landraid_fight(struct landraid_ctx *c, struct landraid_base *officer,
	const struct landraid_ids *ignore, int target, const struct landraid_ids *with,
	int order_index)
{
	struct fighter a, t;
	struct buf da = BUF_INIT, dt = BUF_INIT;
	int hits_a, hits_t, launch = officer->sq;

	if (!fight_allowed(c, officer, target, order_index))
		return LR_VOID;
	pick_assaulters(c, officer, ignore, with, &a);
	landraid_claim(c, officer, a.b, a.n);
	pick_targets(c, target, 1 - officer->side, &t);
	describe(&da, &a);
	describe(&dt, &t);
	if (!withdraw(c, &a, &t, target, buf_str(&da), buf_str(&dt))) {
		fight_dice(c, &a, &t, target, buf_str(&da), buf_str(&dt), &hits_a, &hits_t);
		for (int i = 0; i < hits_a; i++)
			casualty(c, &t);
		for (int i = 0; i < hits_t; i++)
			casualty(c, &a);
		fight_outcome(c, &a, &t, launch, target);
	}
	buf_release(&da);
	buf_release(&dt);
	return LR_DONE;
}
