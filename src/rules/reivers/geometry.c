/* geometry.c — the Border Reivers table on the shared geometry library: line of sight through
 * terrain areas, cover for firing and melee, roads, obstacle crossings, movement with half
 * speed in woods and water, and clock-face directions for galloping and scattering. */
#include <stdlib.h>

#include "rules/reivers/reivers.h"
#include "core/banned.h"

int rv_los(const struct rv_state *s, struct table_pt a, struct table_pt b)
{
	struct table_poly polys[RV_MAX_FEATURES];
	size_t n = 0;
	for (size_t i = 0; i < s->n_feat; i++)
		if (!s->feat[i].is_line && s->feat[i].blocks_los)
			polys[n++] = (struct table_poly){ s->feat[i].v, s->feat[i].n };
	return !table_los_blocked(NULL, polys, n, a, b, TABLE_LOS_IGNORE_HOLDING);
}

static int area_holds(const struct rv_feature_def *f, struct table_pt p)
{
	struct table_poly poly = { f->v, f->n };
	return !f->is_line && table_poly_where(&poly, p) != TABLE_OUTSIDE;
}

/* 1 if p lies within 1" of the line feature f. */
static int near_line(const struct rv_feature_def *f, struct table_pt p)
{
	for (size_t i = 0; i + 1 < f->n; i++)
		if (table_d2_cmp_r(table_seg_d2(p, f->v[i], f->v[i + 1]), RV_CONTACT) <= 0)
			return 1;
	return 0;
}

enum rv_cover rv_fire_cover(const struct rv_state *s, struct table_pt a, struct table_pt b)
{
	enum rv_cover best = RV_NO_COVER;
	for (size_t i = 0; i < s->n_feat; i++) {
		const struct rv_feature_def *f = &s->feat[i];
		if (f->cover <= best)
			continue;
		if (area_holds(f, b))
			best = f->cover;
		else if (f->is_line && f->kind != RV_ROAD && near_line(f, b)) {
			/* The wall is near the target and between it and the shooter. */
			struct table_line l = { f->v, f->n };
			struct table_crossing *x = NULL;
			size_t n = table_crossings(&x, &l, 1, a, b);
			for (size_t k = 0; k < n; k++)
				if (x[k].kind == TABLE_CROSS)
					best = f->cover;
			free(x);
		}
	}
	return best;
}

/* The ruling of kind los on the pair f, t (either way for a line of sight), or NULL. The last
 * one given wins: adjust.c replaces a ruling on the same pair. */
static const struct rv_ruled *ruling(const struct rv_state *s, enum rv_rule kind, int f, int t)
{
	for (size_t i = 0; i < s->n_ruled; i++) {
		const struct rv_ruled *r = &s->ruled[i];
		if (r->kind == kind && ((r->from == f && r->to == t) ||
					       (kind == RV_RULE_LOS && r->from == t && r->to == f)))
			return r;
	}
	return NULL;
}

int rv_fig_los(const struct rv_state *s, int f, int t, int *ruled)
{
	const struct rv_ruled *r = ruling(s, RV_RULE_LOS, f, t);
	if (ruled)
		*ruled = r != NULL;
	return r ? r->value : rv_los(s, s->fig[f].at, s->fig[t].at);
}

enum rv_cover rv_fig_cover(const struct rv_state *s, int f, int t, int *ruled)
{
	const struct rv_ruled *r = ruling(s, RV_RULE_COVER, f, t);
	if (ruled)
		*ruled = r != NULL;
	return r ? (enum rv_cover)r->value : rv_fire_cover(s, s->fig[f].at, s->fig[t].at);
}

enum rv_band rv_fig_range(const struct rv_state *s, int f, int t, int *ruled)
{
	const struct rv_ruled *r = ruling(s, RV_RULE_RANGE, f, t);
	const struct rv_weapon_row *w = &rv_weapons[s->fig[f].weapon];
	if (ruled)
		*ruled = r != NULL;
	if (r)
		return (enum rv_band)r->value;
	return table_within(s->fig[f].at, s->fig[t].at, w->close) ? RV_CLOSE :
	       table_within(s->fig[f].at, s->fig[t].at, w->range) ? RV_LONG :
								    RV_BEYOND;
}

enum rv_mcover rv_melee_cover(const struct rv_state *s, struct table_pt p)
{
	enum rv_mcover best = RV_NO_MCOVER;
	for (size_t i = 0; i < s->n_feat; i++) {
		const struct rv_feature_def *f = &s->feat[i];
		if (f->mcover <= best)
			continue;
		if (area_holds(f, p) || (f->is_line && f->kind != RV_ROAD && near_line(f, p)))
			best = f->mcover;
	}
	return best;
}

int rv_on_road(const struct rv_state *s, struct table_pt p)
{
	for (size_t i = 0; i < s->n_feat; i++)
		if (s->feat[i].is_line && s->feat[i].kind == RV_ROAD && near_line(&s->feat[i], p))
			return 1;
	return 0;
}

int rv_obstacles_crossed(const struct rv_state *s, struct table_pt a, struct table_pt b)
{
	int count = 0;
	for (size_t i = 0; i < s->n_feat; i++) {
		const struct rv_feature_def *f = &s->feat[i];
		if (!f->is_line || f->kind == RV_ROAD)
			continue;
		struct table_line l = { f->v, f->n };
		struct table_crossing *x = NULL;
		size_t n = table_crossings(&x, &l, 1, a, b);
		for (size_t k = 0; k < n; k++)
			count += x[k].kind == TABLE_CROSS;
		free(x);
	}
	return count;
}

/* The woods and water areas, at half speed (§Movement). */
static size_t slow_areas(const struct rv_state *s, struct table_area *out)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n_feat; i++) {
		const struct rv_feature_def *f = &s->feat[i];
		if (!f->is_line && (f->kind == RV_WOODS || f->kind == RV_WATER))
			out[n++] = (struct table_area){ { f->v, f->n }, 2, 1 };
	}
	return n;
}

int rv_move_along(const struct rv_state *s, const struct table_pt *w, size_t n, int budget,
	struct table_pt *out)
{
	struct table_area areas[RV_MAX_FEATURES];
	size_t na = slow_areas(s, areas);
	int64_t left = (int64_t)budget * TABLE_SUB;
	*out = w[0];
	for (size_t i = 0; i + 1 < n; i++) {
		int64_t cost = table_path_cost(&w[i], 2, areas, na, 0);
		int crossed = rv_obstacles_crossed(s, w[i], w[i + 1]);
		cost += (int64_t)crossed * RV_OBSTACLE_COST * TABLE_SUB;
		if (cost <= left) {
			left -= cost;
			*out = w[i + 1];
			continue;
		}
		/* A leg over a fence or wall is taken whole or not at all: the figure stops at
		 * the leg's start (docs/rules/reivers.md). */
		if (crossed == 0) {
			struct table_reach r;
			table_path_reach(&r, &w[i], 2, areas, na, 0, left);
			*out = r.at;
		}
		return 0;
	}
	return 1;
}

/* Clock-face unit vectors, times 1000: hour h at 30h degrees clockwise from up the table. */
static const int clock_dx[13] = { 0, 500, 866, 1000, 866, 500, 0, -500, -866, -1000, -866, -500,
	0 };
static const int clock_dy[13] = { 1000, 866, 500, 0, -500, -866, -1000, -866, -500, 0, 500, 866,
	1000 };

static int32_t clamp(int64_t v, int max)
{
	return (int32_t)(v < 0 ? 0 : v > max ? max : v);
}

struct table_pt rv_on_table(const struct rv_state *s, int64_t x, int64_t y)
{
	return (struct table_pt){ clamp(x, s->width), clamp(y, s->height) };
}

struct table_pt rv_clock_step(const struct rv_state *s, struct table_pt p, int hour, int dist)
{
	int64_t dx = (int64_t)dist * clock_dx[hour % 13] / 1000;
	int64_t dy = (int64_t)dist * clock_dy[hour % 13] / 1000;
	return rv_on_table(s, p.x + dx, p.y + dy);
}
