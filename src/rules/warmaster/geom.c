/* geom.c — Warmaster on the tabletop: unit footprints (oriented rectangles of stands), distances
 * between units and characters, where a unit stands (open, defended, fortified, dense), sight
 * lines, moving a block straight or along a path, and the sheet's Moves with river current and
 * wind. Everything is integer millimetres through src/rules/lib/table.h. */
#include <assert.h>
#include <stdlib.h>

#include <string.h>

#include "rules/warmaster/warmaster.h"
#include "core/banned.h"

struct table_rect wm_rect(const struct wm_unit *u)
{
	struct table_rect r;
	int n = u->stands > 0 ? u->stands : 1;
	int depth = u->formation == WM_COLUMN ? n * u->stand_d : u->stand_d;
	int rc = table_rect_make(&r, u->fl, u->fr, depth);
	assert(rc == 0);
	(void)rc;
	return r;
}

static struct table_pt mid(struct table_pt a, struct table_pt b)
{
	return (struct table_pt){ (int32_t)(((int64_t)a.x + b.x) >> 1),
		(int32_t)(((int64_t)a.y + b.y) >> 1) };
}

struct table_pt wm_front_centre(const struct wm_unit *u)
{
	return mid(u->fl, u->fr);
}

struct table_pt wm_centre(const struct wm_unit *u)
{
	struct table_rect r = wm_rect(u);
	return mid(r.c[TABLE_FL], r.c[TABLE_RR]);
}

int64_t wm_unit_dist(const struct wm_unit *a, const struct wm_unit *b)
{
	struct table_rect ra = wm_rect(a), rb = wm_rect(b);
	return table_d2_sub(table_rect_d2(&ra, &rb)) >> TABLE_SUB_SHIFT;
}

int64_t wm_char_dist(const struct wm_character *c, const struct wm_unit *u)
{
	struct table_rect r = wm_rect(u);
	return table_d2_sub(table_rect_d2_pt(&r, c->at)) >> TABLE_SUB_SHIFT;
}

static int in_area(const struct wm_area *a, struct table_pt p)
{
	struct table_poly poly = { a->v, a->n };
	return table_poly_where(&poly, p) == TABLE_INSIDE;
}

enum wm_position wm_position_of(const struct wm_state *s, const struct wm_unit *u)
{
	struct table_pt c = wm_centre(u);
	enum wm_position p = u->defended ? WM_POS_DEFENDED : WM_OPEN;
	for (size_t i = 0; i < s->n_areas; i++) {
		if (!in_area(&s->areas[i], c))
			continue;
		if (s->areas[i].kind == WM_FORTIFIED)
			p = WM_POS_FORTIFIED;
		else if (s->areas[i].kind == WM_DEFENDED && p == WM_OPEN)
			p = WM_POS_DEFENDED;
	}
	return p;
}

int wm_in_dense(const struct wm_state *s, const struct wm_unit *u)
{
	struct table_pt c = wm_centre(u);
	for (size_t i = 0; i < s->n_areas; i++)
		if (s->areas[i].kind == WM_DENSE && in_area(&s->areas[i], c))
			return 1;
	return 0;
}

int wm_visible(const struct wm_state *s, struct table_pt a, struct table_pt b)
{
	struct table_poly polys[WM_MAX_AREAS];
	size_t n = 0;
	for (size_t i = 0; i < s->n_areas; i++)
		if (s->areas[i].kind == WM_DENSE)
			polys[n++] = (struct table_poly){ s->areas[i].v, s->areas[i].n };
	return !table_los_blocked(NULL, polys, n, a, b, TABLE_LOS_IGNORE_HOLDING);
}

int wm_enemy_near(const struct wm_state *s, const struct wm_unit *u)
{
	struct table_rect r = wm_rect(u);
	for (size_t i = 0; i < s->n_units; i++) {
		const struct wm_unit *v = &s->units[i];
		if (v->destroyed || v->side == u->side)
			continue;
		struct table_rect rv = wm_rect(v);
		if (table_rect_within(&r, &rv, WM_NEAR))
			return 1;
	}
	return 0;
}

int wm_closest_enemy(const struct wm_state *s, const struct wm_unit *u, int visible)
{
	struct table_rect r = wm_rect(u);
	struct table_d2 best = { 0, 1 };
	int bi = -1;
	for (size_t i = 0; i < s->n_units; i++) {
		const struct wm_unit *v = &s->units[i];
		if (v->destroyed || v->side == u->side)
			continue;
		if (visible && !wm_visible(s, wm_centre(u), wm_centre(v)))
			continue;
		struct table_rect rv = wm_rect(v);
		struct table_d2 d2 = table_rect_d2(&r, &rv);
		if (bi < 0 || table_d2_cmp(d2, best) < 0) {
			best = d2;
			bi = (int)i;
		}
	}
	return bi;
}

void wm_translate(struct wm_unit *u, struct table_pt v)
{
	u->fl.x += v.x;
	u->fl.y += v.y;
	u->fr.x += v.x;
	u->fr.y += v.y;
}

/* One coordinate of wm_scale: sign(c) * round(sqrt(c^2 len^2 / d2)). */
static int32_t scale1(int32_t c, int64_t len, int64_t d2)
{
	__int128 q = (__int128)c * c * len * len / d2;
	int32_t v = (int32_t)table_isqrt_round((uint64_t)q);
	return c < 0 ? -v : v;
}

struct table_pt wm_scale(struct table_pt d, int64_t len)
{
	int64_t d2 = (int64_t)d.x * d.x + (int64_t)d.y * d.y;
	assert(d2 > 0);
	int sign = len < 0 ? -1 : 1;
	int64_t l = len < 0 ? -len : len;
	return (struct table_pt){ sign * scale1(d.x, l, d2), sign * scale1(d.y, l, d2) };
}

void wm_move_away(struct wm_unit *u, struct table_pt from, int64_t len)
{
	struct table_pt c = wm_centre(u);
	struct table_pt d = { c.x - from.x, c.y - from.y };
	if (d.x == 0 && d.y == 0) {
		struct table_rect r = wm_rect(u);
		d = (struct table_pt){ r.c[TABLE_RL].x - r.c[TABLE_FL].x,
			r.c[TABLE_RL].y - r.c[TABLE_FL].y };
	}
	if (len != 0)
		wm_translate(u, wm_scale(d, len));
}

void wm_set_formation(struct wm_unit *u, enum wm_formation f)
{
	struct table_pt c = wm_front_centre(u);
	struct table_pt e = { u->fr.x - u->fl.x, u->fr.y - u->fl.y };
	int n = u->stands > 0 ? u->stands : 1;
	int w = f == WM_COLUMN ? u->stand_w : n * u->stand_w;
	struct table_pt half = wm_scale(e, w / 2), full = wm_scale(e, w);
	u->fl = (struct table_pt){ c.x - half.x, c.y - half.y };
	u->fr = (struct table_pt){ u->fl.x + full.x, u->fl.y + full.y };
	u->formation = f;
}

static int vessel(enum wm_utype t)
{
	return t == WM_BOAT || t == WM_GALLEY || t == WM_SHIP;
}

int wm_move_pace(const struct wm_state *s, const struct wm_unit *u, struct table_pt a,
	struct table_pt b)
{
	int pace = u->pace;
	struct table_pt dir = { b.x - a.x, b.y - a.y };
	if (u->formation == WM_IRREGULAR)
		pace /= 2;
	if (!vessel(u->type) || (dir.x == 0 && dir.y == 0))
		return pace;
	for (size_t i = 0; i < s->n_areas; i++) {
		const struct wm_area *r = &s->areas[i];
		if (r->kind != WM_RIVER || !in_area(r, a))
			continue;
		int64_t dot = table_dot(dir, r->flow);
		pace += dot > 0 ? 50 : dot < 0 ? -50 : 0;
		break;
	}
	if (u->type == WM_SHIP && table_dot(dir, s->wind) > 0)
		pace += 100;
	return pace;
}

/* Where u's front centre is after budget mm of path (from its current front centre). */
static struct table_pt along_path(const struct wm_unit *u, const struct table_pt *path, size_t n,
	int64_t budget)
{
	struct table_pt w[WM_MAX_PATH + 1];
	struct table_reach r;
	w[0] = wm_front_centre(u);
	for (size_t i = 0; i < n && i < WM_MAX_PATH; i++)
		w[i + 1] = path[i];
	table_path_reach(&r, w, n + 1, NULL, 0, TABLE_REACH_NEAREST, budget << TABLE_SUB_SHIFT);
	return (struct table_pt){ r.at.x - w[0].x, r.at.y - w[0].y };
}

/* The first unit (not in v, not ignored) that one of units v moved by t would overlap, or -1.
 * passed (not NULL: a burst through): friendly units not in combat are marked there instead. */
static int overlapped(const struct wm_state *s, const int *v, size_t n, struct table_pt t,
	const unsigned char *ignore, unsigned char *passed)
{
	for (size_t k = 0; k < n; k++) {
		struct wm_unit m = s->units[v[k]];
		wm_translate(&m, t);
		struct table_rect r = wm_rect(&m);
		for (size_t i = 0; i < s->n_units; i++) {
			const struct wm_unit *o = &s->units[i];
			if (o->destroyed || ignore[i])
				continue;
			struct table_rect ro = wm_rect(o);
			if (table_rect_overlap(&r, &ro) != TABLE_OVERLAPPING)
				continue;
			if (passed && o->side == s->units[v[k]].side && !o->engaged)
				passed[i] = 1;
			else
				return (int)i;
		}
	}
	return -1;
}

struct table_pt wm_move_blocked(const struct wm_state *s, const int *v, size_t n,
	const struct table_pt *path, size_t n_path, int64_t budget, unsigned char *passed,
	int *blocker)
{
	unsigned char ignore[WM_MAX_UNITS] = { 0 };
	const struct wm_unit *u = &s->units[v[0]];
	*blocker = -1;
	if (u->type == WM_FLYER)
		return along_path(u, path, n_path, budget);
	for (size_t k = 0; k < n; k++) {
		/* the units moving and any they overlap already (placed so) do not stop them */
		struct table_rect a = wm_rect(&s->units[v[k]]);
		ignore[v[k]] = 1;
		for (size_t i = 0; i < s->n_units && i < WM_MAX_UNITS; i++) {
			struct table_rect b = wm_rect(&s->units[i]);
			if (table_rect_overlap(&a, &b) == TABLE_OVERLAPPING)
				ignore[i] = 1;
		}
	}
	/* 10 mm steps cannot jump a footprint (stands are at least 20 mm deep); then mm by mm. */
	int64_t ok = 0, step = 10;
	while (ok < budget) {
		int64_t next = ok + step < budget ? ok + step : budget;
		int b = overlapped(s, v, n, along_path(u, path, n_path, next), ignore, passed);
		if (b < 0) {
			ok = next;
			continue;
		}
		if (step == 1) {
			*blocker = b;
			break;
		}
		step = 1;
	}
	struct table_pt t = along_path(u, path, n_path, ok);
	if (passed && ok > 0) {
		/* a burst through must pass completely: ending on a friend, it stops short of it */
		unsigned char end[WM_MAX_UNITS] = { 0 };
		if (overlapped(s, v, n, t, ignore, end) < 0) {
			int on = 0;
			for (size_t i = 0; i < s->n_units && i < WM_MAX_UNITS; i++)
				on |= end[i];
			if (!on)
				return t;
		}
		memset(passed, 0, s->n_units);
		return wm_move_blocked(s, v, n, path, n_path, budget, NULL, blocker);
	}
	return t;
}

/* How far p lies ahead of the line through u's front edge, times the edge's length (the
 * cross product of fl->fr and fl->p; the unit faces to its left): positive strictly in
 * front, 0 on the line. */
static int64_t ahead(const struct wm_unit *u, struct table_pt p)
{
	struct table_pt e = { u->fr.x - u->fl.x, u->fr.y - u->fl.y };
	struct table_pt v = { p.x - u->fl.x, p.y - u->fl.y };
	return table_cross(e, v);
}

int wm_in_arc_pt(const struct wm_unit *u, struct table_pt p)
{
	return u->all_round || ahead(u, p) > 0;
}

int wm_in_arc(const struct wm_unit *u, const struct table_rect *r)
{
	if (u->all_round)
		return 1;
	for (int k = 0; k < 4; k++)
		if (ahead(u, r->c[k]) > 0)
			return 1;
	return 0;
}
