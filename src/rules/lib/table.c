/* table.c — integer tabletop geometry: exact predicates on bounded int32 coordinates with int64
 * and __int128 intermediates; polygons, sight lines, obstacles, movement cost, unit footprints.
 * docs/geometry.md specifies every method and rounding rule; keep the two in step. */
#include <assert.h>
#include <stdlib.h>

#include "core/buf.h"
#include "rules/lib/table.h"
#include "core/banned.h"

typedef __int128 i128;
typedef unsigned __int128 u128;

static const struct table_frac frac_zero = { 0, 1 };
static const struct table_frac frac_one = { 1, 1 };

/* ---- points, lengths, ranges ------------------------------------------------------------- */

int table_pt_ok(struct table_pt p)
{
	return p.x >= -TABLE_COORD_MAX && p.x <= TABLE_COORD_MAX && p.y >= -TABLE_COORD_MAX &&
	       p.y <= TABLE_COORD_MAX;
}

static struct table_pt vsub(struct table_pt a, struct table_pt b)
{
	assert(table_pt_ok(a) && table_pt_ok(b));
	return (struct table_pt){ a.x - b.x, a.y - b.y };
}

static int pt_eq(struct table_pt a, struct table_pt b)
{
	return a.x == b.x && a.y == b.y;
}

static int sign64(int64_t v)
{
	return (v > 0) - (v < 0);
}

int64_t table_cross(struct table_pt u, struct table_pt v)
{
	return (int64_t)u.x * v.y - (int64_t)u.y * v.x;
}

int64_t table_dot(struct table_pt u, struct table_pt v)
{
	return (int64_t)u.x * v.x + (int64_t)u.y * v.y;
}

int64_t table_dist2(struct table_pt a, struct table_pt b)
{
	struct table_pt d = vsub(b, a);
	return table_dot(d, d);
}

int table_dist_cmp(struct table_pt a, struct table_pt b, int64_t r)
{
	assert(r >= 0 && r <= TABLE_RANGE_MAX);
	return sign64(table_dist2(a, b) - r * r);
}

int table_within(struct table_pt a, struct table_pt b, int64_t r)
{
	return table_dist_cmp(a, b, r) <= 0;
}

int table_within_strict(struct table_pt a, struct table_pt b, int64_t r)
{
	return table_dist_cmp(a, b, r) < 0;
}

/* floor(sqrt(n)) bit by bit: 64 exact steps, no estimate to correct. */
static uint64_t isqrt128(u128 n)
{
	uint64_t r = 0;
	for (int bit = 63; bit >= 0; bit--) {
		uint64_t c = r | (uint64_t)1 << bit;
		if ((u128)c * c <= n)
			r = c;
	}
	return r;
}

uint64_t table_isqrt(uint64_t n)
{
	return isqrt128(n);
}

uint64_t table_isqrt_round(uint64_t n)
{
	/* sqrt(n) >= k + 1/2 iff n >= k^2 + k + 1/4 iff n > k^2 + k: halves never occur. */
	uint64_t k = isqrt128(n);
	return n - k * k > k ? k + 1 : k;
}

int64_t table_length_round(struct table_pt a, struct table_pt b)
{
	return (int64_t)table_isqrt_round((uint64_t)table_dist2(a, b));
}

int64_t table_length_sub(struct table_pt a, struct table_pt b)
{
	return (int64_t)isqrt128((u128)table_dist2(a, b) << (2 * TABLE_SUB_SHIFT));
}

/* ---- positions along a segment ----------------------------------------------------------- */

int table_frac_cmp(struct table_frac a, struct table_frac b)
{
	assert(a.den > 0 && b.den > 0);
	i128 l = (i128)a.num * b.den, r = (i128)b.num * a.den;
	return (l > r) - (l < r);
}

static struct table_frac frac_min(struct table_frac a, struct table_frac b)
{
	return table_frac_cmp(a, b) <= 0 ? a : b;
}

static struct table_frac frac_max(struct table_frac a, struct table_frac b)
{
	return table_frac_cmp(a, b) >= 0 ? a : b;
}

/* floor(n / d) for d > 0 and n of either sign. */
static i128 floor_div(i128 n, i128 d)
{
	i128 q = n / d;
	return (n % d != 0 && n < 0) ? q - 1 : q;
}

/* The sub-unit position of t on a segment of sub-unit length len. */
static int64_t frac_pos(struct table_frac t, int64_t len)
{
	assert(t.num >= 0 && t.num <= t.den);
	return (int64_t)((i128)t.num * len / t.den);
}

int64_t table_frac_sub(struct table_pt a, struct table_pt b, struct table_frac t)
{
	return frac_pos(t, table_length_sub(a, b));
}

struct table_pt table_frac_point(struct table_pt a, struct table_pt b, struct table_frac t)
{
	struct table_pt d = vsub(b, a);
	/* round(t * d) = floor((2 num d + den) / (2 den)): halves go towards +inf. */
	i128 ox = floor_div(2 * (i128)t.num * d.x + t.den, 2 * (i128)t.den);
	i128 oy = floor_div(2 * (i128)t.num * d.y + t.den, 2 * (i128)t.den);
	return (struct table_pt){ a.x + (int32_t)ox, a.y + (int32_t)oy };
}

/* The position of p, known to be on line ab (a != b), along ab. */
static struct table_frac proj_frac(struct table_pt p, struct table_pt a, struct table_pt b)
{
	struct table_pt d = vsub(b, a);
	return (struct table_frac){ table_dot(vsub(p, a), d), table_dot(d, d) };
}

/* ---- orientation and segments -------------------------------------------------------------- */

int table_orient(struct table_pt a, struct table_pt b, struct table_pt c)
{
	return sign64(table_cross(vsub(b, a), vsub(c, a)));
}

int table_on_seg(struct table_pt p, struct table_pt a, struct table_pt b)
{
	if (table_orient(a, b, p) != 0)
		return 0;
	return (p.x >= a.x || p.x >= b.x) && (p.x <= a.x || p.x <= b.x) &&
	       (p.y >= a.y || p.y >= b.y) && (p.y <= a.y || p.y <= b.y);
}

/* On segment ab but not at either end. */
static int on_open_seg(struct table_pt p, struct table_pt a, struct table_pt b)
{
	return table_on_seg(p, a, b) && !pt_eq(p, a) && !pt_eq(p, b);
}

/* ab and cd cross at one point inside both. */
static int proper_cross(struct table_pt a, struct table_pt b, struct table_pt c, struct table_pt d)
{
	return table_orient(a, b, c) * table_orient(a, b, d) < 0 &&
	       table_orient(c, d, a) * table_orient(c, d, b) < 0;
}

/* Where line ab meets line cd along ab (the lines not parallel). */
static struct table_frac line_meet(struct table_pt a, struct table_pt b, struct table_pt c,
	struct table_pt d)
{
	struct table_pt e = vsub(d, c);
	int64_t num = table_cross(vsub(c, a), e), den = table_cross(vsub(b, a), e);
	assert(den != 0);
	return den > 0 ? (struct table_frac){ num, den } : (struct table_frac){ -num, -den };
}

/* The overlap of collinear segment cd with ab (a != b) as positions along ab; 0 if none. */
static int collinear_overlap(struct table_frac *lo, struct table_frac *hi, struct table_pt a,
	struct table_pt b, struct table_pt c, struct table_pt d)
{
	struct table_pt ab = vsub(b, a);
	int64_t dd = table_dot(ab, ab), nc = table_dot(vsub(c, a), ab);
	int64_t nd = table_dot(vsub(d, a), ab);
	int64_t l = nc < nd ? nc : nd, h = nc < nd ? nd : nc;
	if (l < 0)
		l = 0;
	if (h > dd)
		h = dd;
	if (l > h)
		return 0;
	*lo = (struct table_frac){ l, dd };
	*hi = (struct table_frac){ h, dd };
	return 1;
}

/* Either segment a point: TOUCH if it lies on the other. */
static enum table_isect point_isect(struct table_frac *at, struct table_pt a, struct table_pt b,
	struct table_pt c, struct table_pt d)
{
	if (pt_eq(a, b)) {
		*at = frac_zero;
		return table_on_seg(a, c, d) ? TABLE_ISECT_TOUCH : TABLE_ISECT_NONE;
	}
	*at = proj_frac(c, a, b);
	return table_on_seg(c, a, b) ? TABLE_ISECT_TOUCH : TABLE_ISECT_NONE;
}

enum table_isect table_seg_isect(struct table_frac *at, struct table_pt a, struct table_pt b,
	struct table_pt c, struct table_pt d)
{
	struct table_frac where = frac_zero, hi;
	enum table_isect k;
	int o1 = table_orient(a, b, c), o2 = table_orient(a, b, d);
	int o3 = table_orient(c, d, a), o4 = table_orient(c, d, b);

	if (pt_eq(a, b) || pt_eq(c, d))
		k = point_isect(&where, a, b, c, d);
	else if (o1 == 0 && o2 == 0)
		k = !collinear_overlap(&where, &hi, a, b, c, d) ? TABLE_ISECT_NONE :
		    table_frac_cmp(where, hi) < 0               ? TABLE_ISECT_OVERLAP :
								  TABLE_ISECT_TOUCH;
	else if (o1 * o2 > 0 || o3 * o4 > 0)
		k = TABLE_ISECT_NONE;
	else if (o1 == 0 || o2 == 0 || o3 == 0 || o4 == 0) {
		k = TABLE_ISECT_TOUCH;
		where = o3 == 0 ? frac_zero : o4 == 0 ? frac_one : proj_frac(o1 == 0 ? c : d, a, b);
	} else {
		k = TABLE_ISECT_CROSS;
		where = line_meet(a, b, c, d);
	}
	if (at && k != TABLE_ISECT_NONE)
		*at = where;
	return k;
}

/* ---- polygons ------------------------------------------------------------------------------- */

static struct table_pt poly_at(const struct table_poly *p, size_t i)
{
	return p->v[i % p->n];
}

enum table_where table_poly_where(const struct table_poly *p, struct table_pt q)
{
	int odd = 0;
	for (size_t i = 0; i < p->n; i++) {
		struct table_pt a = p->v[i], b = poly_at(p, i + 1);
		if (table_on_seg(q, a, b))
			return TABLE_BOUNDARY;
		/* Half-open in y, so a ray through a vertex counts it once; q is not on the
		 * edge, so the orientation is not 0. */
		if ((a.y > q.y) != (b.y > q.y) && (b.y > a.y) == (table_orient(a, b, q) > 0))
			odd ^= 1;
	}
	return odd ? TABLE_INSIDE : TABLE_OUTSIDE;
}

/* 1 if edges i and j (i < j) of p meet where a simple polygon's may not: neighbours only at
 * their shared vertex, others not at all. */
static int edges_clash(const struct table_poly *p, size_t i, size_t j)
{
	enum table_isect k = table_seg_isect(NULL, p->v[i], poly_at(p, i + 1), p->v[j],
		poly_at(p, j + 1));
	if (j == i + 1 || (i == 0 && j == p->n - 1))
		return k == TABLE_ISECT_OVERLAP;
	return k != TABLE_ISECT_NONE;
}

/* The first fault of p and where (see table_poly_check), or 0. */
static int poly_fault(const struct table_poly *p, size_t *at)
{
	for (*at = 0; *at < p->n; ++*at) {
		if (!table_pt_ok(p->v[*at]))
			return TABLE_EBOUNDS;
		if (pt_eq(p->v[*at], poly_at(p, *at + 1)))
			return TABLE_EDEGEN;
	}
	/* An edge folding back over its neighbour is a spike of zero width; this also
	 * catches every polygon whose vertices are all on one line. */
	for (*at = 0; *at < p->n; ++*at)
		if (*at + 1 < p->n ? edges_clash(p, *at, *at + 1) : edges_clash(p, 0, *at))
			return TABLE_EDEGEN;
	for (*at = 0; *at < p->n; ++*at)
		for (size_t j = *at + 2; j < p->n; j++)
			if (edges_clash(p, *at, j))
				return TABLE_ESELF;
	return 0;
}

int table_poly_check(const struct table_poly *p, size_t *at)
{
	size_t where;
	int rc = p->n < 3 ? TABLE_EFEW : poly_fault(p, &where);
	if (rc && at)
		*at = p->n < 3 ? 0 : where;
	return rc;
}

/* 1 if p winds counter-clockwise: the turn at its lowest, then leftmost, vertex. */
static int poly_ccw(const struct table_poly *p)
{
	size_t m = 0;
	for (size_t i = 1; i < p->n; i++)
		if (p->v[i].y < p->v[m].y || (p->v[i].y == p->v[m].y && p->v[i].x < p->v[m].x))
			m = i;
	return table_orient(poly_at(p, m + p->n - 1), p->v[m], poly_at(p, m + 1)) > 0;
}

/* A place where segment AB meets a polygon's boundary. */
struct event {
	struct table_frac t; /* position along AB */
	size_t i;            /* the vertex, or the edge's first vertex */
	int vertex;          /* 1: at vertex i; 0: inside edge i .. i+1 */
};

static int event_cmp(const void *pa, const void *pb)
{
	const struct event *a = pa, *b = pb;
	int c = table_frac_cmp(a->t, b->t);
	if (c == 0)
		c = (a->vertex < b->vertex) - (a->vertex > b->vertex);
	if (c == 0)
		c = (a->i > b->i) - (a->i < b->i);
	return c;
}

/* Fills ev (room for 2 n + 1) with where AB (a != b) meets p's boundary, sorted along AB:
 * vertices on AB, A inside an edge, and proper crossings of edges. (B inside an edge needs
 * no event: nothing follows it.) */
static size_t poly_events(struct event *ev, const struct table_poly *p, struct table_pt a,
	struct table_pt b)
{
	size_t k = 0;
	for (size_t i = 0; i < p->n; i++) {
		struct table_pt v = p->v[i], w = poly_at(p, i + 1);
		if (table_on_seg(v, a, b))
			ev[k++] = (struct event){ proj_frac(v, a, b), i, 1 };
		if (on_open_seg(a, v, w))
			ev[k++] = (struct event){ frac_zero, i, 0 };
		if (proper_cross(a, b, v, w))
			ev[k++] = (struct event){ line_meet(a, b, v, w), i, 0 };
	}
	qsort(ev, k, sizeof(*ev), event_cmp);
	return k;
}

static int same_dir(struct table_pt u, struct table_pt v)
{
	return table_cross(u, v) == 0 && table_dot(u, v) > 0;
}

/* 1 if direction d lies strictly inside the counter-clockwise sweep from r1 to r2. */
static int in_sweep(struct table_pt r1, struct table_pt r2, struct table_pt d)
{
	int64_t turn = table_cross(r1, r2);
	int after1 = table_cross(r1, d) > 0, before2 = table_cross(d, r2) > 0;
	if (turn > 0)
		return after1 && before2;
	if (turn < 0)
		return after1 || before2;
	return after1;
}

/* Where AB goes just after event e, heading d: into p, out of it, or along an edge. */
static enum table_where leave_state(const struct table_poly *p, int ccw, const struct event *e,
	struct table_pt d)
{
	struct table_pt v = p->v[e->i], next = vsub(poly_at(p, e->i + 1), v);
	if (!e->vertex) {
		int64_t c = table_cross(next, d);
		if (c == 0)
			return TABLE_BOUNDARY;
		return (c > 0) == ccw ? TABLE_INSIDE : TABLE_OUTSIDE;
	}
	struct table_pt back = vsub(poly_at(p, e->i + p->n - 1), v);
	if (same_dir(d, next) || same_dir(d, back))
		return TABLE_BOUNDARY;
	/* The interior at v is the sweep from the outgoing to the incoming edge, taken
	 * counter-clockwise for a counter-clockwise polygon. */
	return in_sweep(ccw ? next : back, ccw ? back : next, d) ? TABLE_INSIDE : TABLE_OUTSIDE;
}

static size_t span_push(struct table_span *sp, size_t n, struct table_frac from,
	struct table_frac to, enum table_where w)
{
	if (n > 0 && sp[n - 1].where == w) {
		sp[n - 1].to = to;
		return n;
	}
	sp[n] = (struct table_span){ from, to, w };
	return n + 1;
}

/* Fills sp (room for 2 n + 3) with the spans of ab in p; *inner (if not NULL) is set to 1 if
 * the boundary meets AB strictly between A and B. */
static size_t seg_spans(struct table_span *sp, int *inner, const struct table_poly *p,
	struct table_pt a, struct table_pt b)
{
	enum table_where state = table_poly_where(p, a);
	struct table_frac from = frac_zero;
	size_t n = 0, n_ev;
	struct event *ev;
	int ccw;

	if (inner)
		*inner = 0;
	if (pt_eq(a, b))
		return span_push(sp, 0, frac_zero, frac_one, state);
	ev = xmalloc((2 * p->n + 1) * sizeof(*ev));
	n_ev = poly_events(ev, p, a, b);
	ccw = poly_ccw(p);
	for (size_t i = 0; i < n_ev; i++) {
		if (table_frac_cmp(from, ev[i].t) < 0)
			n = span_push(sp, n, from, ev[i].t, state);
		state = leave_state(p, ccw, &ev[i], vsub(b, a));
		from = ev[i].t;
		if (inner && ev[i].t.num > 0 && table_frac_cmp(ev[i].t, frac_one) < 0)
			*inner = 1;
	}
	if (table_frac_cmp(from, frac_one) < 0)
		n = span_push(sp, n, from, frac_one, state);
	free(ev);
	return n;
}

size_t table_seg_spans(struct table_span **out, const struct table_poly *p, struct table_pt a,
	struct table_pt b)
{
	*out = xmalloc((2 * p->n + 3) * sizeof(**out));
	return seg_spans(*out, NULL, p, a, b);
}

void table_seg_measure(struct table_measure *out, const struct table_poly *p, struct table_pt a,
	struct table_pt b)
{
	struct table_span *sp = xmalloc((2 * p->n + 3) * sizeof(*sp));
	int inner;
	size_t n = seg_spans(sp, &inner, p, a, b);

	*out = (struct table_measure){ table_length_sub(a, b), 0, 0, inner };
	for (size_t i = 0; i < n; i++) {
		int64_t len = frac_pos(sp[i].to, out->length) - frac_pos(sp[i].from, out->length);
		if (sp[i].where == TABLE_INSIDE)
			out->inside += len;
		else if (sp[i].where == TABLE_BOUNDARY)
			out->along += len;
		if (sp[i].where != TABLE_OUTSIDE)
			out->touches = 1;
	}
	if (table_poly_where(p, a) != TABLE_OUTSIDE || table_poly_where(p, b) != TABLE_OUTSIDE)
		out->touches = 1;
	free(sp);
}

/* ---- line of sight -------------------------------------------------------------------------- */

static int los_blocked_by(const struct table_poly *p, struct table_pt a, struct table_pt b,
	unsigned flags)
{
	struct table_span *sp;
	int inner, blocked = 0;
	size_t n;

	if (pt_eq(a, b))
		return 0;
	if ((flags & TABLE_LOS_IGNORE_HOLDING) &&
		(table_poly_where(p, a) == TABLE_INSIDE || table_poly_where(p, b) == TABLE_INSIDE))
		return 0;
	sp = xmalloc((2 * p->n + 3) * sizeof(*sp));
	n = seg_spans(sp, &inner, p, a, b);
	for (size_t i = 0; i < n; i++)
		if (sp[i].where == TABLE_INSIDE ||
			(sp[i].where == TABLE_BOUNDARY && (flags & TABLE_LOS_GRAZE_BLOCKS)))
			blocked = 1;
	if (inner && (flags & TABLE_LOS_GRAZE_BLOCKS))
		blocked = 1;
	free(sp);
	return blocked;
}

int table_los_blocked(size_t *which, const struct table_poly *polys, size_t n, struct table_pt a,
	struct table_pt b, unsigned flags)
{
	for (size_t i = 0; i < n; i++) {
		if (los_blocked_by(&polys[i], a, b, flags)) {
			if (which)
				*which = i;
			return 1;
		}
	}
	return 0;
}

/* ---- linear obstacles ------------------------------------------------------------------------ */

int table_line_check(const struct table_line *l, size_t *at)
{
	int rc = 0;
	size_t i;
	if (l->n < 2)
		return TABLE_EFEW;
	for (i = 0; i < l->n && !rc; i++) {
		if (!table_pt_ok(l->v[i]))
			rc = TABLE_EBOUNDS;
		else if (i + 1 < l->n && pt_eq(l->v[i], l->v[i + 1]))
			rc = TABLE_EDEGEN;
	}
	if (rc && at)
		*at = i - 1;
	return rc;
}

/* The contact of segment pq with AB (a != b) as positions along AB; 0 if none. */
static int seg_contact(struct table_frac *lo, struct table_frac *hi, struct table_pt a,
	struct table_pt b, struct table_pt p, struct table_pt q)
{
	int o1 = table_orient(a, b, p), o2 = table_orient(a, b, q);
	if (o1 == 0 && o2 == 0)
		return collinear_overlap(lo, hi, a, b, p, q);
	if (o1 * o2 > 0)
		return 0;
	if (o1 == 0 || o2 == 0) {
		struct table_pt x = o1 == 0 ? p : q;
		*lo = *hi = proj_frac(x, a, b);
		return table_on_seg(x, a, b);
	}
	/* p and q on strictly opposite sides: the crossing is on AB unless A and B lie on
	 * the same side of pq. */
	if (table_orient(p, q, a) * table_orient(p, q, b) > 0)
		return 0;
	*lo = *hi = line_meet(a, b, p, q);
	return 1;
}

/* An obstacle walked as a chain of segments, starting off AB if it is a closed ring. */
struct chain {
	const struct table_line *l; /* the obstacle */
	size_t m;                   /* segments */
	size_t r;                   /* rotation (closed rings only) */
	int closed;
};

static size_t chain_ix(const struct chain *c, size_t j)
{
	return c->closed ? (c->r + j) % c->m : j;
}

static struct table_pt chain_at(const struct chain *c, size_t j)
{
	return c->l->v[chain_ix(c, j)];
}

static void chain_init(struct chain *c, const struct table_line *l, struct table_pt a,
	struct table_pt b)
{
	*c = (struct chain){ l, l->n - 1, 0, l->n >= 4 && pt_eq(l->v[0], l->v[l->n - 1]) };
	/* Start a ring at a vertex off AB, so no contact wraps round the walk's end. */
	while (c->closed && c->r < c->m && table_on_seg(l->v[c->r], a, b))
		c->r++;
	if (c->r == c->m)
		c->r = 0;
}

/* The side of AB a chain vertex lies on (0 on AB's line: then the contact is not a crossing,
 * the chain ending on AB or, beyond A or B, the contact including A or B). */
static int chain_side(const struct chain *c, size_t j, struct table_pt a, struct table_pt b)
{
	return table_orient(a, b, chain_at(c, j));
}

/* Appends to out the contacts of obstacle `line` with AB (a != b). */
static size_t line_contacts(struct table_crossing *out, size_t line, const struct table_line *l,
	struct table_pt a, struct table_pt b)
{
	struct chain c;
	size_t n = 0;
	chain_init(&c, l, a, b);
	for (size_t k = 0; k < c.m; k++) {
		struct table_frac lo, hi, lo2, hi2;
		if (!seg_contact(&lo, &hi, a, b, chain_at(&c, k), chain_at(&c, k + 1)))
			continue;
		size_t start = k;
		/* The next segment continues the contact when their shared vertex is on AB. */
		while (k + 1 < c.m && table_on_seg(chain_at(&c, k + 1), a, b)) {
			k++;
			seg_contact(&lo2, &hi2, a, b, chain_at(&c, k), chain_at(&c, k + 1));
			lo = frac_min(lo, lo2);
			hi = frac_max(hi, hi2);
		}
		int at_end = lo.num == 0 || table_frac_cmp(hi, frac_one) == 0;
		int passes = chain_side(&c, start, a, b) * chain_side(&c, k + 1, a, b) < 0;
		enum table_contact kind = table_frac_cmp(lo, hi) < 0 ? TABLE_ALONG : TABLE_TOUCH;
		if (passes && !at_end)
			kind = TABLE_CROSS;
		out[n++] = (struct table_crossing){ line, chain_ix(&c, start), lo, hi, kind };
	}
	return n;
}

static int crossing_cmp(const void *pa, const void *pb)
{
	const struct table_crossing *a = pa, *b = pb;
	int c = table_frac_cmp(a->from, b->from);
	if (c == 0)
		c = table_frac_cmp(a->to, b->to);
	if (c == 0)
		c = (a->line > b->line) - (a->line < b->line);
	if (c == 0)
		c = (a->seg > b->seg) - (a->seg < b->seg);
	return c;
}

size_t table_crossings(struct table_crossing **out, const struct table_line *lines, size_t n,
	struct table_pt a, struct table_pt b)
{
	size_t room = 0, k = 0;
	for (size_t i = 0; i < n; i++)
		room += lines[i].n - 1;
	*out = NULL;
	if (room == 0)
		return 0;
	*out = xmalloc(room * sizeof(**out));
	for (size_t i = 0; i < n; i++) {
		if (!pt_eq(a, b)) {
			k += line_contacts(*out + k, i, &lines[i], a, b);
			continue;
		}
		for (size_t s = 0; s + 1 < lines[i].n; s++)
			if (table_on_seg(a, lines[i].v[s], lines[i].v[s + 1])) {
				(*out)[k++] = (struct table_crossing){ i, s, frac_zero, frac_zero,
					TABLE_TOUCH };
				break;
			}
	}
	qsort(*out, k, sizeof(**out), crossing_cmp);
	if (k == 0) {
		free(*out);
		*out = NULL;
	}
	return k;
}

/* ---- movement through areas ------------------------------------------------------------------ */

/* A stretch of one leg at one cost multiplier, in sub-units from the leg's start. */
struct run {
	int64_t from; /* sub-units from the leg's start */
	int64_t to;   /* > from */
	int32_t num;  /* cost multiplier num / den */
	int32_t den;
};

static int cost_cmp(int32_t n1, int32_t d1, int32_t n2, int32_t d2)
{
	return sign64((int64_t)n1 * d2 - (int64_t)n2 * d1);
}

static int frac_qcmp(const void *a, const void *b)
{
	return table_frac_cmp(*(const struct table_frac *)a, *(const struct table_frac *)b);
}

/* The breakpoints of a leg: every span end of every area, sorted, without repeats. */
static size_t leg_breaks(struct table_frac *br, struct table_span *const *sp, const size_t *n_sp,
	size_t n_areas)
{
	size_t n = 0, u = 0;
	for (size_t k = 0; k < n_areas; k++)
		for (size_t i = 0; i < n_sp[k]; i++) {
			br[n++] = sp[k][i].from;
			br[n++] = sp[k][i].to;
		}
	qsort(br, n, sizeof(*br), frac_qcmp);
	for (size_t i = 0; i < n; i++)
		if (u == 0 || table_frac_cmp(br[u - 1], br[i]) != 0)
			br[u++] = br[i];
	return u;
}

/* The multiplier of the piece starting at `from`: the highest of the areas it lies in. Each
 * area's cursor cur[k] only moves forward, since pieces come in order. */
static void piece_cost(int32_t *num, int32_t *den, struct table_frac from,
	const struct table_area *areas, struct table_span *const *sp, const size_t *n_sp,
	size_t *cur, size_t n_areas, unsigned flags)
{
	*num = 1;
	*den = 1;
	int in_any = 0;
	for (size_t k = 0; k < n_areas; k++) {
		while (cur[k] + 1 < n_sp[k] && table_frac_cmp(sp[k][cur[k]].to, from) <= 0)
			cur[k]++;
		enum table_where w = sp[k][cur[k]].where;
		if (w == TABLE_OUTSIDE || (w == TABLE_BOUNDARY && !(flags & TABLE_MOVE_EDGE_IN)))
			continue;
		if (!in_any || cost_cmp(areas[k].num, areas[k].den, *num, *den) > 0) {
			*num = areas[k].num;
			*den = areas[k].den;
		}
		in_any = 1;
	}
}

/* Fills *out (a new array, caller frees) with the runs of leg ab; returns their count. */
static size_t leg_runs(struct run **out, struct table_pt a, struct table_pt b,
	const struct table_area *areas, size_t n_areas, unsigned flags)
{
	struct table_span **sp = xcalloc(n_areas + 1, sizeof(*sp));
	size_t *n_sp = xcalloc(n_areas + 1, sizeof(*n_sp)),
	       *cur = xcalloc(n_areas + 1, sizeof(*cur));
	size_t room = 2, n_br, n = 0;
	int64_t len = table_length_sub(a, b);

	for (size_t k = 0; k < n_areas; k++) {
		assert(areas[k].num >= 1 && areas[k].num <= TABLE_COST_MAX);
		assert(areas[k].den >= 1 && areas[k].den <= TABLE_COST_MAX);
		n_sp[k] = table_seg_spans(&sp[k], &areas[k].poly, a, b);
		room += 2 * n_sp[k];
	}
	struct table_frac *br = xmalloc(room * sizeof(*br));
	n_br = n_areas ? leg_breaks(br, sp, n_sp, n_areas) : 0;
	if (n_br == 0) {
		br[n_br++] = frac_zero;
		br[n_br++] = frac_one;
	}
	*out = xmalloc(n_br * sizeof(**out));
	for (size_t i = 0; i + 1 < n_br; i++) {
		int64_t from = frac_pos(br[i], len), to = frac_pos(br[i + 1], len);
		int32_t num, den;
		piece_cost(&num, &den, br[i], areas, sp, n_sp, cur, n_areas, flags);
		/* Pieces shorter than a sub-unit vanish; equal multipliers join a run, so
		 * rounding does not depend on how many boundaries split it. */
		if (from == to)
			continue;
		if (n > 0 && cost_cmp(num, den, (*out)[n - 1].num, (*out)[n - 1].den) == 0)
			(*out)[n - 1].to = to;
		else
			(*out)[n++] = (struct run){ from, to, num, den };
	}
	for (size_t k = 0; k < n_areas; k++)
		free(sp[k]);
	free(sp);
	free(n_sp);
	free(cur);
	free(br);
	return n;
}

static int64_t run_cost(const struct run *r, int64_t len)
{
	int64_t c = len * r->num;
	return (c + r->den - 1) / r->den;
}

int64_t table_path_length(const struct table_pt *w, size_t n)
{
	int64_t total = 0;
	for (size_t i = 0; i + 1 < n; i++)
		total += table_length_sub(w[i], w[i + 1]);
	return total;
}

int64_t table_path_cost(const struct table_pt *w, size_t n, const struct table_area *areas,
	size_t n_areas, unsigned flags)
{
	int64_t total = 0;
	assert(n >= 1 && n <= TABLE_PATH_MAX);
	for (size_t i = 0; i + 1 < n; i++) {
		struct run *runs;
		size_t n_runs = leg_runs(&runs, w[i], w[i + 1], areas, n_areas, flags);
		for (size_t k = 0; k < n_runs; k++)
			total += run_cost(&runs[k], runs[k].to - runs[k].from);
		free(runs);
	}
	return total;
}

/* The point `along` sub-units from a towards b, offsets truncated towards a. */
static struct table_pt leg_point(struct table_pt a, struct table_pt b, int64_t along)
{
	struct table_pt d = vsub(b, a);
	int64_t len = table_length_sub(a, b);
	assert(len > 0 && along >= 0 && along <= len);
	return (struct table_pt){ a.x + (int32_t)((i128)d.x * along / len),
		a.y + (int32_t)((i128)d.y * along / len) };
}

/* Spends what is left of the budget in one leg's runs; 1 if it ran out there. */
static int reach_leg(struct table_reach *out, const struct run *runs, size_t n_runs, int64_t budget)
{
	for (size_t k = 0; k < n_runs; k++) {
		int64_t len = runs[k].to - runs[k].from, c = run_cost(&runs[k], len);
		int64_t left = budget - out->spent;
		if (c <= left) {
			out->spent += c;
			out->along = runs[k].to;
			continue;
		}
		int64_t part = (int64_t)((i128)left * runs[k].den / runs[k].num);
		out->spent += run_cost(&runs[k], part);
		out->along = runs[k].from + part;
		return 1;
	}
	return 0;
}

/* TABLE_REACH_NEAREST (docs/geometry.md, "The last unit"): of the corners of the unit cell
 * holding the exact stop (the truncated point p, and p one unit further along the leg in x, in
 * y, in both; never past b's coordinates), the one whose squared distance from a, in
 * sub-units squared, is nearest along^2; of equals the one nearer a (the first in that order). */
static struct table_pt nearest_corner(struct table_pt a, struct table_pt b, struct table_pt p,
	int64_t along)
{
	int sx = b.x > a.x ? 1 : b.x < a.x ? -1 : 0, sy = b.y > a.y ? 1 : b.y < a.y ? -1 : 0;
	struct table_pt best = p;
	i128 want = (i128)along * along, best_err = -1;
	for (int k = 0; k < 4; k++) {
		struct table_pt q = { p.x + ((k & 1) ? sx : 0), p.y + ((k & 2) ? sy : 0) };
		if ((sx > 0 && q.x > b.x) || (sx < 0 && q.x < b.x) || (sy > 0 && q.y > b.y) ||
			(sy < 0 && q.y < b.y))
			continue;
		i128 d = (i128)table_dist2(a, q) << (2 * TABLE_SUB_SHIFT);
		i128 err = d > want ? d - want : want - d;
		if (best_err < 0 || err < best_err ||
			(err == best_err && table_dist2(a, q) < table_dist2(a, best))) {
			best = q;
			best_err = err;
		}
	}
	return best;
}

void table_path_reach(struct table_reach *out, const struct table_pt *w, size_t n,
	const struct table_area *areas, size_t n_areas, unsigned flags, int64_t budget)
{
	assert(n >= 1 && n <= TABLE_PATH_MAX && budget >= 0);
	*out = (struct table_reach){ 1, 0, 0, 0, w[0] };
	for (size_t i = 0; i + 1 < n; i++) {
		struct run *runs;
		size_t n_runs = leg_runs(&runs, w[i], w[i + 1], areas, n_areas, flags);
		int stopped;
		out->leg = i;
		out->along = 0;
		stopped = reach_leg(out, runs, n_runs, budget);
		free(runs);
		if (stopped) {
			out->complete = 0;
			out->at = leg_point(w[i], w[i + 1], out->along);
			if (flags & TABLE_REACH_NEAREST)
				out->at = nearest_corner(w[i], w[i + 1], out->at, out->along);
			return;
		}
		out->at = w[i + 1];
	}
}

/* ---- squared distances -------------------------------------------------------------------- */

/* n * d as a 192-bit number (hi, lo), for n < 2^127 and d < 2^64. */
static void mul_wide(u128 *hi, uint64_t *lo, u128 n, uint64_t d)
{
	u128 low = (u128)(uint64_t)n * d;
	*lo = (uint64_t)low;
	*hi = (n >> 64) * d + (low >> 64);
}

int table_d2_cmp(struct table_d2 a, struct table_d2 b)
{
	u128 ha, hb;
	uint64_t la, lb;
	mul_wide(&ha, &la, a.num, b.den);
	mul_wide(&hb, &lb, b.num, a.den);
	if (ha != hb)
		return ha < hb ? -1 : 1;
	return (la > lb) - (la < lb);
}

int table_d2_cmp_r(struct table_d2 d, int64_t r)
{
	assert(r >= 0 && r <= TABLE_RANGE_MAX);
	u128 rr = (u128)(r * r) * d.den;
	return (d.num > rr) - (d.num < rr);
}

int64_t table_d2_sub(struct table_d2 d)
{
	return (int64_t)isqrt128((d.num << (2 * TABLE_SUB_SHIFT)) / d.den);
}

static struct table_d2 d2_int(int64_t v)
{
	return (struct table_d2){ (u128)v, 1 };
}

struct table_d2 table_seg_d2(struct table_pt p, struct table_pt a, struct table_pt b)
{
	struct table_pt e = vsub(b, a), ap = vsub(p, a);
	int64_t ee = table_dot(e, e), t = table_dot(ap, e);
	if (t <= 0)
		return d2_int(table_dot(ap, ap));
	if (t >= ee)
		return d2_int(table_dist2(p, b));
	i128 c = table_cross(e, ap);
	return (struct table_d2){ (u128)(c * c), (uint64_t)ee };
}

/* The squared distance between closed segments ab and cd. */
static struct table_d2 seg_seg_d2(struct table_pt a, struct table_pt b, struct table_pt c,
	struct table_pt d)
{
	if (table_seg_isect(NULL, a, b, c, d) != TABLE_ISECT_NONE)
		return d2_int(0);
	struct table_d2 best = table_seg_d2(a, c, d), x;
	if (table_d2_cmp(x = table_seg_d2(b, c, d), best) < 0)
		best = x;
	if (table_d2_cmp(x = table_seg_d2(c, a, b), best) < 0)
		best = x;
	if (table_d2_cmp(x = table_seg_d2(d, a, b), best) < 0)
		best = x;
	return best;
}

/* ---- oriented rectangles ------------------------------------------------------------------ */

static struct table_pt corner(const struct table_rect *r, int i)
{
	return r->c[i & 3];
}

/* round(q / sqrt(s)) for s > 0, halves away from zero: k = floor(|q|/sqrt(s) + 1/2) is
 * (m + 1) / 2 with m = floor(2 |q| / sqrt(s)) = isqrt(floor(4 q^2 / s)). */
static int64_t div_sqrt_round(int64_t q, int64_t s)
{
	u128 aq = (u128)(q < 0 ? -q : q);
	int64_t k = (int64_t)((isqrt128(4 * aq * aq / (u128)s) + 1) / 2);
	return q < 0 ? -k : k;
}

int table_rect_make(struct table_rect *out, struct table_pt fl, struct table_pt fr, int32_t depth)
{
	if (!table_pt_ok(fl) || !table_pt_ok(fr) || depth < 1 || depth > 2 * TABLE_COORD_MAX)
		return TABLE_EBOUNDS;
	if (pt_eq(fl, fr))
		return TABLE_EDEGEN;
	struct table_pt e = vsub(fr, fl);
	int64_t ee = table_dot(e, e);
	/* |o| is about depth >= 1, so o is never (0, 0). */
	int64_t ox = div_sqrt_round((int64_t)e.y * depth, ee);
	int64_t oy = div_sqrt_round(-(int64_t)e.x * depth, ee);
	int64_t rx[2] = { fr.x + ox, fl.x + ox }, ry[2] = { fr.y + oy, fl.y + oy };
	for (int i = 0; i < 2; i++)
		if (rx[i] < -TABLE_COORD_MAX || rx[i] > TABLE_COORD_MAX ||
			ry[i] < -TABLE_COORD_MAX || ry[i] > TABLE_COORD_MAX)
			return TABLE_EBOUNDS;
	out->c[TABLE_FL] = fl;
	out->c[TABLE_FR] = fr;
	out->c[TABLE_RR] = (struct table_pt){ (int32_t)rx[0], (int32_t)ry[0] };
	out->c[TABLE_RL] = (struct table_pt){ (int32_t)rx[1], (int32_t)ry[1] };
	return 0;
}

int table_rect_check(const struct table_rect *r)
{
	for (int i = 0; i < 4; i++)
		if (!table_pt_ok(r->c[i]))
			return TABLE_EBOUNDS;
	for (int i = 0; i < 4; i++)
		if (table_orient(corner(r, i), corner(r, i + 1), corner(r, i + 2)) >= 0)
			return TABLE_EDEGEN;
	return 0;
}

struct table_poly table_rect_poly(const struct table_rect *r)
{
	return (struct table_poly){ r->c, 4 };
}

enum table_where table_rect_where(const struct table_rect *r, struct table_pt p)
{
	struct table_poly poly = table_rect_poly(r);
	return table_poly_where(&poly, p);
}

static void project(int64_t *lo, int64_t *hi, const struct table_rect *r, struct table_pt axis)
{
	*lo = *hi = table_dot(r->c[0], axis);
	for (int i = 1; i < 4; i++) {
		int64_t v = table_dot(r->c[i], axis);
		*lo = v < *lo ? v : *lo;
		*hi = v > *hi ? v : *hi;
	}
}

enum table_overlap table_rect_overlap(const struct table_rect *a, const struct table_rect *b)
{
	int touch = 0;
	for (int s = 0; s < 8; s++) {
		const struct table_rect *r = s < 4 ? a : b;
		struct table_pt e = vsub(corner(r, s + 1), corner(r, s));
		struct table_pt axis = { -e.y, e.x };
		int64_t alo, ahi, blo, bhi;
		project(&alo, &ahi, a, axis);
		project(&blo, &bhi, b, axis);
		if (ahi < blo || bhi < alo)
			return TABLE_APART;
		if (ahi == blo || bhi == alo)
			touch = 1;
	}
	return touch ? TABLE_TOUCHING : TABLE_OVERLAPPING;
}

struct table_d2 table_rect_d2_pt(const struct table_rect *r, struct table_pt p)
{
	if (table_rect_where(r, p) != TABLE_OUTSIDE)
		return d2_int(0);
	struct table_d2 best = table_seg_d2(p, r->c[0], r->c[1]), x;
	for (int i = 1; i < 4; i++)
		if (table_d2_cmp(x = table_seg_d2(p, corner(r, i), corner(r, i + 1)), best) < 0)
			best = x;
	return best;
}

struct table_d2 table_rect_d2(const struct table_rect *a, const struct table_rect *b)
{
	/* Apart convex shapes are nearest at a corner of one and an edge of the other. */
	if (table_rect_overlap(a, b) != TABLE_APART)
		return d2_int(0);
	struct table_d2 best = table_rect_d2_pt(b, a->c[0]), x;
	for (int i = 0; i < 4; i++) {
		if (table_d2_cmp(x = table_rect_d2_pt(b, a->c[i]), best) < 0)
			best = x;
		if (table_d2_cmp(x = table_rect_d2_pt(a, b->c[i]), best) < 0)
			best = x;
	}
	return best;
}

int table_rect_within_pt(const struct table_rect *r, struct table_pt p, int64_t range)
{
	return table_d2_cmp_r(table_rect_d2_pt(r, p), range) <= 0;
}

int table_rect_within(const struct table_rect *a, const struct table_rect *b, int64_t range)
{
	return table_d2_cmp_r(table_rect_d2(a, b), range) <= 0;
}

/* ---- arcs ------------------------------------------------------------------------------------ */

/* A rational point (x / d, y / d): |x|, |y| < 2^79, 0 < d < 2^53. */
struct rpt {
	i128 x; /* x times d */
	i128 y; /* y times d */
	i128 d; /* > 0 */
};

static struct rpt rpt_of(struct table_pt p)
{
	return (struct rpt){ p.x, p.y, 1 };
}

/* table_orient(u, v, p) for a rational p (products below 2^105). */
static int rorient(struct table_pt u, struct table_pt v, struct rpt p)
{
	i128 ex = (i128)v.x - u.x, ey = (i128)v.y - u.y;
	i128 c = ex * (p.y - (i128)u.y * p.d) - ey * (p.x - (i128)u.x * p.d);
	return (c > 0) - (c < 0);
}

/* Which side of the line through corners i and j p lies on, +1 being corner k's side. */
static int side_of(const struct table_rect *r, int i, int j, int k, struct rpt p)
{
	return rorient(r->c[i], r->c[j], p) * table_orient(r->c[i], r->c[j], r->c[k]);
}

static enum table_arc arc_edges(const int out[4])
{
	int f = out[0], rt = out[1], rear = out[2], l = out[3];
	if (f >= 0 && l <= 0 && rt <= 0)
		return TABLE_ARC_FRONT;
	if (l >= 0 && f <= 0 && rear <= 0)
		return TABLE_ARC_LEFT;
	if (rt >= 0 && f <= 0 && rear <= 0)
		return TABLE_ARC_RIGHT;
	if (rear >= 0 && l <= 0 && rt <= 0)
		return TABLE_ARC_REAR;
	return TABLE_ARC_CORNER;
}

static enum table_arc arc_rpt(const struct table_rect *r, struct rpt p, enum table_arc_mode mode)
{
	int out[4];
	/* out[i] > 0: beyond edge i (front, right, rear, left), away from the far corner. */
	for (int i = 0; i < 4; i++)
		out[i] = -side_of(r, i, (i + 1) & 3, (i + 2) & 3, p);
	if (out[0] < 0 && out[1] < 0 && out[2] < 0 && out[3] < 0)
		return TABLE_ARC_INSIDE;
	if (mode == TABLE_ARCS_EDGES)
		return arc_edges(out);
	/* fl: +1 on front-left's side of diagonal rl-fr; fr: on front-right's side of rr-fl. */
	int fl = side_of(r, TABLE_RL, TABLE_FR, TABLE_FL, p);
	int fr = side_of(r, TABLE_RR, TABLE_FL, TABLE_FR, p);
	if (fl >= 0)
		return fr >= 0 ? TABLE_ARC_FRONT : TABLE_ARC_LEFT;
	return fr >= 0 ? TABLE_ARC_RIGHT : TABLE_ARC_REAR;
}

enum table_arc table_arc(const struct table_rect *r, struct table_pt p, enum table_arc_mode mode)
{
	return arc_rpt(r, rpt_of(p), mode);
}

/* The middle of the part of edge b0-b1 facing a parallel edge a0-a1; 0 if that part is a
 * point or empty. */
static int facing_middle(struct rpt *out, struct table_pt a0, struct table_pt a1,
	struct table_pt b0, struct table_pt b1)
{
	struct table_pt f = vsub(b1, b0);
	if (table_cross(vsub(a1, a0), f) != 0)
		return 0;
	int64_t ff = table_dot(f, f), n0 = table_dot(vsub(a0, b0), f);
	int64_t n1 = table_dot(vsub(a1, b0), f);
	int64_t lo = n0 < n1 ? n0 : n1, hi = n0 < n1 ? n1 : n0;
	lo = lo < 0 ? 0 : lo;
	hi = hi > ff ? ff : hi;
	if (lo >= hi)
		return 0;
	*out = (struct rpt){ (i128)b0.x * 2 * ff + (i128)f.x * (lo + hi),
		(i128)b0.y * 2 * ff + (i128)f.y * (lo + hi), (i128)2 * ff };
	return 1;
}

/* The foot of p on segment b0-b1 (p's nearest point there). */
static struct rpt foot(struct table_pt p, struct table_pt b0, struct table_pt b1)
{
	struct table_pt f = vsub(b1, b0);
	int64_t ff = table_dot(f, f), t = table_dot(vsub(p, b0), f);
	if (t <= 0)
		return rpt_of(b0);
	if (t >= ff)
		return rpt_of(b1);
	return (struct rpt){ (i128)b0.x * ff + (i128)f.x * t, (i128)b0.y * ff + (i128)f.y * t, ff };
}

/* other's point nearest r (the middle of a nearest segment); 0 if they overlap. */
static int nearest_rpt(struct rpt *out, const struct table_rect *r, const struct table_rect *o)
{
	if (table_rect_overlap(r, o) == TABLE_OVERLAPPING)
		return 0;
	struct table_d2 best = table_rect_d2(r, o);
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++) {
			struct table_pt a0 = corner(r, i), a1 = corner(r, i + 1);
			struct table_pt b0 = corner(o, j), b1 = corner(o, j + 1);
			if (table_d2_cmp(seg_seg_d2(a0, a1, b0, b1), best) == 0 &&
				facing_middle(out, a0, a1, b0, b1))
				return 1;
		}
	/* The nearest point is unique: a corner of o, or the foot of r's corner on o. */
	for (int j = 0; j < 4; j++)
		if (table_d2_cmp(table_rect_d2_pt(r, o->c[j]), best) == 0) {
			*out = rpt_of(o->c[j]);
			return 1;
		}
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++)
			if (table_d2_cmp(table_seg_d2(r->c[i], corner(o, j), corner(o, j + 1)),
				    best) == 0) {
				*out = foot(r->c[i], corner(o, j), corner(o, j + 1));
				return 1;
			}
	assert(0 && "a nearest pair always exists");
	return 0;
}

int table_rect_nearest(struct table_pt *out, const struct table_rect *r,
	const struct table_rect *other)
{
	struct rpt p;
	if (!nearest_rpt(&p, r, other))
		return -1;
	/* round(x / d) = floor((2 x + d) / (2 d)), halves towards +inf as table_frac_point. */
	out->x = (int32_t)floor_div(2 * p.x + p.d, 2 * p.d);
	out->y = (int32_t)floor_div(2 * p.y + p.d, 2 * p.d);
	return 0;
}

enum table_arc table_arc_of(const struct table_rect *r, const struct table_rect *other,
	enum table_ref ref, enum table_arc_mode mode)
{
	const struct table_pt *c = other->c;
	struct rpt p;
	switch (ref) {
	case TABLE_REF_CENTRE:
		p = (struct rpt){ (i128)c[TABLE_FL].x + c[TABLE_RR].x,
			(i128)c[TABLE_FL].y + c[TABLE_RR].y, 2 };
		break;
	case TABLE_REF_FRONT_CENTRE:
		p = (struct rpt){ (i128)c[TABLE_FL].x + c[TABLE_FR].x,
			(i128)c[TABLE_FL].y + c[TABLE_FR].y, 2 };
		break;
	default:
		if (!nearest_rpt(&p, r, other))
			return TABLE_ARC_INSIDE;
		break;
	}
	return arc_rpt(r, p, mode);
}
