/* check_table.c — the tabletop geometry library against hand-drawn cases: ranges and square
 * roots, segment intersection, point in polygon, spans and sight lines, obstacle crossings,
 * movement cost and reach, unit footprints, distances and arcs; each expected answer is
 * worked out in the comment beside it. Coordinates are y-up; M is the coordinate bound. */
#include <stdint.h>
#include <stdlib.h>

#include "testutil.h"
#include "rules/lib/table.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))
#define M TABLE_COORD_MAX
#define P(x, y) ((struct table_pt){ (x), (y) })
#define POLY(arr) ((struct table_poly){ (arr), N_OF(arr) })
#define LINE(arr) ((struct table_line){ (arr), N_OF(arr) })

#define ck_frac(f, n, d) \
	ck_assert_msg(table_frac_cmp((f), (struct table_frac){ (n), (d) }) == 0, \
		"%s = %lld/%lld, expected %lld/%lld", #f, (long long)(f).num, (long long)(f).den, \
		(long long)(n), (long long)(d))
#define ck_pt(p, px, py) \
	ck_assert_msg((p).x == (px) && (p).y == (py), "%s = (%d, %d), expected (%d, %d)", #p, \
		(p).x, (p).y, (px), (py))

/* Wood: the square 0..10 counter-clockwise. Building: 20..30 x 0..10, clockwise. */
static const struct table_pt wood[] = { { 0, 0 }, { 10, 0 }, { 10, 10 }, { 0, 10 } };
static const struct table_pt bldg[] = { { 20, 0 }, { 20, 10 }, { 30, 10 }, { 30, 0 } };
/* A U, counter-clockwise: arms x 0..2 and 4..6 up to y 6, base y 0..2, notch x 2..4 above 2.
 *   (0,6)+--+(2,6) (4,6)+--+(6,6)
 *        |  |  notch    |  |
 *        |  +(2,2)-(4,2)+  |
 *   (0,0)+-----------------+(6,0)    (2,2) and (4,2) are reflex vertices. */
static const struct table_pt u_ccw[] = { { 0, 0 }, { 6, 0 }, { 6, 6 }, { 4, 6 }, { 4, 2 }, { 2, 2 },
	{ 2, 6 }, { 0, 6 } };
static const struct table_pt u_cw[] = { { 0, 0 }, { 0, 6 }, { 2, 6 }, { 2, 2 }, { 4, 2 }, { 4, 6 },
	{ 6, 6 }, { 6, 0 } };

/* ---- points, lengths, ranges -------------------------------------------------------------- */

START_TEST(isqrt_floor_and_round)
{
	ck_assert_uint_eq(table_isqrt(0), 0);
	ck_assert_uint_eq(table_isqrt(3), 1);
	ck_assert_uint_eq(table_isqrt(4), 2);
	ck_assert_uint_eq(table_isqrt(15), 3);
	ck_assert_uint_eq(table_isqrt(16), 4);
	ck_assert_uint_eq(table_isqrt((uint64_t)1 << 62), (uint64_t)1 << 31);
	ck_assert_uint_eq(table_isqrt(UINT64_MAX), 4294967295u); /* (2^32)^2 > 2^64 - 1 */
	/* Nearest: sqrt 2 = 1.41 -> 1, sqrt 3 = 1.73 -> 2, sqrt 6 = 2.45 -> 2, sqrt 7 = 2.65 -> 3,
	 * sqrt 12 = 3.46 -> 3, sqrt 13 = 3.61 -> 4. */
	ck_assert_uint_eq(table_isqrt_round(2), 1);
	ck_assert_uint_eq(table_isqrt_round(3), 2);
	ck_assert_uint_eq(table_isqrt_round(6), 2);
	ck_assert_uint_eq(table_isqrt_round(7), 3);
	ck_assert_uint_eq(table_isqrt_round(12), 3);
	ck_assert_uint_eq(table_isqrt_round(13), 4);
	ck_assert_uint_eq(table_isqrt_round(UINT64_MAX), 4294967296u); /* 2^32 - 2^-33 */
}
END_TEST

START_TEST(ranges_exact)
{
	struct table_pt a = P(0, 0), b = P(3, 4); /* |ab| = 5 exactly */
	ck_assert_int_eq(table_dist2(a, b), 25);
	ck_assert_int_eq(table_dist_cmp(a, b, 5), 0);
	ck_assert_int_eq(table_dist_cmp(a, b, 4), 1);
	ck_assert_int_eq(table_dist_cmp(a, b, 6), -1);
	ck_assert_int_eq(table_within(a, b, 5), 1);
	ck_assert_int_eq(table_within(a, b, 4), 0);
	ck_assert_int_eq(table_within_strict(a, b, 5), 0);
	ck_assert_int_eq(table_within_strict(a, b, 6), 1);
	ck_assert_int_eq(table_within(a, a, 0), 1);
	ck_assert_int_eq(table_within_strict(a, a, 0), 0);
	/* Corner to corner of the largest table: |ab|^2 = 2 (2^25)^2 = 2^51, |ab| = 47453132.81. */
	a = P(-M, -M);
	b = P(M, M);
	ck_assert_int_eq(table_dist2(a, b), (int64_t)1 << 51);
	ck_assert_int_eq(table_within(a, b, 47453132), 0);
	ck_assert_int_eq(table_within(a, b, 47453133), 1);
	ck_assert_int_eq(table_within(a, b, TABLE_RANGE_MAX), 1);
}
END_TEST

START_TEST(lengths_for_printing)
{
	ck_assert_int_eq(table_length_round(P(0, 0), P(3, 4)), 5);
	ck_assert_int_eq(table_length_round(P(0, 0), P(1, 1)), 1); /* 1.414 */
	ck_assert_int_eq(table_length_round(P(0, 0), P(1, 2)), 2); /* 2.236 */
	ck_assert_int_eq(table_length_round(P(0, 0), P(2, 3)), 4); /* 3.606 */
	ck_assert_int_eq(table_length_sub(P(0, 0), P(3, 4)), 5 * 1024);
	ck_assert_int_eq(table_length_sub(P(0, 0), P(1, 1)), 1448); /* 1448.15 */
	ck_assert_int_eq(table_length_sub(P(5, 5), P(4, 3)), 2289); /* sqrt 5: 2289.73 */
	ck_assert_int_eq(table_length_round(P(-M, -M), P(M, M)), 47453133);
	ck_assert_int_eq(table_length_sub(P(-M, -M), P(M, M)), 48592007999); /* 2^25 sqrt2 2^10 */
}
END_TEST

START_TEST(fractions_along)
{
	struct table_frac third = { 1, 3 };
	/* 1/3 > 0.333333333; 2/4 == 1/2; 0/5 == 0/1; cross-multiplication of 2^51-sized terms. */
	ck_assert_int_eq(table_frac_cmp(third, (struct table_frac){ 333333333, 1000000000 }), 1);
	ck_assert_int_eq(table_frac_cmp((struct table_frac){ 2, 4 }, (struct table_frac){ 1, 2 }),
		0);
	ck_assert_int_eq(table_frac_cmp((struct table_frac){ 0, 5 }, (struct table_frac){ 0, 1 }),
		0);
	ck_assert_int_eq(table_frac_cmp((struct table_frac){ ((int64_t)1 << 51) - 1,
						(int64_t)1 << 51 },
				 (struct table_frac){ ((int64_t)1 << 50) - 1, (int64_t)1 << 50 }),
		1);
	/* 1/3 of 5 units = 1706.67 sub-units, floor 1706. */
	ck_assert_int_eq(table_frac_sub(P(0, 0), P(3, 4), third), 1706);
	ck_assert_int_eq(table_frac_sub(P(0, 0), P(3, 4), (struct table_frac){ 1, 1 }), 5120);
	/* Halfway along 3 units is 1.5: rounds to 2 going right, -1.5 rounds to -1 going left. */
	struct table_pt p = table_frac_point(P(0, 0), P(3, 0), (struct table_frac){ 1, 2 });
	ck_pt(p, 2, 0);
	p = table_frac_point(P(0, 0), P(-3, 0), (struct table_frac){ 1, 2 });
	ck_pt(p, -1, 0);
	p = table_frac_point(P(0, 0), P(10, 5), third); /* (3.33, 1.67) */
	ck_pt(p, 3, 2);
}
END_TEST

/* ---- orientation and segments --------------------------------------------------------------- */

START_TEST(orientation)
{
	ck_assert_int_eq(table_orient(P(0, 0), P(1, 0), P(0, 1)), 1);  /* left turn */
	ck_assert_int_eq(table_orient(P(0, 0), P(0, 1), P(1, 0)), -1); /* right turn */
	ck_assert_int_eq(table_orient(P(0, 0), P(1, 1), P(5, 5)), 0);
	ck_assert_int_eq(table_orient(P(2, 2), P(2, 2), P(5, 1)), 0); /* a == b */
	/* One unit right of the table's full diagonal. */
	ck_assert_int_eq(table_orient(P(-M, -M), P(M, M), P(M, M - 1)), -1);
	ck_assert_int_eq(table_orient(P(-M, -M), P(M, M), P(-M, 1 - M)), 1);
	ck_assert_int_eq(table_cross(P(3, 0), P(0, 4)), 12);
	ck_assert_int_eq(table_dot(P(3, 1), P(-1, 3)), 0);
	ck_assert_int_eq(table_on_seg(P(1, 1), P(0, 0), P(2, 2)), 1);
	ck_assert_int_eq(table_on_seg(P(3, 3), P(0, 0), P(2, 2)), 0); /* on the line, beyond */
	ck_assert_int_eq(table_on_seg(P(1, 0), P(0, 0), P(2, 2)), 0);
	ck_assert_int_eq(table_on_seg(P(2, 2), P(0, 0), P(2, 2)), 1); /* endpoint */
	ck_assert_int_eq(table_on_seg(P(1, 1), P(1, 1), P(1, 1)), 1); /* point segment */
	ck_assert_int_eq(table_pt_ok(P(M, -M)), 1);
	ck_assert_int_eq(table_pt_ok(P(M + 1, 0)), 0);
	ck_assert_int_eq(table_pt_ok(P(0, -M - 1)), 0);
}
END_TEST

START_TEST(isect_crossing_and_touching)
{
	struct table_frac at = { -1, 1 };
	/* The diagonals of a 4-square cross at their middles. */
	ck_assert_int_eq(table_seg_isect(&at, P(0, 0), P(4, 4), P(0, 4), P(4, 0)),
		TABLE_ISECT_CROSS);
	ck_frac(at, 1, 2);
	/* T: cd starts on ab at x = 2 (1/2 of ab); seen from cd, the touch is at its start. */
	ck_assert_int_eq(table_seg_isect(&at, P(0, 0), P(4, 0), P(2, 0), P(2, 3)),
		TABLE_ISECT_TOUCH);
	ck_frac(at, 1, 2);
	ck_assert_int_eq(table_seg_isect(&at, P(2, 0), P(2, 3), P(0, 0), P(4, 0)),
		TABLE_ISECT_TOUCH);
	ck_frac(at, 0, 1);
	/* End to end at a corner. */
	ck_assert_int_eq(table_seg_isect(&at, P(0, 0), P(2, 0), P(2, 0), P(2, 2)),
		TABLE_ISECT_TOUCH);
	ck_frac(at, 1, 1);
	/* Lines meet at (5, 0), beyond ab's end: no contact. */
	ck_assert_int_eq(table_seg_isect(NULL, P(0, 0), P(4, 0), P(5, -1), P(5, 1)),
		TABLE_ISECT_NONE);
	ck_assert_int_eq(table_seg_isect(NULL, P(0, 0), P(4, 0), P(2, 1), P(3, 5)),
		TABLE_ISECT_NONE);
	ck_assert_int_eq(table_seg_isect(NULL, P(0, 0), P(4, 0), P(0, 1), P(4, 1)),
		TABLE_ISECT_NONE);
	/* At the bound: the table's diagonals cross at (0, 0); a line one unit off the diagonal
	 * at the left edge converges on it and crosses at (0, 0) too (s = 1/2); one that ends on
	 * the diagonal's corner touches there. */
	ck_assert_int_eq(table_seg_isect(&at, P(-M, -M), P(M, M), P(-M, M), P(M, -M)),
		TABLE_ISECT_CROSS);
	ck_frac(at, 1, 2);
	ck_assert_int_eq(table_seg_isect(&at, P(-M, -M), P(M, M), P(-M, 1 - M), P(M, M - 1)),
		TABLE_ISECT_CROSS);
	ck_frac(at, 1, 2);
	ck_assert_int_eq(table_seg_isect(&at, P(-M, -M), P(M, M), P(-M, 1 - M), P(M, M)),
		TABLE_ISECT_TOUCH);
	ck_frac(at, 1, 1);
}
END_TEST

START_TEST(isect_collinear)
{
	struct table_frac at;
	/* ab = 0..4 on the x axis. */
	ck_assert_int_eq(table_seg_isect(&at, P(0, 0), P(4, 0), P(2, 0), P(6, 0)),
		TABLE_ISECT_OVERLAP);
	ck_frac(at, 1, 2); /* shared 2..4 */
	ck_assert_int_eq(table_seg_isect(&at, P(0, 0), P(4, 0), P(6, 0), P(2, 0)),
		TABLE_ISECT_OVERLAP);
	ck_frac(at, 1, 2);
	ck_assert_int_eq(table_seg_isect(&at, P(0, 0), P(4, 0), P(-2, 0), P(1, 0)),
		TABLE_ISECT_OVERLAP);
	ck_frac(at, 0, 1); /* shared 0..1 */
	ck_assert_int_eq(table_seg_isect(&at, P(0, 0), P(4, 0), P(1, 0), P(3, 0)),
		TABLE_ISECT_OVERLAP);
	ck_frac(at, 1, 4); /* inside ab */
	ck_assert_int_eq(table_seg_isect(&at, P(0, 0), P(4, 0), P(-1, 0), P(5, 0)),
		TABLE_ISECT_OVERLAP);
	ck_frac(at, 0, 1); /* holds ab */
	ck_assert_int_eq(table_seg_isect(&at, P(0, 0), P(3, 3), P(1, 1), P(5, 5)),
		TABLE_ISECT_OVERLAP);
	ck_frac(at, 1, 3);
	/* End to end on one line: one common point. */
	ck_assert_int_eq(table_seg_isect(&at, P(0, 0), P(2, 0), P(2, 0), P(5, 0)),
		TABLE_ISECT_TOUCH);
	ck_frac(at, 1, 1);
	ck_assert_int_eq(table_seg_isect(&at, P(0, 0), P(2, 0), P(-3, 0), P(0, 0)),
		TABLE_ISECT_TOUCH);
	ck_frac(at, 0, 1);
	ck_assert_int_eq(table_seg_isect(NULL, P(0, 0), P(2, 0), P(3, 0), P(5, 0)),
		TABLE_ISECT_NONE);
}
END_TEST

START_TEST(isect_degenerate)
{
	struct table_frac at;
	ck_assert_int_eq(table_seg_isect(&at, P(2, 0), P(2, 0), P(0, 0), P(4, 0)),
		TABLE_ISECT_TOUCH);
	ck_frac(at, 0, 1);
	ck_assert_int_eq(table_seg_isect(&at, P(2, 1), P(2, 1), P(0, 0), P(4, 0)),
		TABLE_ISECT_NONE);
	ck_assert_int_eq(table_seg_isect(&at, P(0, 0), P(4, 0), P(1, 0), P(1, 0)),
		TABLE_ISECT_TOUCH);
	ck_frac(at, 1, 4);
	ck_assert_int_eq(table_seg_isect(&at, P(0, 0), P(4, 0), P(5, 0), P(5, 0)),
		TABLE_ISECT_NONE);
	ck_assert_int_eq(table_seg_isect(&at, P(3, 3), P(3, 3), P(3, 3), P(3, 3)),
		TABLE_ISECT_TOUCH);
	ck_assert_int_eq(table_seg_isect(&at, P(3, 3), P(3, 3), P(3, 4), P(3, 4)),
		TABLE_ISECT_NONE);
}
END_TEST

/* ---- polygons ------------------------------------------------------------------------------- */

START_TEST(where_square_both_windings)
{
	static const struct table_pt cw[] = { { 0, 0 }, { 0, 10 }, { 10, 10 }, { 10, 0 } };
	struct table_poly polys[2] = { POLY(wood), POLY(cw) };
	for (int i = 0; i < 2; i++) {
		ck_assert_int_eq(table_poly_where(&polys[i], P(5, 5)), TABLE_INSIDE);
		ck_assert_int_eq(table_poly_where(&polys[i], P(1, 9)), TABLE_INSIDE);
		ck_assert_int_eq(table_poly_where(&polys[i], P(11, 5)), TABLE_OUTSIDE);
		ck_assert_int_eq(table_poly_where(&polys[i], P(5, -1)), TABLE_OUTSIDE);
		ck_assert_int_eq(table_poly_where(&polys[i], P(-1, 10)),
			TABLE_OUTSIDE); /* ray on edge */
		ck_assert_int_eq(table_poly_where(&polys[i], P(10, 5)), TABLE_BOUNDARY);
		ck_assert_int_eq(table_poly_where(&polys[i], P(5, 0)), TABLE_BOUNDARY);
		ck_assert_int_eq(table_poly_where(&polys[i], P(0, 0)), TABLE_BOUNDARY);
		ck_assert_int_eq(table_poly_where(&polys[i], P(10, 10)), TABLE_BOUNDARY);
	}
}
END_TEST

START_TEST(where_concave_both_windings)
{
	struct table_poly polys[2] = { POLY(u_ccw), POLY(u_cw) };
	for (int i = 0; i < 2; i++) {
		const struct table_poly *u = &polys[i];
		ck_assert_int_eq(table_poly_where(u, P(1, 1)), TABLE_INSIDE);
		ck_assert_int_eq(table_poly_where(u, P(3, 1)),
			TABLE_INSIDE); /* base, under notch */
		ck_assert_int_eq(table_poly_where(u, P(5, 3)), TABLE_INSIDE);  /* right arm */
		ck_assert_int_eq(table_poly_where(u, P(3, 4)), TABLE_OUTSIDE); /* in the notch */
		ck_assert_int_eq(table_poly_where(u, P(3, 6)), TABLE_OUTSIDE); /* notch mouth */
		ck_assert_int_eq(table_poly_where(u, P(3, 7)), TABLE_OUTSIDE);
		ck_assert_int_eq(table_poly_where(u, P(7, 2)), TABLE_OUTSIDE);
		/* Rays along the notch floor y = 2 pass both reflex vertices and a horizontal
		 * edge: (-1,2) crosses x = 0, 2(up), 4(down), 6: even; (1,2) odd; (5,2) odd. */
		ck_assert_int_eq(table_poly_where(u, P(-1, 2)), TABLE_OUTSIDE);
		ck_assert_int_eq(table_poly_where(u, P(1, 2)), TABLE_INSIDE);
		ck_assert_int_eq(table_poly_where(u, P(5, 2)), TABLE_INSIDE);
		/* Rays along the top y = 6 and the bottom y = 0. */
		ck_assert_int_eq(table_poly_where(u, P(-1, 6)), TABLE_OUTSIDE);
		ck_assert_int_eq(table_poly_where(u, P(-1, 0)), TABLE_OUTSIDE);
		ck_assert_int_eq(table_poly_where(u, P(3, 2)), TABLE_BOUNDARY); /* notch floor */
		ck_assert_int_eq(table_poly_where(u, P(4, 4)), TABLE_BOUNDARY); /* notch wall */
		ck_assert_int_eq(table_poly_where(u, P(2, 2)), TABLE_BOUNDARY); /* reflex vertex */
		ck_assert_int_eq(table_poly_where(u, P(5, 6)), TABLE_BOUNDARY);
		ck_assert_int_eq(table_poly_where(u, P(1, 6)), TABLE_BOUNDARY);
		ck_assert_int_eq(table_poly_where(u, P(3, 0)), TABLE_BOUNDARY);
	}
}
END_TEST

START_TEST(poly_check_faults)
{
	static const struct table_pt bowtie[] = { { 0, 0 }, { 2, 2 }, { 2, 0 }, { 0, 2 } };
	static const struct table_pt repeat[] = { { 0, 0 }, { 4, 0 }, { 4, 0 }, { 0, 4 } };
	static const struct table_pt closed[] = { { 0, 0 }, { 4, 0 }, { 0, 4 }, { 0, 0 } };
	static const struct table_pt spike[] = { { 0, 0 }, { 4, 0 }, { 4, 4 }, { 4, 2 }, { 0, 4 } };
	static const struct table_pt flat[] = { { 0, 0 }, { 1, 0 }, { 2, 0 } };
	static const struct table_pt pinch[] = { { 0, 0 }, { 6, 0 }, { 6, 4 }, { 3, 0 }, { 0, 4 } };
	static const struct table_pt straight[] = { { 0, 0 }, { 2, 0 }, { 4, 0 }, { 4, 4 },
		{ 0, 4 } };
	static const struct table_pt big[] = { { -M, -M }, { M, -M }, { M + 1, M }, { -M, M } };
	struct table_poly p;
	size_t at = 99;

	p = POLY(u_ccw);
	ck_assert_int_eq(table_poly_check(&p, &at), 0);
	ck_assert_uint_eq(at, 99); /* untouched when valid */
	p = POLY(straight);        /* a 180-degree vertex */
	ck_assert_int_eq(table_poly_check(&p, NULL), 0);
	p = POLY(bowtie); /* edges 0 and 2 cross */
	ck_assert_int_eq(table_poly_check(&p, &at), TABLE_ESELF);
	ck_assert_uint_eq(at, 0);
	p = POLY(pinch); /* (3,0) on edge 0 */
	ck_assert_int_eq(table_poly_check(&p, &at), TABLE_ESELF);
	ck_assert_uint_eq(at, 0);
	p = POLY(repeat);
	ck_assert_int_eq(table_poly_check(&p, &at), TABLE_EDEGEN);
	ck_assert_uint_eq(at, 1);
	p = POLY(closed); /* last equals first */
	ck_assert_int_eq(table_poly_check(&p, &at), TABLE_EDEGEN);
	ck_assert_uint_eq(at, 3);
	p = POLY(spike); /* (4,4) -> (4,2) folds */
	ck_assert_int_eq(table_poly_check(&p, &at), TABLE_EDEGEN);
	ck_assert_uint_eq(at, 1);
	p = POLY(flat);
	ck_assert_int_eq(table_poly_check(&p, &at), TABLE_EDEGEN);
	p = (struct table_poly){ wood, 2 };
	ck_assert_int_eq(table_poly_check(&p, &at), TABLE_EFEW);
	p = POLY(big);
	ck_assert_int_eq(table_poly_check(&p, &at), TABLE_EBOUNDS);
	ck_assert_uint_eq(at, 2);
}
END_TEST

/* ---- spans, measures, sight ------------------------------------------------------------------ */

/* Checks ab's spans in p against want[] (from, to as n/d pairs, where). */
struct want_span {
	int64_t fn, fd, tn, td;
	enum table_where where;
};
static void ck_spans(const struct table_poly *p, struct table_pt a, struct table_pt b,
	const struct want_span *want, size_t n_want)
{
	struct table_span *sp;
	size_t n = table_seg_spans(&sp, p, a, b);
	ck_assert_uint_eq(n, n_want);
	for (size_t i = 0; i < n; i++) {
		ck_frac(sp[i].from, want[i].fn, want[i].fd);
		ck_frac(sp[i].to, want[i].tn, want[i].td);
		ck_assert_int_eq(sp[i].where, want[i].where);
	}
	free(sp);
}
#define CK_SPANS(p, a, b, ...) \
	do { \
		static const struct want_span w_[] = { __VA_ARGS__ }; \
		ck_spans((p), (a), (b), w_, N_OF(w_)); \
	} while (0)
#define O TABLE_OUTSIDE
#define I TABLE_INSIDE
#define B TABLE_BOUNDARY

START_TEST(spans_square)
{
	struct table_poly w = POLY(wood);
	/* Straight through: enters at x = 0 (5/20), leaves at x = 10 (15/20). */
	CK_SPANS(&w, P(-5, 5), P(15, 5), { 0, 1, 1, 4, O }, { 1, 4, 3, 4, I }, { 3, 4, 1, 1, O });
	/* Along the bottom edge from x = 0 to 10. */
	CK_SPANS(&w, P(-5, 0), P(15, 0), { 0, 1, 1, 4, O }, { 1, 4, 3, 4, B }, { 3, 4, 1, 1, O });
	/* Through corners (0,0) and (10,10), the interior between them. */
	CK_SPANS(&w, P(-5, -5), P(15, 15), { 0, 1, 1, 4, O }, { 1, 4, 3, 4, I }, { 3, 4, 1, 1, O });
	/* Grazing the corner (0,0) only: outside throughout (the spans join). */
	CK_SPANS(&w, P(-5, 5), P(5, -5), { 0, 1, 1, 1, O });
	/* From inside out through x = 10 at 5/10. */
	CK_SPANS(&w, P(5, 5), P(15, 5), { 0, 1, 1, 2, I }, { 1, 2, 1, 1, O });
	/* From a point on an edge: inwards, outwards, along it, and edge to edge. */
	CK_SPANS(&w, P(0, 5), P(5, 5), { 0, 1, 1, 1, I });
	CK_SPANS(&w, P(0, 5), P(-5, 5), { 0, 1, 1, 1, O });
	CK_SPANS(&w, P(0, 2), P(0, 8), { 0, 1, 1, 1, B });
	CK_SPANS(&w, P(0, 5), P(10, 5), { 0, 1, 1, 1, I });
	/* From a corner along an edge and off its end: (10,0) is 10/15 along. */
	CK_SPANS(&w, P(0, 0), P(15, 0), { 0, 1, 2, 3, B }, { 2, 3, 1, 1, O });
	/* Entirely inside; a point (zero-length) inside and on the boundary. */
	CK_SPANS(&w, P(2, 2), P(8, 3), { 0, 1, 1, 1, I });
	CK_SPANS(&w, P(2, 2), P(2, 2), { 0, 1, 1, 1, I });
	CK_SPANS(&w, P(10, 3), P(10, 3), { 0, 1, 1, 1, B });
}
END_TEST

START_TEST(spans_concave)
{
	struct table_poly u = POLY(u_ccw);
	/* Across both arms at y = 4, x from -1 to 7 (8 units): arms 0..2 and 4..6. */
	CK_SPANS(&u, P(-1, 4), P(7, 4), { 0, 1, 1, 8, O }, { 1, 8, 3, 8, I }, { 3, 8, 5, 8, O },
		{ 5, 8, 7, 8, I }, { 7, 8, 1, 1, O });
	/* Along the notch floor: arm, floor (2..4), arm. */
	CK_SPANS(&u, P(1, 2), P(5, 2), { 0, 1, 1, 4, I }, { 1, 4, 3, 4, B }, { 3, 4, 1, 1, I });
	/* Down the notch's right wall from (4,4), through the reflex vertex (4,2) at 2/3 into
	 * the base. */
	CK_SPANS(&u, P(4, 4), P(4, 1), { 0, 1, 2, 3, B }, { 2, 3, 1, 1, I });
	/* From the notch diagonally through the reflex vertex (4,2) into the base. */
	CK_SPANS(&u, P(3, 3), P(5, 1), { 0, 1, 1, 2, O }, { 1, 2, 1, 1, I });
	/* Over the left arm's top corner (2,6) into the notch: outside throughout. */
	CK_SPANS(&u, P(1, 8), P(3, 4), { 0, 1, 1, 1, O });
	/* From the left arm to the base, touching the reflex vertex (2,2) from inside at 1/2:
	 * inside throughout (one span), though it meets the boundary. */
	CK_SPANS(&u, P(1, 3), P(3, 1), { 0, 1, 1, 1, I });
	struct table_measure m;
	table_seg_measure(&m, &u, P(1, 3), P(3, 1));
	ck_assert_int_eq(m.inside, m.length);
	ck_assert_int_eq(m.touches, 1);
}
END_TEST

START_TEST(spans_windings_agree)
{
	static const struct table_pt segs[][2] = {
		{ { -1, 4 }, { 7, 4 } },
		{ { 1, 2 }, { 5, 2 } },
		{ { 4, 4 }, { 4, 1 } },
		{ { 3, 3 }, { 5, 1 } },
		{ { 1, 8 }, { 3, 4 } },
		{ { -1, -1 }, { 7, 7 } },
		{ { 6, 6 }, { 0, 0 } },
		{ { 2, 7 }, { 2, -1 } },
		{ { 3, 9 }, { 3, -3 } },
	};
	struct table_poly ccw = POLY(u_ccw), cw = POLY(u_cw);
	for (size_t k = 0; k < N_OF(segs); k++) {
		struct table_span *a, *b;
		size_t na = table_seg_spans(&a, &ccw, segs[k][0], segs[k][1]);
		size_t nb = table_seg_spans(&b, &cw, segs[k][0], segs[k][1]);
		ck_assert_uint_eq(na, nb);
		for (size_t i = 0; i < na; i++) {
			ck_assert_int_eq(table_frac_cmp(a[i].from, b[i].from), 0);
			ck_assert_int_eq(table_frac_cmp(a[i].to, b[i].to), 0);
			ck_assert_int_eq(a[i].where, b[i].where);
		}
		free(a);
		free(b);
	}
}
END_TEST

START_TEST(measure_depth)
{
	struct table_poly w = POLY(wood), u = POLY(u_ccw);
	struct table_measure m;
	/* A figure at (7,5) inside the wood looking to (20,5): 13 units, 3 of them in wood. */
	table_seg_measure(&m, &w, P(7, 5), P(20, 5));
	ck_assert_int_eq(m.length, 13 * 1024);
	ck_assert_int_eq(m.inside, 3 * 1024);
	ck_assert_int_eq(m.along, 0);
	ck_assert_int_eq(m.touches, 1);
	/* Along the bottom edge: 10 units along, none inside. */
	table_seg_measure(&m, &w, P(-5, 0), P(15, 0));
	ck_assert_int_eq(m.inside, 0);
	ck_assert_int_eq(m.along, 10 * 1024);
	ck_assert_int_eq(m.touches, 1);
	/* Grazing a corner touches; passing above does not. */
	table_seg_measure(&m, &w, P(-5, 5), P(5, -5));
	ck_assert_int_eq(m.inside + m.along, 0);
	ck_assert_int_eq(m.touches, 1);
	table_seg_measure(&m, &w, P(-5, 11), P(15, 11));
	ck_assert_int_eq(m.touches, 0);
	/* From the edge outwards: meets the wood at A only. */
	table_seg_measure(&m, &w, P(0, 5), P(-5, 5));
	ck_assert_int_eq(m.inside + m.along, 0);
	ck_assert_int_eq(m.touches, 1);
	/* Across the U at y = 4: 2 + 2 units inside out of 8. */
	table_seg_measure(&m, &u, P(-1, 4), P(7, 4));
	ck_assert_int_eq(m.length, 8192);
	ck_assert_int_eq(m.inside, 4096);
	/* Diagonal (0,0)-(10,10) inside: 14.142 units; half of 14481 sub-units (floor 7240) out. */
	table_seg_measure(&m, &w, P(5, 5), P(15, 15));
	ck_assert_int_eq(m.length, 14481);
	ck_assert_int_eq(m.inside, 7240);
}
END_TEST

START_TEST(los_default_rules)
{
	struct table_poly polys[2] = { POLY(wood), POLY(bldg) };
	size_t which = 99;
	ck_assert_int_eq(table_los_blocked(&which, polys, 2, P(-5, 5), P(15, 5), 0), 1);
	ck_assert_uint_eq(which, 0);
	ck_assert_int_eq(table_los_blocked(&which, polys, 2, P(-5, 5), P(35, 5), 0), 1);
	ck_assert_uint_eq(which, 0); /* lowest of both */
	ck_assert_int_eq(table_los_blocked(&which, polys, 2, P(15, 5), P(35, 5), 0), 1);
	ck_assert_uint_eq(which, 1); /* clockwise building */
	which = 99;
	/* Along the wood's bottom edge, grazing its corner, passing between: clear. */
	ck_assert_int_eq(table_los_blocked(&which, polys, 2, P(-5, 0), P(15, 0), 0), 0);
	ck_assert_uint_eq(which, 99);
	ck_assert_int_eq(table_los_blocked(NULL, polys, 2, P(-5, 5), P(5, -5), 0), 0);
	ck_assert_int_eq(table_los_blocked(NULL, polys, 2, P(15, -5), P(15, 15), 0), 0);
	/* Along the shared line y = 10 over both tops. */
	ck_assert_int_eq(table_los_blocked(NULL, polys, 2, P(-5, 10), P(35, 10), 0), 0);
	/* Through two corners with the interior between. */
	ck_assert_int_eq(table_los_blocked(NULL, polys, 2, P(-5, -5), P(15, 15), 0), 1);
	/* Standing on the edge: looking out is clear, looking in or across is blocked. */
	ck_assert_int_eq(table_los_blocked(NULL, polys, 2, P(0, 5), P(-5, 5), 0), 0);
	ck_assert_int_eq(table_los_blocked(NULL, polys, 2, P(0, 5), P(5, 5), 0), 1);
	ck_assert_int_eq(table_los_blocked(NULL, polys, 2, P(0, 5), P(10, 5), 0), 1);
	ck_assert_int_eq(table_los_blocked(NULL, polys, 2, P(10, 5), P(20, 5), 0), 0);
	/* A point sight line, even inside a wood, is clear. */
	ck_assert_int_eq(table_los_blocked(NULL, polys, 2, P(5, 5), P(5, 5), 0), 0);
	/* The U: over the left arm's corner (2,6) into the notch is a graze; down the notch wall
	 * through the reflex vertex (4,2) enters the base. */
	struct table_poly u = POLY(u_ccw);
	ck_assert_int_eq(table_los_blocked(NULL, &u, 1, P(1, 8), P(3, 4), 0), 0);
	ck_assert_int_eq(table_los_blocked(NULL, &u, 1, P(3, 9), P(3, 3), 0), 0);
	ck_assert_int_eq(table_los_blocked(NULL, &u, 1, P(4, 4), P(4, 1), 0), 1);
	ck_assert_int_eq(table_los_blocked(NULL, &u, 1, P(4, 4), P(4, 2), 0), 0);
}
END_TEST

START_TEST(los_graze_flag)
{
	struct table_poly polys[2] = { POLY(wood), POLY(bldg) };
	unsigned g = TABLE_LOS_GRAZE_BLOCKS;
	size_t which = 99;
	ck_assert_int_eq(table_los_blocked(&which, polys, 2, P(-5, 0), P(15, 0), g), 1);
	ck_assert_uint_eq(which, 0);
	ck_assert_int_eq(table_los_blocked(&which, polys, 2, P(25, -5), P(35, 5), g), 1);
	ck_assert_uint_eq(which, 1); /* corner (30,0) */
	ck_assert_int_eq(table_los_blocked(NULL, polys, 2, P(-5, 5), P(5, -5), g), 1);
	ck_assert_int_eq(table_los_blocked(NULL, polys, 2, P(0, 2), P(0, 8), g),
		1); /* on an edge */
	/* Touching only at an end point stays clear: a figure at the wood's edge. */
	ck_assert_int_eq(table_los_blocked(NULL, polys, 2, P(0, 5), P(-5, 5), g), 0);
	ck_assert_int_eq(table_los_blocked(NULL, polys, 2, P(-5, 5), P(0, 0), g), 0);
	ck_assert_int_eq(table_los_blocked(NULL, polys, 2, P(15, -5), P(15, 15), g), 0);
	struct table_poly u = POLY(u_ccw);
	ck_assert_int_eq(table_los_blocked(NULL, &u, 1, P(1, 8), P(3, 4), g), 1);
}
END_TEST

START_TEST(los_holding_flag)
{
	struct table_poly polys[2] = { POLY(wood), POLY(bldg) };
	unsigned h = TABLE_LOS_IGNORE_HOLDING;
	size_t which = 99;
	ck_assert_int_eq(table_los_blocked(NULL, polys, 2, P(5, 5), P(-5, 5), 0), 1);
	ck_assert_int_eq(table_los_blocked(NULL, polys, 2, P(5, 5), P(-5, 5), h), 0);
	ck_assert_int_eq(table_los_blocked(NULL, polys, 2, P(-5, 5), P(5, 5), h), 0); /* B held */
	ck_assert_int_eq(table_los_blocked(NULL, polys, 2, P(2, 2), P(8, 8), h), 0);
	/* Out of the wood and through the building: the building still blocks. */
	ck_assert_int_eq(table_los_blocked(&which, polys, 2, P(5, 5), P(35, 5), h), 1);
	ck_assert_uint_eq(which, 1);
	/* On the boundary is not held: across the wood from its edge is still blocked. */
	ck_assert_int_eq(table_los_blocked(NULL, polys, 2, P(0, 5), P(15, 5), h), 1);
}
END_TEST

START_TEST(los_at_the_bound)
{
	/* A triangle with its apex at the origin, opening upwards over the whole table. */
	static const struct table_pt tri[] = { { 0, 0 }, { M, M }, { -M, M } };
	struct table_poly t = POLY(tri);
	ck_assert_int_eq(table_poly_check(&t, NULL), 0);
	/* The full diagonal runs along the edge (0,0)-(M,M): clear, blocked with the graze flag. */
	ck_assert_int_eq(table_los_blocked(NULL, &t, 1, P(-M, -M), P(M, M), 0), 0);
	ck_assert_int_eq(table_los_blocked(NULL, &t, 1, P(-M, -M), P(M, M), TABLE_LOS_GRAZE_BLOCKS),
		1);
	/* Ending one unit lower, the line passes x = 0 at y = -1/2, under the apex; one unit
	 * higher at the start, at y = +1/2, inside. */
	ck_assert_int_eq(table_los_blocked(NULL, &t, 1, P(-M, -M), P(M, M - 1),
				 TABLE_LOS_GRAZE_BLOCKS),
		0);
	ck_assert_int_eq(table_los_blocked(NULL, &t, 1, P(-M, 1 - M), P(M, M), 0), 1);
	ck_assert_int_eq(table_poly_where(&t, P(0, 1)), TABLE_INSIDE);
	ck_assert_int_eq(table_poly_where(&t, P(M, M)), TABLE_BOUNDARY);
	ck_assert_int_eq(table_poly_where(&t, P(1, 0)), TABLE_OUTSIDE);
}
END_TEST

/* ---- obstacles ------------------------------------------------------------------------------- */

static void ck_cross(const struct table_crossing *c, size_t line, size_t seg, int64_t fn,
	int64_t fd, int64_t tn, int64_t td, enum table_contact kind)
{
	ck_assert_uint_eq(c->line, line);
	ck_assert_uint_eq(c->seg, seg);
	ck_frac(c->from, fn, fd);
	ck_frac(c->to, tn, td);
	ck_assert_int_eq(c->kind, kind);
}

/* Crossings of ab with one obstacle given as points. */
static size_t one(struct table_crossing **c, const struct table_pt *v, size_t n, struct table_pt a,
	struct table_pt b)
{
	struct table_line l = { v, n };
	return table_crossings(c, &l, 1, a, b);
}

START_TEST(obstacle_wall)
{
	static const struct table_pt wall[] = { { 0, 5 }, { 10, 5 } };
	struct table_crossing *c;
	ck_assert_uint_eq(one(&c, wall, 2, P(5, 0), P(5, 10)), 1); /* over it at y = 5 */
	ck_cross(c, 0, 0, 1, 2, 1, 2, TABLE_CROSS);
	free(c);
	ck_assert_uint_eq(one(&c, wall, 2, P(5, 0), P(5, 5)), 1); /* up to it */
	ck_cross(c, 0, 0, 1, 1, 1, 1, TABLE_TOUCH);
	free(c);
	ck_assert_uint_eq(one(&c, wall, 2, P(5, 5), P(5, 10)), 1); /* away from it */
	ck_cross(c, 0, 0, 0, 1, 0, 1, TABLE_TOUCH);
	free(c);
	ck_assert_uint_eq(one(&c, wall, 2, P(2, 5), P(8, 5)), 1); /* on top of it */
	ck_cross(c, 0, 0, 0, 1, 1, 1, TABLE_ALONG);
	free(c);
	ck_assert_uint_eq(one(&c, wall, 2, P(-2, 5), P(12, 5)), 1); /* over its whole length */
	ck_cross(c, 0, 0, 1, 7, 6, 7, TABLE_ALONG);
	free(c);
	ck_assert_uint_eq(one(&c, wall, 2, P(5, 6), P(15, 6)), 0);
	ck_assert_ptr_null(c);
	ck_assert_uint_eq(one(&c, wall, 2, P(10, 0), P(10, 10)), 1); /* over its end */
	ck_cross(c, 0, 0, 1, 2, 1, 2, TABLE_TOUCH);
	free(c);
	ck_assert_uint_eq(one(&c, wall, 2, P(3, 5), P(3, 5)), 1); /* a point on it */
	ck_cross(c, 0, 0, 0, 1, 0, 1, TABLE_TOUCH);
	free(c);
}
END_TEST

START_TEST(obstacle_fences)
{
	/* Each against AB = (0,5) -> (10,5); vertices on AB are t = x / 10. */
	static const struct table_pt vee[] = { { 0, 0 }, { 5, 5 }, { 10, 0 } };  /* below */
	static const struct table_pt bend[] = { { 0, 0 }, { 5, 5 }, { 5, 10 } }; /* below, up */
	static const struct table_pt zig[] = { { 2, 0 }, { 4, 5 }, { 6, 5 }, { 8, 10 } };
	static const struct table_pt cup[] = { { 2, 0 }, { 4, 5 }, { 6, 5 }, { 8, 0 } };
	static const struct table_pt stub[] = { { 5, 0 }, { 5, 5 } }; /* ends on AB */
	struct table_crossing *c;
	struct table_pt a = P(0, 5), b = P(10, 5);
	ck_assert_uint_eq(one(&c, vee, 3, a, b), 1);
	ck_cross(c, 0, 0, 1, 2, 1, 2, TABLE_TOUCH); /* apex touches from below */
	free(c);
	ck_assert_uint_eq(one(&c, bend, 3, a, b), 1);
	ck_cross(c, 0, 0, 1, 2, 1, 2, TABLE_CROSS); /* through a vertex, below to above */
	free(c);
	ck_assert_uint_eq(one(&c, zig, 4, a, b), 1);
	ck_cross(c, 0, 0, 2, 5, 3, 5, TABLE_CROSS); /* along 4..6, then on to the far side */
	free(c);
	ck_assert_uint_eq(one(&c, cup, 4, a, b), 1);
	ck_cross(c, 0, 0, 2, 5, 3, 5, TABLE_ALONG); /* along 4..6, back to the same side */
	free(c);
	ck_assert_uint_eq(one(&c, stub, 2, a, b), 1);
	ck_cross(c, 0, 0, 1, 2, 1, 2, TABLE_TOUCH);
	free(c);
	/* Reversed, the same classifications. */
	ck_assert_uint_eq(one(&c, zig, 4, b, a), 1);
	ck_cross(c, 0, 0, 2, 5, 3, 5, TABLE_CROSS);
	free(c);
}
END_TEST

START_TEST(obstacle_ring)
{
	/* A closed enclosure 2..8 square. */
	static const struct table_pt ring[] = { { 2, 2 }, { 8, 2 }, { 8, 8 }, { 2, 8 }, { 2, 2 } };
	struct table_crossing *c;
	/* Straight through: in at x = 2 (edge 3), out at x = 8 (edge 1). */
	ck_assert_uint_eq(one(&c, ring, 5, P(0, 5), P(10, 5)), 2);
	ck_cross(&c[0], 0, 3, 1, 5, 1, 5, TABLE_CROSS);
	ck_cross(&c[1], 0, 1, 4, 5, 4, 5, TABLE_CROSS);
	free(c);
	/* Diagonally through the corners (2,2), where the ring closes, and (8,8): the ring
	 * passes from one side of AB to the other at each. */
	ck_assert_uint_eq(one(&c, ring, 5, P(0, 0), P(10, 10)), 2);
	ck_cross(&c[0], 0, 3, 1, 5, 1, 5, TABLE_CROSS);
	ck_cross(&c[1], 0, 1, 4, 5, 4, 5, TABLE_CROSS);
	free(c);
	/* Along the bottom side: contact from (2,2) to (8,2), the ring above at both ends. */
	ck_assert_uint_eq(one(&c, ring, 5, P(0, 2), P(10, 2)), 1);
	ck_cross(&c[0], 0, 3, 1, 5, 4, 5, TABLE_ALONG); /* from edge 3 arriving at (2,2) */
	free(c);
}
END_TEST

START_TEST(obstacle_order)
{
	/* The slanted river crosses y = 0 at x = 1000000 + 1/3, exactly 1/3 of AB; the
	 * wall at x = 1000000 is 1000000/3000001 < 1/3 along, so it comes first though listed
	 * second. A third obstacle crosses at 2/3 and is listed first. */
	static const struct table_pt river[] = { { 1000000, -1 }, { 1000001, 2 } };
	static const struct table_pt wall[] = { { 1000000, -5 }, { 1000000, 5 } };
	static const struct table_pt hedge[] = { { 2000000, 3 }, { 2000002, -3 } };
	struct table_line lines[3] = { LINE(hedge), LINE(river), LINE(wall) };
	struct table_crossing *c;
	size_t n = table_crossings(&c, lines, 3, P(0, 0), P(3000001, 0));
	ck_assert_uint_eq(n, 3);
	ck_cross(&c[0], 2, 0, 1000000, 3000001, 1000000, 3000001, TABLE_CROSS);
	ck_cross(&c[1], 1, 0, 1, 3, 1, 3, TABLE_CROSS);
	ck_cross(&c[2], 0, 0, 2000001, 3000001, 2000001, 3000001, TABLE_CROSS);
	free(c);
	ck_assert_uint_eq(table_line_check(&lines[0], NULL), 0);
	static const struct table_pt dup[] = { { 0, 0 }, { 1, 1 }, { 1, 1 } };
	struct table_line l = LINE(dup);
	size_t at = 99;
	ck_assert_int_eq(table_line_check(&l, &at), TABLE_EDEGEN);
	ck_assert_uint_eq(at, 1);
	l.n = 1;
	ck_assert_int_eq(table_line_check(&l, &at), TABLE_EFEW);
}
END_TEST

/* ---- movement -------------------------------------------------------------------------------- */

static const struct table_pt bog[] = { { 2, 2 }, { 8, 2 }, { 8, 8 }, { 2, 8 } };
static const struct table_pt road[] = { { -5, 4 }, { 15, 4 }, { 15, 6 }, { -5, 6 } };

START_TEST(cost_through_a_wood)
{
	struct table_area woods = { POLY(wood), 2, 1 };
	/* 5 open + 10 wood at 2 + 5 open = 30 units. */
	static const struct table_pt through[] = { { -5, 5 }, { 15, 5 } };
	ck_assert_int_eq(table_path_cost(through, 2, &woods, 1, 0), 30 * 1024);
	ck_assert_int_eq(table_path_cost(through, 2, NULL, 0, 0), 20 * 1024);
	/* Along its edge: open ground unless the edge counts as in. */
	static const struct table_pt edge[] = { { -5, 0 }, { 15, 0 } };
	ck_assert_int_eq(table_path_cost(edge, 2, &woods, 1, 0), 20 * 1024);
	ck_assert_int_eq(table_path_cost(edge, 2, &woods, 1, TABLE_MOVE_EDGE_IN), 30 * 1024);
	/* Starting inside: 5 wood at 2 + 5 open. */
	static const struct table_pt out[] = { { 5, 5 }, { 15, 5 } };
	ck_assert_int_eq(table_path_cost(out, 2, &woods, 1, 0), 15 * 1024);
	/* In to a waypoint inside, then out north: (5 + 5 x 2) + (5 x 2 + 5). */
	static const struct table_pt turn[] = { { -5, 5 }, { 5, 5 }, { 5, 15 } };
	ck_assert_int_eq(table_path_cost(turn, 3, &woods, 1, 0), 30 * 1024);
	/* Standing still, or a zero-length leg, costs nothing. */
	static const struct table_pt still[] = { { 5, 5 }, { 5, 5 } };
	ck_assert_int_eq(table_path_cost(still, 2, &woods, 1, 0), 0);
	ck_assert_int_eq(table_path_cost(still, 1, &woods, 1, 0), 0);
}
END_TEST

START_TEST(cost_overlapping_areas)
{
	static const struct table_pt through[] = { { -5, 5 }, { 15, 5 } };
	struct table_area a[3] = { { POLY(wood), 2, 1 }, { POLY(bog), 3, 1 },
		{ POLY(road), 1, 2 } };
	/* Highest wins: 5 open + 2 wood x2 + 6 bog x3 + 2 wood x2 + 5 open = 36 units, in
	 * either order. */
	ck_assert_int_eq(table_path_cost(through, 2, a, 2, 0), 36 * 1024);
	struct table_area b[2] = { a[1], a[0] };
	ck_assert_int_eq(table_path_cost(through, 2, b, 2, 0), 36 * 1024);
	/* A road (1/2) under the whole leg: 5 road /2 + 10 wood x2 + 5 road /2 = 25 units. */
	struct table_area c[2] = { a[2], a[0] };
	ck_assert_int_eq(table_path_cost(through, 2, c, 2, 0), 25 * 1024);
}
END_TEST

START_TEST(cost_rounding)
{
	static const struct table_pt big[] = { { -20, -20 }, { 20, -20 }, { 20, 20 }, { -20, 20 } };
	static const struct table_pt west[] = { { -20, -20 }, { 0, -20 }, { 0, 20 }, { -20, 20 } };
	static const struct table_pt east[] = { { 0, -20 }, { 20, -20 }, { 20, 20 }, { 0, 20 } };
	struct table_area scrub = { POLY(big), 3, 2 };
	/* sqrt 5 = 2289 sub-units; x 3/2 = 3433.5, rounded up to 3434. */
	static const struct table_pt leg[] = { { 0, 0 }, { 1, 2 } };
	ck_assert_int_eq(table_path_cost(leg, 2, &scrub, 1, 0), 3434);
	/* Two scrub areas meeting at x = 0; the leg (-1,0)-(2,1) (sqrt 10 = 3238 sub-units)
	 * crosses at 1/3 (1079). One run of 3238 x 3/2 = 4857; rounding the pieces apart would
	 * give 1619 + 3239 = 4858. */
	struct table_area halves[2] = { { POLY(west), 3, 2 }, { POLY(east), 3, 2 } };
	static const struct table_pt leg2[] = { { -1, 0 }, { 2, 1 } };
	ck_assert_int_eq(table_path_cost(leg2, 2, halves, 2, 0), 4857);
	/* Lengths add per leg, each floored: 2 x 2289 = 4578, though (0,0)-(2,4) is 4579. */
	static const struct table_pt two[] = { { 0, 0 }, { 1, 2 }, { 2, 4 } };
	ck_assert_int_eq(table_path_length(two, 3), 4578);
	ck_assert_int_eq(table_path_cost(two, 3, NULL, 0, 0), 4578);
}
END_TEST

START_TEST(cost_at_the_bound)
{
	/* The full diagonal (48592007999 sub-units) through a wood of half the table's width:
	 * enters at 1/4 (floor 12148001999), leaves at 3/4 (floor 36444005999). Cost =
	 * 12148001999 + 2 x 24296004000 + 12148002000. */
	static const struct table_pt w[] = { { -M / 2, -M / 2 }, { M / 2, -M / 2 },
		{ M / 2, M / 2 }, { -M / 2, M / 2 } };
	struct table_area woods = { POLY(w), 2, 1 };
	static const struct table_pt leg[] = { { -M, -M }, { M, M } };
	ck_assert_int_eq(table_path_cost(leg, 2, &woods, 1, 0), 72888011999);
}
END_TEST

START_TEST(reach_with_budget)
{
	struct table_area woods = { POLY(wood), 2, 1 };
	static const struct table_pt east[] = { { -5, 5 }, { 15, 5 } };
	static const struct table_pt west[] = { { 15, 5 }, { -5, 5 } };
	static const struct table_pt turn[] = { { -5, 5 }, { 5, 5 }, { 5, 15 } };
	struct table_reach r;
	/* 10 units: 5 open, then 5 buys 2.5 in the wood: 7.5 along, at x = 2.5, truncated
	 * towards the start to 2. */
	table_path_reach(&r, east, 2, &woods, 1, 0, 10 * 1024);
	ck_assert_int_eq(r.complete, 0);
	ck_assert_uint_eq(r.leg, 0);
	ck_assert_int_eq(r.along, 7680);
	ck_assert_int_eq(r.spent, 10240);
	ck_pt(r.at, 2, 5);
	/* Westwards the same 7.5 ends at x = 7.5, truncated towards the start to 8. */
	table_path_reach(&r, west, 2, &woods, 1, 0, 10 * 1024);
	ck_assert_int_eq(r.along, 7680);
	ck_pt(r.at, 8, 5);
	/* Exactly enough, and nothing. */
	table_path_reach(&r, east, 2, &woods, 1, 0, 30 * 1024);
	ck_assert_int_eq(r.complete, 1);
	ck_assert_int_eq(r.spent, 30 * 1024);
	ck_assert_int_eq(r.along, 20 * 1024);
	ck_pt(r.at, 15, 5);
	table_path_reach(&r, east, 2, &woods, 1, 0, 0);
	ck_assert_int_eq(r.complete, 0);
	ck_assert_int_eq(r.along, 0);
	ck_pt(r.at, -5, 5);
	/* Two legs, 20 units: leg 0 costs 15, then 5 buys 2.5 of wood north of (5,5). */
	table_path_reach(&r, turn, 3, &woods, 1, 0, 20 * 1024);
	ck_assert_int_eq(r.complete, 0);
	ck_assert_uint_eq(r.leg, 1);
	ck_assert_int_eq(r.along, 2560);
	ck_assert_int_eq(r.spent, 20 * 1024);
	ck_pt(r.at, 5, 7);
	/* An odd budget in a 2/1 wood: 5121 left after the open 5 -> 2560 sub-units, spent
	 * 5120 of it. */
	table_path_reach(&r, east, 2, &woods, 1, 0, 5120 + 5121);
	ck_assert_int_eq(r.along, 7680);
	ck_assert_int_eq(r.spent, 10240);
}
END_TEST

/* docs/geometry.md "The last unit": with TABLE_REACH_NEAREST a stop short of the waypoint is
 * the corner of the exact stop's unit cell whose distance from the start is nearest the
 * distance gone. 200 units toward (100, 200): the exact stop (89.44, 178.89); truncated
 * (89, 178) is 199.01 units from the start, (89, 179) 199.905: the nearest. Toward (300, 300)
 * the exact (141.42, 141.42): (141, 141) 199.40, (141, 142) and (142, 141) 200.11; of equals
 * the one first in the order (x first). Then every waypoint of a 401 x 401 square around the
 * start farther than 200: the stop rounds to 200, a corner of the exact stop's cell. */
START_TEST(reach_last_unit)
{
	static const struct table_pt off[] = { { 0, 0 }, { 100, 200 } };
	static const struct table_pt diag[] = { { 0, 0 }, { 300, 300 } };
	struct table_reach r;
	table_path_reach(&r, off, 2, NULL, 0, 0, 200 * 1024);
	ck_pt(r.at, 89, 178);
	ck_assert_int_eq(table_length_round(off[0], r.at), 199); /* the old rule's 199 */
	table_path_reach(&r, off, 2, NULL, 0, TABLE_REACH_NEAREST, 200 * 1024);
	ck_pt(r.at, 89, 179);
	ck_assert_int_eq(table_length_round(off[0], r.at), 200);
	table_path_reach(&r, diag, 2, NULL, 0, 0, 200 * 1024);
	ck_pt(r.at, 141, 141);
	table_path_reach(&r, diag, 2, NULL, 0, TABLE_REACH_NEAREST, 200 * 1024);
	ck_pt(r.at, 142, 141);
	ck_assert_int_eq(r.spent, 200 * 1024);
	/* a waypoint reached exactly is the waypoint */
	table_path_reach(&r, off, 2, NULL, 0, TABLE_REACH_NEAREST, 300 * 1024);
	ck_assert_int_eq(r.complete, 1);
	ck_pt(r.at, 100, 200);
	int bad = 0;
	for (int x = -200; x <= 200 && !bad; x++)
		for (int y = -200; y <= 200; y++) {
			struct table_pt w[2] = { { 1000, 1000 }, { 1000 + x * 3, 1000 + y * 3 } };
			if ((int64_t)x * x + (int64_t)y * y <= 200 * 200 / 9 + 1)
				continue;
			table_path_reach(&r, w, 2, NULL, 0, TABLE_REACH_NEAREST, 200 * 1024);
			int64_t len = table_length_round(w[0], r.at);
			/* a corner of the exact stop's cell: off the line by less than its
			 * diagonal, sqrt(2) */
			int64_t cross = table_cross((struct table_pt){ w[1].x - w[0].x,
							    w[1].y - w[0].y },
				(struct table_pt){ r.at.x - w[0].x, r.at.y - w[0].y });
			int64_t l2 = table_dist2(w[0], w[1]);
			if (len != 200 || (__int128)cross * cross >= 2 * (__int128)l2) {
				bad = 1;
				ck_abort_msg("toward (%d, %d): stop (%d, %d), %lld", x * 3, y * 3,
					r.at.x - 1000, r.at.y - 1000, (long long)len);
			}
		}
}
END_TEST

/* ---- unit footprints ------------------------------------------------------------------------- */

/* R: 40 wide, 20 deep, facing up the table; x 0..40, y 0..20. */
static struct table_rect rect_r(void)
{
	struct table_rect r;
	ck_assert_int_eq(table_rect_make(&r, P(0, 20), P(40, 20), 20), 0);
	return r;
}

START_TEST(rect_make_rounding)
{
	struct table_rect r = rect_r();
	ck_pt(r.c[TABLE_RR], 40, 0);
	ck_pt(r.c[TABLE_RL], 0, 0);
	/* Front edge (3,4)-scaled: o = (40 x 10/50, -30 x 10/50) = (8, -6) exactly. */
	ck_assert_int_eq(table_rect_make(&r, P(0, 0), P(30, 40), 10), 0);
	ck_pt(r.c[TABLE_RR], 38, 34);
	ck_pt(r.c[TABLE_RL], 8, -6);
	/* 45 degrees: 10/sqrt2 = 7.07 -> o = (7, -7). */
	ck_assert_int_eq(table_rect_make(&r, P(0, 0), P(10, 10), 10), 0);
	ck_pt(r.c[TABLE_RR], 17, 3);
	ck_pt(r.c[TABLE_RL], 7, -7);
	/* e = (1,2), depth 7: 14/sqrt5 = 6.26 -> 6, -7/sqrt5 = -3.13 -> -3. */
	ck_assert_int_eq(table_rect_make(&r, P(0, 0), P(1, 2), 7), 0);
	ck_pt(r.c[TABLE_RR], 7, -1);
	ck_pt(r.c[TABLE_RL], 6, -3);
	/* e = (1,2), depth 8: 16/sqrt5 = 7.16 -> 7, -8/sqrt5 = -3.58 -> -4 (away from zero). */
	ck_assert_int_eq(table_rect_make(&r, P(0, 0), P(1, 2), 8), 0);
	ck_pt(r.c[TABLE_RR], 8, -2);
	ck_pt(r.c[TABLE_RL], 7, -4);
	/* Facing down the table: front-left is east of front-right; the rear is north. */
	ck_assert_int_eq(table_rect_make(&r, P(50, 20), P(30, 20), 20), 0);
	ck_pt(r.c[TABLE_RR], 30, 40);
	ck_pt(r.c[TABLE_RL], 50, 40);
	ck_assert_int_eq(table_rect_check(&r), 0);
	/* The whole table as one footprint, and one unit too deep. */
	ck_assert_int_eq(table_rect_make(&r, P(-M, M), P(M, M), 2 * M), 0);
	ck_pt(r.c[TABLE_RL], -M, -M);
	ck_assert_int_eq(table_rect_make(&r, P(-M, M), P(M, M), 2 * M + 1), TABLE_EBOUNDS);
	ck_assert_int_eq(table_rect_make(&r, P(0, -M), P(10, -M), 1), TABLE_EBOUNDS);
	ck_assert_int_eq(table_rect_make(&r, P(5, 5), P(5, 5), 10), TABLE_EDEGEN);
	ck_assert_int_eq(table_rect_make(&r, P(0, 0), P(10, 0), 0), TABLE_EBOUNDS);
	ck_assert_int_eq(table_rect_make(&r, P(M + 1, 0), P(0, 0), 5), TABLE_EBOUNDS);
	/* Anticlockwise corners and a flat one are not footprints. */
	struct table_rect bad = { { { 0, 0 }, { 10, 0 }, { 10, 10 }, { 0, 10 } } };
	ck_assert_int_eq(table_rect_check(&bad), TABLE_EDEGEN);
	bad = (struct table_rect){ { { 0, 0 }, { 10, 0 }, { 20, 0 }, { 5, -5 } } };
	ck_assert_int_eq(table_rect_check(&bad), TABLE_EDEGEN);
}
END_TEST

START_TEST(rect_where_and_overlap)
{
	struct table_rect a = rect_r(), b;
	ck_assert_int_eq(table_rect_where(&a, P(20, 10)), TABLE_INSIDE);
	ck_assert_int_eq(table_rect_where(&a, P(40, 10)), TABLE_BOUNDARY);
	ck_assert_int_eq(table_rect_where(&a, P(0, 0)), TABLE_BOUNDARY);
	ck_assert_int_eq(table_rect_where(&a, P(41, 10)), TABLE_OUTSIDE);
	/* Edge to edge along x = 40; corner to corner at (40,20); one unit apart; overlapping. */
	table_rect_make(&b, P(40, 20), P(60, 20), 20);
	ck_assert_int_eq(table_rect_overlap(&a, &b), TABLE_TOUCHING);
	ck_assert_int_eq(table_rect_overlap(&b, &a), TABLE_TOUCHING);
	table_rect_make(&b, P(40, 40), P(60, 40), 20);
	ck_assert_int_eq(table_rect_overlap(&a, &b), TABLE_TOUCHING);
	table_rect_make(&b, P(41, 20), P(61, 20), 20);
	ck_assert_int_eq(table_rect_overlap(&a, &b), TABLE_APART);
	table_rect_make(&b, P(39, 20), P(59, 20), 20);
	ck_assert_int_eq(table_rect_overlap(&a, &b), TABLE_OVERLAPPING);
	table_rect_make(&b, P(10, 15), P(20, 15), 5); /* wholly inside */
	ck_assert_int_eq(table_rect_overlap(&a, &b), TABLE_OVERLAPPING);
	/* A diamond (left, top, right, bottom: clockwise) whose bottom corner is at y = 19,
	 * then 20 (on a's top edge), then 21. */
	for (int up = 0; up < 3; up++) {
		struct table_rect d = { { { 15, 24 + up }, { 20, 29 + up }, { 25, 24 + up },
			{ 20, 19 + up } } };
		ck_assert_int_eq(table_rect_check(&d), 0);
		ck_assert_int_eq(table_rect_overlap(&a, &d), up == 0 ? TABLE_OVERLAPPING :
							     up == 1 ? TABLE_TOUCHING :
								       TABLE_APART);
	}
	/* A diamond off a's corner (40,20): the x and y shadows overlap, but along (1,1)
	 * a reaches 60 and the diamond starts at 63, so only the diamond's own axis parts them. */
	struct table_rect d = { { { 39, 24 }, { 44, 29 }, { 49, 24 }, { 44, 19 } } };
	ck_assert_int_eq(table_rect_overlap(&a, &d), TABLE_APART);
	ck_assert_int_eq(table_rect_overlap(&d, &a), TABLE_APART);
}
END_TEST

START_TEST(rect_distances)
{
	struct table_rect a = rect_r(), b;
	struct table_d2 d;
	/* (43,24) from the corner (40,20): 3-4-5. (20,25) from the top edge: 5. */
	d = table_rect_d2_pt(&a, P(43, 24));
	ck_assert_int_eq(table_d2_cmp(d, (struct table_d2){ 25, 1 }), 0);
	ck_assert_int_eq(table_rect_within_pt(&a, P(43, 24), 5), 1);
	ck_assert_int_eq(table_rect_within_pt(&a, P(43, 24), 4), 0);
	ck_assert_int_eq(table_d2_cmp_r(table_rect_d2_pt(&a, P(20, 25)), 5), 0);
	ck_assert_int_eq(table_d2_cmp_r(table_rect_d2_pt(&a, P(20, 10)), 0), 0); /* inside */
	ck_assert_int_eq(table_d2_cmp_r(table_rect_d2_pt(&a, P(-3, 10)), 3), 0);
	/* One unit apart side by side; 3-4-5 corner to corner. */
	table_rect_make(&b, P(41, 20), P(61, 20), 20);
	ck_assert_int_eq(table_d2_cmp(table_rect_d2(&a, &b), (struct table_d2){ 1, 1 }), 0);
	table_rect_make(&b, P(43, 44), P(83, 44), 20);
	ck_assert_int_eq(table_d2_cmp(table_rect_d2(&a, &b), (struct table_d2){ 25, 1 }), 0);
	ck_assert_int_eq(table_rect_within(&a, &b, 5), 1);
	ck_assert_int_eq(table_rect_within(&a, &b, 4), 0);
	/* The diamond off the corner: (40,20) to the line x + y = 63 is 3/sqrt2, d^2 = 9/2;
	 * 2.1213 units = 2172 sub-units. */
	struct table_rect dm = { { { 39, 24 }, { 44, 29 }, { 49, 24 }, { 44, 19 } } };
	d = table_rect_d2(&a, &dm);
	ck_assert_int_eq(table_d2_cmp(d, (struct table_d2){ 9, 2 }), 0);
	ck_assert_int_eq(table_d2_cmp(d, (struct table_d2){ 4, 1 }), 1);
	ck_assert_int_eq(table_d2_cmp_r(d, 2), 1);
	ck_assert_int_eq(table_d2_cmp_r(d, 3), -1);
	ck_assert_int_eq(table_d2_sub(d), 2172);
	ck_assert_int_eq(table_d2_cmp((struct table_d2){ 1, 3 }, (struct table_d2){ 2, 6 }), 0);
	/* At the bound: (-M, M) to the segment (-M,-M)-(M, M-1): d^2 = 2^100 / (2^51 - 2^26 + 1),
	 * distance 23726566.4. */
	d = table_seg_d2(P(-M, M), P(-M, -M), P(M, M - 1));
	ck_assert_int_eq(table_d2_cmp_r(d, 23726566), 1);
	ck_assert_int_eq(table_d2_cmp_r(d, 23726567), -1);
	/* Past the ends of a segment the end point is nearest. */
	d = table_seg_d2(P(-3, 4), P(0, 0), P(10, 0));
	ck_assert_int_eq(table_d2_cmp(d, (struct table_d2){ 25, 1 }), 0);
}
END_TEST

START_TEST(rect_as_sight_blocker)
{
	struct table_rect a = rect_r();
	struct table_poly p = table_rect_poly(&a);
	ck_assert_int_eq(table_poly_check(&p, NULL), 0);
	ck_assert_int_eq(table_los_blocked(NULL, &p, 1, P(-10, 10), P(50, 10), 0), 1);
	ck_assert_int_eq(table_los_blocked(NULL, &p, 1, P(-10, 20), P(50, 20), 0), 0);
	/* Grazing the front-right corner (40,20) on a slope of -1/2; the same slope through
	 * (20,20) on the front edge runs inside beyond it. */
	ck_assert_int_eq(table_los_blocked(NULL, &p, 1, P(20, 30), P(60, 10), 0), 0);
	ck_assert_int_eq(table_los_blocked(NULL, &p, 1, P(0, 30), P(40, 10), 0), 1);
}
END_TEST

/* ---- arcs ------------------------------------------------------------------------------------ */

START_TEST(arcs_diagonals_square)
{
	/* A 20-square facing up: diagonals y = x and y = -x.
	 *      \  FRONT  /
	 *  LEFT  [ sq ]  RIGHT
	 *      /  REAR   \        */
	struct table_rect s;
	enum table_arc_mode m = TABLE_ARCS_DIAGONALS;
	ck_assert_int_eq(table_rect_make(&s, P(-10, 10), P(10, 10), 20), 0);
	ck_assert_int_eq(table_arc(&s, P(0, 20), m), TABLE_ARC_FRONT);
	ck_assert_int_eq(table_arc(&s, P(20, 0), m), TABLE_ARC_RIGHT);
	ck_assert_int_eq(table_arc(&s, P(-20, 0), m), TABLE_ARC_LEFT);
	ck_assert_int_eq(table_arc(&s, P(0, -20), m), TABLE_ARC_REAR);
	ck_assert_int_eq(table_arc(&s, P(21, 20), m), TABLE_ARC_RIGHT);
	ck_assert_int_eq(table_arc(&s, P(20, 21), m), TABLE_ARC_FRONT);
	/* Exactly on a diagonal: front beats a flank, a flank beats the rear. */
	ck_assert_int_eq(table_arc(&s, P(20, 20), m), TABLE_ARC_FRONT);
	ck_assert_int_eq(table_arc(&s, P(-20, 20), m), TABLE_ARC_FRONT);
	ck_assert_int_eq(table_arc(&s, P(-20, -20), m), TABLE_ARC_LEFT);
	ck_assert_int_eq(table_arc(&s, P(20, -20), m), TABLE_ARC_RIGHT);
	/* Corners and edges take their edge's arc; the interior is INSIDE even on a diagonal. */
	ck_assert_int_eq(table_arc(&s, P(10, 10), m), TABLE_ARC_FRONT);
	ck_assert_int_eq(table_arc(&s, P(-10, -10), m), TABLE_ARC_LEFT);
	ck_assert_int_eq(table_arc(&s, P(10, 0), m), TABLE_ARC_RIGHT);
	ck_assert_int_eq(table_arc(&s, P(0, 10), m), TABLE_ARC_FRONT);
	ck_assert_int_eq(table_arc(&s, P(0, -10), m), TABLE_ARC_REAR);
	ck_assert_int_eq(table_arc(&s, P(5, 5), m), TABLE_ARC_INSIDE);
	ck_assert_int_eq(table_arc(&s, P(0, 0), m), TABLE_ARC_INSIDE);
}
END_TEST

START_TEST(arcs_diagonals_oblong)
{
	/* R (x 0..40, y 0..20): diagonals y = x/2 (rl-fr) and y = 20 - x/2 (rr-fl). */
	struct table_rect r = rect_r();
	enum table_arc_mode m = TABLE_ARCS_DIAGONALS;
	ck_assert_int_eq(table_arc(&r, P(20, 30), m), TABLE_ARC_FRONT);
	ck_assert_int_eq(table_arc(&r, P(50, 10), m), TABLE_ARC_RIGHT);
	ck_assert_int_eq(table_arc(&r, P(60, 30), m), TABLE_ARC_FRONT); /* on y = x/2 */
	ck_assert_int_eq(table_arc(&r, P(60, 29), m), TABLE_ARC_RIGHT);
	ck_assert_int_eq(table_arc(&r, P(50, 21), m), TABLE_ARC_RIGHT); /* ahead of the front
	                                                                      line, yet flank */
	ck_assert_int_eq(table_arc(&r, P(-20, 10), m), TABLE_ARC_LEFT);
	ck_assert_int_eq(table_arc(&r, P(20, -5), m), TABLE_ARC_REAR);
	ck_assert_int_eq(table_arc(&r, P(-20, -10), m), TABLE_ARC_LEFT); /* on y = x/2, rear side */
}
END_TEST

START_TEST(arcs_edges)
{
	struct table_rect r = rect_r();
	enum table_arc_mode m = TABLE_ARCS_EDGES;
	ck_assert_int_eq(table_arc(&r, P(20, 30), m), TABLE_ARC_FRONT);
	ck_assert_int_eq(table_arc(&r, P(40, 30), m), TABLE_ARC_FRONT); /* on the side line */
	ck_assert_int_eq(table_arc(&r, P(41, 30), m), TABLE_ARC_CORNER);
	ck_assert_int_eq(table_arc(&r, P(50, 21), m), TABLE_ARC_CORNER);
	ck_assert_int_eq(table_arc(&r, P(60, 20), m), TABLE_ARC_RIGHT); /* on the front line */
	ck_assert_int_eq(table_arc(&r, P(-10, 5), m), TABLE_ARC_LEFT);
	ck_assert_int_eq(table_arc(&r, P(20, -5), m), TABLE_ARC_REAR);
	ck_assert_int_eq(table_arc(&r, P(0, -5), m), TABLE_ARC_REAR); /* on the side line */
	ck_assert_int_eq(table_arc(&r, P(-10, -10), m), TABLE_ARC_CORNER);
	/* Corners: front for the front two, the flank for the rear two. */
	ck_assert_int_eq(table_arc(&r, P(40, 20), m), TABLE_ARC_FRONT);
	ck_assert_int_eq(table_arc(&r, P(0, 20), m), TABLE_ARC_FRONT);
	ck_assert_int_eq(table_arc(&r, P(0, 0), m), TABLE_ARC_LEFT);
	ck_assert_int_eq(table_arc(&r, P(40, 0), m), TABLE_ARC_RIGHT);
	ck_assert_int_eq(table_arc(&r, P(20, 20), m), TABLE_ARC_FRONT);
	ck_assert_int_eq(table_arc(&r, P(20, 10), m), TABLE_ARC_INSIDE);
}
END_TEST

START_TEST(arcs_of_other_units)
{
	struct table_rect r = rect_r(), o;
	struct table_pt at;
	enum table_arc_mode dg = TABLE_ARCS_DIAGONALS, ed = TABLE_ARCS_EDGES;
	/* o faces west, front edge x = 45 from y 18 to 38, rear x = 65: 5 units off r's right
	 * edge. Centre (55,28): above y = x/2 (27.5): front. Front centre (45,28): front.
	 * Nearest: o's points x = 45, y 18..20 are all 5 from r; the middle (45,19) is below
	 * y = x/2 (22.5) and above y = 20 - x/2: right flank. */
	ck_assert_int_eq(table_rect_make(&o, P(45, 18), P(45, 38), 20), 0);
	ck_assert_int_eq(table_arc_of(&r, &o, TABLE_REF_CENTRE, dg), TABLE_ARC_FRONT);
	ck_assert_int_eq(table_arc_of(&r, &o, TABLE_REF_FRONT_CENTRE, dg), TABLE_ARC_FRONT);
	ck_assert_int_eq(table_arc_of(&r, &o, TABLE_REF_NEAREST, dg), TABLE_ARC_RIGHT);
	ck_assert_int_eq(table_arc_of(&r, &o, TABLE_REF_NEAREST, ed), TABLE_ARC_RIGHT);
	ck_assert_int_eq(table_rect_nearest(&at, &r, &o), 0);
	ck_pt(at, 45, 19);
	ck_assert_int_eq(table_arc_of(&r, &o, TABLE_REF_CENTRE, ed), TABLE_ARC_CORNER);
	/* Base contact on r's front edge, o facing south over x 30..50: the contact is
	 * x 30..40, middle (35,20): front. Its centre (40,30) is on the side line: front. */
	ck_assert_int_eq(table_rect_make(&o, P(50, 20), P(30, 20), 20), 0);
	ck_assert_int_eq(table_rect_overlap(&r, &o), TABLE_TOUCHING);
	ck_assert_int_eq(table_arc_of(&r, &o, TABLE_REF_NEAREST, dg), TABLE_ARC_FRONT);
	ck_assert_int_eq(table_arc_of(&r, &o, TABLE_REF_CENTRE, ed), TABLE_ARC_FRONT);
	ck_assert_int_eq(table_rect_nearest(&at, &r, &o), 0);
	ck_pt(at, 35, 20);
	/* Base contact on r's right edge, o facing west over y 4..24: contact y 4..20, middle
	 * (40,12): right. */
	ck_assert_int_eq(table_rect_make(&o, P(40, 4), P(40, 24), 20), 0);
	ck_assert_int_eq(table_arc_of(&r, &o, TABLE_REF_NEAREST, dg), TABLE_ARC_RIGHT);
	/* Corner to corner at (40,20): the shared corner, front. */
	ck_assert_int_eq(table_rect_make(&o, P(40, 40), P(60, 40), 20), 0);
	ck_assert_int_eq(table_arc_of(&r, &o, TABLE_REF_NEAREST, dg), TABLE_ARC_FRONT);
	/* The diamond off the corner: nearest is the foot of (40,20) on x + y = 63, (41.5,21.5):
	 * beyond both the front and right lines, so a corner in edge mode; front by diagonals
	 * (21.5 > 41.5 / 2). */
	struct table_rect dm = { { { 39, 24 }, { 44, 29 }, { 49, 24 }, { 44, 19 } } };
	ck_assert_int_eq(table_arc_of(&r, &dm, TABLE_REF_NEAREST, ed), TABLE_ARC_CORNER);
	ck_assert_int_eq(table_arc_of(&r, &dm, TABLE_REF_NEAREST, dg), TABLE_ARC_FRONT);
	ck_assert_int_eq(table_rect_nearest(&at, &r, &dm), 0);
	ck_pt(at, 42, 22);
	/* Behind r, facing it: o's front edge y = -5, x 10..30; nearest middle (20,-5): rear. */
	ck_assert_int_eq(table_rect_make(&o, P(10, -5), P(30, -5), 10), 0);
	ck_assert_int_eq(table_arc_of(&r, &o, TABLE_REF_NEAREST, dg), TABLE_ARC_REAR);
	/* Overlapping footprints have no nearest point. */
	ck_assert_int_eq(table_rect_make(&o, P(30, 25), P(50, 25), 10), 0);
	ck_assert_int_eq(table_arc_of(&r, &o, TABLE_REF_NEAREST, dg), TABLE_ARC_INSIDE);
	ck_assert_int_eq(table_rect_nearest(&at, &r, &o), -1);
}
END_TEST

static Suite *table_suite(void)
{
	Suite *s = suite_create("table");
	TCase *tc = tcase_create("geometry");
	tcase_add_test(tc, isqrt_floor_and_round);
	tcase_add_test(tc, ranges_exact);
	tcase_add_test(tc, lengths_for_printing);
	tcase_add_test(tc, fractions_along);
	tcase_add_test(tc, orientation);
	tcase_add_test(tc, isect_crossing_and_touching);
	tcase_add_test(tc, isect_collinear);
	tcase_add_test(tc, isect_degenerate);
	tcase_add_test(tc, where_square_both_windings);
	tcase_add_test(tc, where_concave_both_windings);
	tcase_add_test(tc, poly_check_faults);
	tcase_add_test(tc, spans_square);
	tcase_add_test(tc, spans_concave);
	tcase_add_test(tc, spans_windings_agree);
	tcase_add_test(tc, measure_depth);
	tcase_add_test(tc, los_default_rules);
	tcase_add_test(tc, los_graze_flag);
	tcase_add_test(tc, los_holding_flag);
	tcase_add_test(tc, los_at_the_bound);
	tcase_add_test(tc, obstacle_wall);
	tcase_add_test(tc, obstacle_fences);
	tcase_add_test(tc, obstacle_ring);
	tcase_add_test(tc, obstacle_order);
	tcase_add_test(tc, cost_through_a_wood);
	tcase_add_test(tc, cost_overlapping_areas);
	tcase_add_test(tc, cost_rounding);
	tcase_add_test(tc, cost_at_the_bound);
	tcase_add_test(tc, reach_with_budget);
	tcase_add_test(tc, reach_last_unit);
	tcase_add_test(tc, rect_make_rounding);
	tcase_add_test(tc, rect_where_and_overlap);
	tcase_add_test(tc, rect_distances);
	tcase_add_test(tc, rect_as_sight_blocker);
	tcase_add_test(tc, arcs_diagonals_square);
	tcase_add_test(tc, arcs_diagonals_oblong);
	tcase_add_test(tc, arcs_edges);
	tcase_add_test(tc, arcs_of_other_units);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(table_suite)
