/* state.c — the Land Raid game state: the square grid and its geometry, bases, casualty and
 * plunder markers, the plunder loop table and standing orders, and their reading from and
 * writing to the `game:` tree in a canonical order (squares in A1 order, bases by id). */
#include <stdlib.h>
#include <string.h>

#include "rules/land-raid/landraid.h"
#include "core/banned.h"

const char *const landraid_side_names[] = { "attacker", "defender", NULL };
const char *const landraid_quality_names[] = { "scurvy", "ordinary", "battle-hardened", NULL };
const char *const landraid_role_names[] = {
	"troops",
	"officer",
	"commander",
	"loot-carrier",
	NULL,
};
const char *const landraid_kind_names[] = {
	"open",
	"dockside",
	"building",
	"important-building",
	"barracks",
	"garrison-building",
	NULL,
};

/* The placeholder plunder loop (§24): the sheet does not print the table, so this is
 * campaign data a group replaces in its scenario (docs/rules/land-raid.md). */
static const struct {
	const char *text;
	int loot;
} default_loop[6] = {
	{ "nothing worth carrying", 0 },
	{ "a purse of coins", 1 },
	{ "a purse of coins", 1 },
	{ "silver plate", 2 },
	{ "silver plate", 2 },
	{ "the strongbox", 3 },
};

static const char *const game_keys[] = {
	"first",
	"columns",
	"rows",
	"squares",
	"officer-allowance",
	"bases",
	"casualties",
	"plunder",
	"loot",
	"loot-loop",
	"deviation",
	"next-new-base",
	"standing",
	NULL,
};
static const char *const base_keys[] = { "id", "side", "role", "quality", "square", NULL };
static const char *const loot_keys[] = { "taken", "lost", NULL };
static const char *const loop_keys[] = { "roll", "found", "loot", NULL };
static const char *const deviation_keys[] = { "defender", "battle-hardened", "tie", NULL };

/* --- lists ---------------------------------------------------------------------------- */

void landraid_ids_release(struct landraid_ids *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

void landraid_ids_add(struct landraid_ids *l, const char *id)
{
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = xstrdup(id);
}

int landraid_ids_has(const struct landraid_ids *l, const char *id)
{
	for (size_t i = 0; l && i < l->n; i++)
		if (strcmp(l->v[i], id) == 0)
			return 1;
	return 0;
}

void landraid_squares_release(struct landraid_squares *l)
{
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

void landraid_squares_add(struct landraid_squares *l, int sq)
{
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = sq;
}

static void ids_copy(struct landraid_ids *dst, const struct landraid_ids *src)
{
	for (size_t i = 0; i < src->n; i++)
		landraid_ids_add(dst, src->v[i]);
}

static void squares_copy(struct landraid_squares *dst, const struct landraid_squares *src)
{
	for (size_t i = 0; i < src->n; i++)
		landraid_squares_add(dst, src->v[i]);
}

/* --- standing orders ---------------------------------------------------------------- */

void landraid_standing_default(struct landraid_standing *s, int side)
{
	memset(s, 0, sizeof(*s));
	s->response = LR_RESP_ALL;
	/* 8–10: a new officer if the allowance permits (both sides), else the defender takes
	 * the scurvy bases; the attacker never gives the defender bases by default. */
	s->choice_8_10[0] = LR_CHOICE_OFFICER;
	s->n_choice_8_10 = 1;
	if (side == LR_DEFENDER) {
		s->choice_8_10[1] = LR_CHOICE_SCURVY;
		s->n_choice_8_10 = 2;
	}
	if (side == LR_ATTACKER) {
		s->choice_11_12[0] = LR_CHOICE_REMOVE_SCURVY;
		s->choice_11_12[1] = LR_CHOICE_OFFICER;
		s->n_choice_11_12 = 2;
	}
}

void landraid_standing_release(struct landraid_standing *s)
{
	landraid_squares_release(&s->fall_back);
	landraid_ids_release(&s->morale_removal);
	landraid_squares_release(&s->dockside);
	for (size_t i = 0; i < s->n_redeploy; i++)
		free(s->redeploy[i].base);
	free(s->redeploy);
	s->redeploy = NULL;
	s->n_redeploy = 0;
	landraid_squares_release(&s->garrison);
	landraid_squares_release(&s->officer_square);
	landraid_squares_release(&s->scurvy_square);
	landraid_ids_release(&s->remove_scurvy);
}

void landraid_standing_copy(struct landraid_standing *dst, const struct landraid_standing *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->response = src->response;
	dst->withdraw = src->withdraw;
	squares_copy(&dst->fall_back, &src->fall_back);
	ids_copy(&dst->morale_removal, &src->morale_removal);
	squares_copy(&dst->dockside, &src->dockside);
	if (src->n_redeploy) {
		dst->redeploy = xcalloc(src->n_redeploy, sizeof(*dst->redeploy));
		for (size_t i = 0; i < src->n_redeploy; i++) {
			dst->redeploy[i].base = xstrdup(src->redeploy[i].base);
			dst->redeploy[i].sq = src->redeploy[i].sq;
		}
		dst->n_redeploy = src->n_redeploy;
	}
	squares_copy(&dst->garrison, &src->garrison);
	memcpy(dst->choice_8_10, src->choice_8_10, sizeof(dst->choice_8_10));
	dst->n_choice_8_10 = src->n_choice_8_10;
	squares_copy(&dst->officer_square, &src->officer_square);
	squares_copy(&dst->scurvy_square, &src->scurvy_square);
	memcpy(dst->choice_11_12, src->choice_11_12, sizeof(dst->choice_11_12));
	dst->n_choice_11_12 = src->n_choice_11_12;
	ids_copy(&dst->remove_scurvy, &src->remove_scurvy);
}

static struct node *squares_node(const struct landraid_state *s, const struct landraid_squares *l)
{
	struct node *seq = node_new_seq();
	for (size_t i = 0; i < l->n; i++)
		node_seq_add(seq, node_new_str(s->name[l->v[i]]));
	return seq;
}

static struct node *ids_node(const struct landraid_ids *l)
{
	struct node *seq = node_new_seq();
	for (size_t i = 0; i < l->n; i++)
		node_seq_add(seq, node_new_str(l->v[i]));
	return seq;
}

struct node *landraid_standing_emit(const struct landraid_state *s,
	const struct landraid_standing *st)
{
	struct node *m = node_new_map();
	node_map_str(m, "response", landraid_response_names[st->response]);
	node_map_bool(m, "withdraw", st->withdraw);
	node_map_add(m, "fall-back", squares_node(s, &st->fall_back));
	node_map_add(m, "morale-removal", ids_node(&st->morale_removal));
	struct node *ev = node_map_add(m, "events", node_new_map());
	node_map_add(ev, "dockside", squares_node(s, &st->dockside));
	struct node *rd = node_map_add(ev, "redeploy", node_new_seq());
	for (size_t i = 0; i < st->n_redeploy; i++) {
		struct node *e = node_seq_add(rd, node_new_map());
		node_map_str(e, "base", st->redeploy[i].base);
		node_map_str(e, "to", s->name[st->redeploy[i].sq]);
	}
	node_map_add(ev, "garrison", squares_node(s, &st->garrison));
	struct node *c = node_map_add(ev, "choice-8-10", node_new_seq());
	for (size_t i = 0; i < st->n_choice_8_10; i++)
		node_seq_add(c, node_new_str(landraid_choice_names[st->choice_8_10[i]]));
	node_map_add(ev, "officer-square", squares_node(s, &st->officer_square));
	node_map_add(ev, "scurvy-square", squares_node(s, &st->scurvy_square));
	c = node_map_add(ev, "choice-11-12", node_new_seq());
	for (size_t i = 0; i < st->n_choice_11_12; i++)
		node_seq_add(c, node_new_str(landraid_choice_names[st->choice_11_12[i]]));
	node_map_add(ev, "remove-scurvy", ids_node(&st->remove_scurvy));
	return m;
}

/* --- grid and geometry ---------------------------------------------------------------- */

struct landraid_state *landraid_state_new(int cols, int rows)
{
	struct landraid_state *s = xcalloc(1, sizeof(*s));
	s->cols = cols;
	s->rows = rows;
	s->n_squares = cols * rows;
	s->name = xcalloc((size_t)s->n_squares, sizeof(*s->name));
	s->kind = xcalloc((size_t)s->n_squares, 1);
	s->plunder = xcalloc((size_t)s->n_squares, sizeof(int));
	for (int i = 0; i < LR_SIDES; i++)
		s->cas[i] = xcalloc((size_t)s->n_squares, sizeof(int));
	for (int sq = 0; sq < s->n_squares; sq++) {
		int row = sq % rows + 1;
		s->name[sq][0] = (char)('A' + sq / rows);
		s->name[sq][1] = (char)(row >= 10 ? '0' + row / 10 : '0' + row);
		s->name[sq][2] = (char)(row >= 10 ? '0' + row % 10 : '\0');
		s->name[sq][3] = '\0';
	}
	s->first = LR_ATTACKER;
	for (int i = 0; i < 6; i++) {
		s->loop[i].text = xstrdup(default_loop[i].text);
		s->loop[i].loot = default_loop[i].loot;
	}
	for (int i = 0; i < LR_SIDES; i++)
		landraid_standing_default(&s->standing[i], i);
	/* The sheet's numbers; a tie keeps the loot (NOTES 000 reading 5, documented default). */
	s->deviation.defender = 1;
	s->deviation.battle_hardened = 1;
	s->deviation.tie = LR_ATTACKER;
	s->next_new = 1;
	return s;
}

void landraid_state_free(struct landraid_state *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n_bases; i++) {
		free(s->bases[i]->id);
		free(s->bases[i]);
	}
	free(s->bases);
	free(s->name);
	free(s->kind);
	free(s->plunder);
	for (int i = 0; i < LR_SIDES; i++) {
		free(s->cas[i]);
		landraid_standing_release(&s->standing[i]);
	}
	for (int i = 0; i < 6; i++)
		free(s->loop[i].text);
	free(s);
}

int landraid_square(const struct landraid_state *s, const char *name)
{
	if (!name || name[0] < 'A' || name[0] > 'Z')
		return -1;
	int col = name[0] - 'A';
	const char *p = name + 1;
	if (*p < '1' || *p > '9')
		return -1;
	int row = 0;
	for (; *p; p++) {
		if (*p < '0' || *p > '9' || row > LR_MAX_GRID)
			return -1;
		row = row * 10 + (*p - '0');
	}
	if (col >= s->cols || row < 1 || row > s->rows)
		return -1;
	return col * s->rows + row - 1;
}

int landraid_col(const struct landraid_state *s, int sq)
{
	return sq / s->rows;
}

int landraid_row(const struct landraid_state *s, int sq)
{
	return sq % s->rows;
}

static int iabs(int v)
{
	return v < 0 ? -v : v;
}

int landraid_face(const struct landraid_state *s, int a, int b)
{
	int dc = iabs(landraid_col(s, a) - landraid_col(s, b));
	int dr = iabs(landraid_row(s, a) - landraid_row(s, b));
	return dc + dr == 1;
}

int landraid_corner(const struct landraid_state *s, int a, int b)
{
	int dc = iabs(landraid_col(s, a) - landraid_col(s, b));
	int dr = iabs(landraid_row(s, a) - landraid_row(s, b));
	return dc == 1 && dr == 1;
}

int landraid_distance(const struct landraid_state *s, int a, int b)
{
	int dc = iabs(landraid_col(s, a) - landraid_col(s, b));
	int dr = iabs(landraid_row(s, a) - landraid_row(s, b));
	return dc > dr ? dc : dr;
}

int landraid_faces(const struct landraid_state *s, int sq, int out[4])
{
	int n = 0, col = landraid_col(s, sq), row = landraid_row(s, sq);
	/* Ascending square index is A1 order: west, north (row-1), south (row+1), east. */
	if (col > 0)
		out[n++] = sq - s->rows;
	if (row > 0)
		out[n++] = sq - 1;
	if (row < s->rows - 1)
		out[n++] = sq + 1;
	if (col < s->cols - 1)
		out[n++] = sq + s->rows;
	return n;
}

int landraid_is_building(int kind)
{
	return kind == LR_BUILDING || kind == LR_IMPORTANT || kind == LR_BARRACKS ||
	       kind == LR_GARRISON;
}

int landraid_is_officer(const struct landraid_base *b)
{
	return b->role == LR_OFFICER || b->role == LR_COMMANDER;
}

/* --- bases ---------------------------------------------------------------------------- */

struct landraid_base *landraid_base_add(struct landraid_state *s, const char *id, int side,
	int role, int quality, int sq)
{
	if (s->n_bases == s->cap_bases) {
		s->cap_bases = s->cap_bases ? 2 * s->cap_bases : 16;
		s->bases = xrealloc(s->bases, s->cap_bases * sizeof(*s->bases));
	}
	struct landraid_base *b = xcalloc(1, sizeof(*b));
	b->id = xstrdup(id);
	b->side = side;
	b->role = role;
	b->quality = quality;
	b->sq = sq;
	s->bases[s->n_bases++] = b;
	return b;
}

/* Any base, live or removed this turn: a removed id is not reused within the turn. */
static int id_used(const struct landraid_state *s, const char *id)
{
	for (size_t i = 0; i < s->n_bases; i++)
		if (strcmp(s->bases[i]->id, id) == 0)
			return 1;
	return 0;
}

struct landraid_base *landraid_base_new(struct landraid_state *s, int side, int role, int quality,
	int sq)
{
	char id[32];
	do
		snprintf(id, sizeof(id), "new-%d", s->next_new++);
	while (id_used(s, id));
	return landraid_base_add(s, id, side, role, quality, sq);
}

struct landraid_base *landraid_base_find(const struct landraid_state *s, const char *id)
{
	for (size_t i = 0; i < s->n_bases; i++)
		if (s->bases[i]->sq >= 0 && strcmp(s->bases[i]->id, id) == 0)
			return s->bases[i];
	return NULL;
}

void landraid_base_remove(struct landraid_state *s, struct landraid_base *b)
{
	(void)s;
	b->sq = -1;
}

static int cmp_id(const void *a, const void *b)
{
	const struct landraid_base *x = *(struct landraid_base *const *)a;
	const struct landraid_base *y = *(struct landraid_base *const *)b;
	return strcmp(x->id, y->id);
}

void landraid_compact(struct landraid_state *s)
{
	size_t k = 0;
	for (size_t i = 0; i < s->n_bases; i++) {
		if (s->bases[i]->sq < 0) {
			free(s->bases[i]->id);
			free(s->bases[i]);
		} else {
			s->bases[k++] = s->bases[i];
		}
	}
	s->n_bases = k;
	if (k > 1)
		qsort(s->bases, k, sizeof(*s->bases), cmp_id);
}

int landraid_count(const struct landraid_state *s, int sq, int side, unsigned role_mask)
{
	int n = 0;
	for (size_t i = 0; i < s->n_bases; i++) {
		const struct landraid_base *b = s->bases[i];
		if (b->sq == sq && (side < 0 || b->side == side) && (role_mask & (1u << b->role)))
			n++;
	}
	return n;
}

int landraid_count_side(const struct landraid_state *s, int side, unsigned role_mask)
{
	int n = 0;
	for (size_t i = 0; i < s->n_bases; i++) {
		const struct landraid_base *b = s->bases[i];
		if (b->sq >= 0 && b->side == side && (role_mask & (1u << b->role)))
			n++;
	}
	return n;
}

static int role_rank(int role)
{
	switch (role) {
	case LR_TROOPS:
		return 0;
	case LR_LOOT_CARRIER:
		return 1;
	case LR_OFFICER:
		return 2;
	default:
		return 3;
	}
}

static int cmp_loss(const void *a, const void *b)
{
	const struct landraid_base *x = *(struct landraid_base *const *)a;
	const struct landraid_base *y = *(struct landraid_base *const *)b;
	if (role_rank(x->role) != role_rank(y->role))
		return role_rank(x->role) - role_rank(y->role);
	if (x->quality != y->quality)
		return x->quality - y->quality;
	return strcmp(x->id, y->id);
}

size_t landraid_bases_in(const struct landraid_state *s, int sq, int side, unsigned role_mask,
	struct landraid_base **out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n_bases && n < max; i++) {
		struct landraid_base *b = s->bases[i];
		if (b->sq == sq && b->sq >= 0 && (side < 0 || b->side == side) &&
			(role_mask & (1u << b->role)))
			out[n++] = b;
	}
	if (n > 1)
		qsort(out, n, sizeof(*out), cmp_loss);
	return n;
}

void landraid_mark_casualty(struct landraid_state *s, int sq, const struct landraid_base *b)
{
	if (sq >= 0)
		s->cas[b->side][sq] += b->role == LR_COMMANDER ? 3 : 1;
}

int landraid_worst_quality(struct landraid_base *const *v, size_t n)
{
	int q = LR_HARDENED + 1;
	for (size_t i = 0; i < n; i++)
		if (v[i]->role == LR_TROOPS && v[i]->quality < q)
			q = v[i]->quality;
	return q > LR_HARDENED ? LR_ORDINARY : q;
}

/* --- reading `game:` ------------------------------------------------------------------ */

/* A mapping whose keys are data (square names), not a fixed set. */
static int want_map(const struct node *n, const char *what, struct diag *d)
{
	if (n->kind == NODE_MAP)
		return 0;
	node_error(d, n, "%s is not a mapping (a mapping of square names expected)", what);
	return -1;
}

int landraid_want_square(const struct landraid_state *s, const struct node *n, const char *what,
	struct diag *d)
{
	const char *name;
	if (node_want_str(n, what, 8, &name, d) < 0)
		return -1;
	int sq = landraid_square(s, name);
	if (sq < 0)
		node_error(d, n, "%s '%s' is not a square of the %dx%d grid (A1 to %s expected)",
			what, name, s->cols, s->rows, s->name[s->n_squares - 1]);
	return sq;
}

static void parse_bases(struct landraid_state *s, const struct node *bases, struct diag *d)
{
	if (node_check_seq(bases, "bases", LR_MAX_BASES, d) < 0)
		return;
	for (size_t i = 0; i < bases->n; i++) {
		const struct node *b = bases->items[i];
		const char *id;
		int side = -1, role = LR_TROOPS, quality = LR_ORDINARY, ok = 1;
		if (node_check_map(b, "base", base_keys, d) < 0)
			continue;
		if (node_want_id(node_need(b, "id", d), "base id", &id, d) < 0)
			ok = 0;
		if (node_want_enum(node_need(b, "side", d), "side", landraid_side_names, &side, d) <
			0)
			ok = 0;
		if (node_get(b, "role") && node_want_enum(node_get(b, "role"), "role",
						   landraid_role_names, &role, d) < 0)
			ok = 0;
		if (node_get(b, "quality") && node_want_enum(node_get(b, "quality"), "quality",
						      landraid_quality_names, &quality, d) < 0)
			ok = 0;
		const struct node *sqn = node_need(b, "square", d);
		int sq = sqn ? landraid_want_square(s, sqn, "square", d) : -1;
		if (!ok || sq < 0)
			continue;
		if (id_used(s, id)) {
			node_error(d, node_get(b, "id"),
				"duplicate base id '%s' (unique ids expected)", id);
			continue;
		}
		landraid_base_add(s, id, side, role, quality, sq);
	}
}

/* `casualties: {C2: {attacker: 1}}` and `plunder: {C3: 1}`. */
static void parse_markers(struct landraid_state *s, const struct node *g, struct diag *d)
{
	const struct node *cas = node_get(g, "casualties");
	if (cas && want_map(cas, "casualties", d) == 0) {
		for (size_t i = 0; i < cas->n; i++) {
			int sq = landraid_want_square(s, cas->keys[i], "casualty square", d);
			const struct node *m = cas->items[i];
			if (node_check_map(m, "casualty markers", landraid_side_names, d) < 0 ||
				sq < 0)
				continue;
			for (int side = 0; side < LR_SIDES; side++) {
				long long v;
				const struct node *x = node_get(m, landraid_side_names[side]);
				if (x && node_want_int(x, "casualty markers", 0, LR_MAX_MARKERS, &v,
						 d) == 0)
					s->cas[side][sq] = (int)v;
			}
		}
	}
	const struct node *pl = node_get(g, "plunder");
	if (pl && want_map(pl, "plunder", d) == 0) {
		for (size_t i = 0; i < pl->n; i++) {
			long long v;
			int sq = landraid_want_square(s, pl->keys[i], "plunder square", d);
			if (node_want_int(pl->items[i], "plunder markers", 0, LR_MAX_PLUNDER, &v,
				    d) == 0 &&
				sq >= 0)
				s->plunder[sq] = (int)v;
		}
	}
}

static void parse_loop(struct landraid_state *s, const struct node *loop, struct diag *d)
{
	if (node_check_seq(loop, "loot-loop", 6, d) < 0)
		return;
	if (loop->n != 6) {
		node_error(d, loop, "loot-loop has %zu row%s (6 expected, one per D6 score)",
			loop->n, loop->n == 1 ? "" : "s");
		return;
	}
	for (size_t i = 0; i < 6; i++) {
		const struct node *e = loop->items[i];
		long long roll, loot;
		const char *text;
		if (node_check_map(e, "loot-loop row", loop_keys, d) < 0)
			continue;
		if (node_want_int(node_need(e, "roll", d), "roll", (long long)i + 1,
			    (long long)i + 1, &roll, d) < 0)
			continue;
		if (node_want_str(node_need(e, "found", d), "found", 200, &text, d) < 0)
			continue;
		if (node_want_int(node_need(e, "loot", d), "loot", 0, 100, &loot, d) < 0)
			continue;
		free(s->loop[i].text);
		s->loop[i].text = xstrdup(text);
		s->loop[i].loot = (int)loot;
	}
}

/* The sheet's two sides are the campaign's players: exactly 'attacker' and 'defender'. */
static void check_players(const struct rules_campaign *c, const struct node *g, struct diag *d)
{
	int seen[LR_SIDES] = { 0, 0 }, other = 0;
	for (size_t i = 0; i < c->n_players; i++) {
		if (strcmp(c->players[i], "attacker") == 0)
			seen[LR_ATTACKER]++;
		else if (strcmp(c->players[i], "defender") == 0)
			seen[LR_DEFENDER]++;
		else
			other++;
	}
	if (other || seen[0] != 1 || seen[1] != 1)
		node_error(d, g,
			"land-raid needs exactly the players 'attacker' and 'defender' "
			"(the sheet's sides), found %zu other or missing",
			c->n_players);
}

/* squares: {A1: kind, ...}; every square not listed is open. */
static void parse_squares(struct landraid_state *s, const struct node *g, struct diag *d)
{
	const struct node *sqs = node_get(g, "squares");
	if (!sqs || want_map(sqs, "squares", d) < 0)
		return;
	for (size_t i = 0; i < sqs->n; i++) {
		int kind;
		int sq = landraid_want_square(s, sqs->keys[i], "square", d);
		if (node_want_enum(sqs->items[i], "square kind", landraid_kind_names, &kind, d) ==
				0 &&
			sq >= 0)
			s->kind[sq] = (unsigned char)kind;
	}
}

/* §18 8-10 "New officers may not cause original allowance to be exceeded": each side's
 * officers on the table, unless officer-allowance says otherwise. */
static void parse_allowance(struct landraid_state *s, const struct node *g, struct diag *d)
{
	long long v;
	for (int side = 0; side < LR_SIDES; side++)
		s->allowance[side] = landraid_count_side(s, side, LR_OFFICERS);
	const struct node *al = node_get(g, "officer-allowance");
	if (!al || node_check_map(al, "officer-allowance", landraid_side_names, d) < 0)
		return;
	for (int side = 0; side < LR_SIDES; side++) {
		const struct node *x = node_get(al, landraid_side_names[side]);
		if (x && node_want_int(x, "officer allowance", 0, LR_MAX_ALLOWANCE, &v, d) == 0)
			s->allowance[side] = (int)v;
	}
}

/* §24 Plunder's tally: loot: {taken, lost} and the campaign's loot-loop table. */
static void parse_loot(struct landraid_state *s, const struct node *g, struct diag *d)
{
	long long v;
	const struct node *loot = node_get(g, "loot");
	if (loot && node_check_map(loot, "loot", loot_keys, d) == 0) {
		if (node_get(loot, "taken") && node_want_int(node_get(loot, "taken"), "loot taken",
						       0, LR_MAX_LOOT, &v, d) == 0)
			s->loot_taken = (int)v;
		if (node_get(loot, "lost") && node_want_int(node_get(loot, "lost"), "loot lost", 0,
						      LR_MAX_LOOT, &v, d) == 0)
			s->loot_lost = (int)v;
	}
	if (node_get(g, "loot-loop"))
		parse_loop(s, node_get(g, "loot-loop"), d);
	const struct node *dev = node_get(g, "deviation");
	if (dev && node_check_map(dev, "deviation", deviation_keys, d) == 0) {
		const struct node *x;
		int side;
		if ((x = node_get(dev, "defender")) &&
			node_want_int(x, "deviation defender", 0, 6, &v, d) == 0)
			s->deviation.defender = (int)v;
		if ((x = node_get(dev, "battle-hardened")) &&
			node_want_int(x, "deviation battle-hardened", 0, 6, &v, d) == 0)
			s->deviation.battle_hardened = (int)v;
		if ((x = node_get(dev, "tie")) &&
			node_want_enum(x, "deviation tie", landraid_side_names, &side, d) == 0)
			s->deviation.tie = side;
	}
}

/* standing: {attacker: ..., defender: ...}, the standing orders in force; their base ids
 * are not checked against the table (a state keeps ids of bases since removed). */
static void parse_standing_orders(struct landraid_state *s, const struct node *g, struct diag *d)
{
	const struct node *st = node_get(g, "standing");
	if (!st || node_check_map(st, "standing", landraid_side_names, d) < 0)
		return;
	for (int side = 0; side < LR_SIDES; side++) {
		const struct node *x = node_get(st, landraid_side_names[side]);
		unsigned set = 0;
		if (x)
			landraid_standing_parse(&s->standing[side], &set, s, side, x, 0, d);
	}
}

int landraid_state_parse(struct landraid_state **out, const struct rules_campaign *c,
	const struct node *g, struct diag *d)
{
	size_t before = diag_count(d);
	struct landraid_state *s = NULL;
	long long cols = 0, rows = 0, v;
	int first = LR_ATTACKER;

	*out = NULL;
	if (c)
		check_players(c, g, d);
	if (!g) {
		node_error(d, g, "missing 'game' (the Land Raid grid, bases and markers expected)");
		goto done;
	}
	if (node_check_map(g, "game", game_keys, d) < 0)
		goto done;
	if (node_want_int(node_need(g, "columns", d), "columns", 1, LR_MAX_GRID, &cols, d) < 0 ||
		node_want_int(node_need(g, "rows", d), "rows", 1, LR_MAX_GRID, &rows, d) < 0)
		goto done;
	s = landraid_state_new((int)cols, (int)rows);
	if (node_get(g, "first") &&
		node_want_enum(node_get(g, "first"), "first", landraid_side_names, &first, d) == 0)
		s->first = first;
	parse_squares(s, g, d);
	if (node_get(g, "bases"))
		parse_bases(s, node_get(g, "bases"), d);
	parse_markers(s, g, d);
	parse_allowance(s, g, d);
	parse_loot(s, g, d);
	if (node_get(g, "next-new-base") && node_want_int(node_get(g, "next-new-base"),
						    "next-new-base", 1, 1000000, &v, d) == 0)
		s->next_new = (int)v;
	parse_standing_orders(s, g, d);
	landraid_compact(s);
done:
	if (diag_count(d) != before) {
		landraid_state_free(s);
		return -1;
	}
	*out = s;
	return 0;
}

/* --- writing `game:` ------------------------------------------------------------------ */

struct node *landraid_state_emit(const struct landraid_state *s)
{
	return landraid_state_emit_view(s, LR_SIDES);
}

struct node *landraid_state_emit_view(const struct landraid_state *s, int side_view)
{
	struct node *g = node_new_map();
	node_map_str(g, "first", landraid_side_names[s->first]);
	node_map_int(g, "columns", s->cols);
	node_map_int(g, "rows", s->rows);
	struct node *sqs = node_map_add(g, "squares", node_new_map());
	for (int sq = 0; sq < s->n_squares; sq++)
		if (s->kind[sq] != LR_OPEN)
			node_map_str(sqs, s->name[sq], landraid_kind_names[s->kind[sq]]);
	struct node *al = node_map_add(g, "officer-allowance", node_new_map());
	for (int side = 0; side < LR_SIDES; side++)
		node_map_int(al, landraid_side_names[side], s->allowance[side]);

	/* Sorted on a copy: emitting never reorders the live state. */
	struct landraid_base **v = xcalloc(s->n_bases ? s->n_bases : 1, sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; i < s->n_bases; i++)
		if (s->bases[i]->sq >= 0)
			v[n++] = s->bases[i];
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_id);
	struct node *bases = node_map_add(g, "bases", node_new_seq());
	for (size_t i = 0; i < n; i++) {
		struct node *b = node_seq_add(bases, node_new_map());
		node_map_str(b, "id", v[i]->id);
		node_map_str(b, "side", landraid_side_names[v[i]->side]);
		node_map_str(b, "role", landraid_role_names[v[i]->role]);
		node_map_str(b, "quality", landraid_quality_names[v[i]->quality]);
		node_map_str(b, "square", s->name[v[i]->sq]);
	}
	free(v);

	struct node *cas = node_map_add(g, "casualties", node_new_map());
	for (int sq = 0; sq < s->n_squares; sq++) {
		if (!s->cas[LR_ATTACKER][sq] && !s->cas[LR_DEFENDER][sq])
			continue;
		struct node *m = node_map_add(cas, s->name[sq], node_new_map());
		for (int side = 0; side < LR_SIDES; side++)
			if (s->cas[side][sq])
				node_map_int(m, landraid_side_names[side], s->cas[side][sq]);
	}
	struct node *pl = node_map_add(g, "plunder", node_new_map());
	for (int sq = 0; sq < s->n_squares; sq++)
		if (s->plunder[sq])
			node_map_int(pl, s->name[sq], s->plunder[sq]);
	struct node *loot = node_map_add(g, "loot", node_new_map());
	node_map_int(loot, "taken", s->loot_taken);
	node_map_int(loot, "lost", s->loot_lost);
	struct node *loop = node_map_add(g, "loot-loop", node_new_seq());
	for (int i = 0; i < 6; i++) {
		struct node *e = node_seq_add(loop, node_new_map());
		node_map_int(e, "roll", i + 1);
		node_map_str(e, "found", s->loop[i].text);
		node_map_int(e, "loot", s->loop[i].loot);
	}
	struct node *dev = node_map_add(g, "deviation", node_new_map());
	node_map_int(dev, "defender", s->deviation.defender);
	node_map_int(dev, "battle-hardened", s->deviation.battle_hardened);
	node_map_str(dev, "tie", landraid_side_names[s->deviation.tie]);
	node_map_int(g, "next-new-base", s->next_new);
	if (side_view < 0)
		return g;
	struct node *st = node_map_add(g, "standing", node_new_map());
	for (int side = 0; side < LR_SIDES; side++)
		if (side_view == LR_SIDES || side_view == side)
			node_map_add(st, landraid_side_names[side],
				landraid_standing_emit(s, &s->standing[side]));
	return g;
}
