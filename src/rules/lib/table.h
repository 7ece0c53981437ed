/* table.h — tabletop geometry shared by rule systems that measure in inches or centimetres:
 * exact range tests, segment intersection, terrain polygons, line of sight, linear obstacles,
 * movement cost through areas, and oriented rectangles (unit footprints) with arcs.
 * Integer only and deterministic; methods and rounding rules are in docs/geometry.md. */
#ifndef UMPIRE_TABLE_H
#define UMPIRE_TABLE_H

#include <stddef.h>
#include <stdint.h>

/* ---- units and bounds ---------------------------------------------------------------------
 *
 * Coordinates are int32 in the caller's unit (tenths of an inch, millimetres). The frame is
 * right-handed: x to the right, y up the table (away from the first player); only the names
 * "left", "right", "counter-clockwise" and table_rect_make depend on it.
 *
 * Every point handed to the library satisfies |x|, |y| <= TABLE_COORD_MAX (2^24: 16.7 km in
 * mm). Then a difference is below 2^25, a squared length or a cross product below 2^51
 * (int64), a product of two such below 2^102 (__int128). Functions assert the bound; rule
 * systems check input with table_pt_ok, table_poly_check, table_line_check. */
#define TABLE_COORD_MAX (1 << 24)
/* Ranges r compared with lengths: 0 <= r <= TABLE_RANGE_MAX, so r * r fits in int64. */
#define TABLE_RANGE_MAX (1 << 30)
/* Lengths that are measured (not compared) are in sub-units: 1/TABLE_SUB of the unit,
 * always rounded down (floor) unless a function says otherwise. */
#define TABLE_SUB_SHIFT 10
#define TABLE_SUB (1 << TABLE_SUB_SHIFT)
/* Cost multipliers num/den of movement areas: 1 <= num, den <= TABLE_COST_MAX. */
#define TABLE_COST_MAX (1 << 16)
/* Waypoints of one path, so a total cost (< 2^36 sub-units a leg, times num) fits int64. */
#define TABLE_PATH_MAX 1024

/* Validation results (0 = valid). */
enum {
	TABLE_EBOUNDS = -1, /* a coordinate or length beyond its bound */
	TABLE_EFEW = -2,    /* too few vertices */
	TABLE_EDEGEN = -3,  /* repeated vertex, spike, or wrong/zero-area shape */
	TABLE_ESELF = -4,   /* two edges meet other than at their shared vertex */
};

/* A point, or a vector between two points. */
struct table_pt {
	int32_t x; /* units to the right */
	int32_t y; /* units up the table */
};

/* An exact position along a segment AB: t = num / den of the way from A to B. */
struct table_frac {
	int64_t num; /* 0 <= num <= den for positions on AB */
	int64_t den; /* > 0 */
};

/* An exact squared distance num / den (num < 2^103, 0 < den < 2^52). */
struct table_d2 {
	unsigned __int128 num; /* square units times den */
	uint64_t den;          /* > 0 */
};

/* A simple polygon: vertices in order, either winding, the first not repeated at the end.
 * A view: the caller owns v. */
struct table_poly {
	const struct table_pt *v; /* vertices, in order */
	size_t n;                 /* >= 3 */
};

/* A polyline (wall, fence, river, road): v[0] .. v[n-1]; closed if v[n-1] equals v[0].
 * A view: the caller owns v. */
struct table_line {
	const struct table_pt *v; /* points, in order */
	size_t n;                 /* >= 2 */
};

/* ---- points, lengths, ranges -------------------------------------------------------------- */

/* 1 if p is within the coordinate bound, else 0. */
int table_pt_ok(struct table_pt p);
/* The cross product u.x*v.y - u.y*v.x of two vectors (< 2^51 in magnitude for differences
 * of bounded points); positive when v turns counter-clockwise from u. */
int64_t table_cross(struct table_pt u, struct table_pt v);
/* The dot product of two vectors. */
int64_t table_dot(struct table_pt u, struct table_pt v);
/* The squared distance |ab|^2 in square units (exact, < 2^51). */
int64_t table_dist2(struct table_pt a, struct table_pt b);
/* Compares |ab| with r (0 <= r <= TABLE_RANGE_MAX) exactly: -1 closer, 0 exactly r, 1 farther. */
int table_dist_cmp(struct table_pt a, struct table_pt b, int64_t r);
/* 1 if |ab| <= r ("within r"), else 0. Exact: compares squares. */
int table_within(struct table_pt a, struct table_pt b, int64_t r);
/* 1 if |ab| < r ("less than r"), else 0. Exact. */
int table_within_strict(struct table_pt a, struct table_pt b, int64_t r);
/* floor(sqrt(n)), exact for every n. */
uint64_t table_isqrt(uint64_t n);
/* sqrt(n) rounded to the nearest integer (no ties exist for integer n). */
uint64_t table_isqrt_round(uint64_t n);
/* |ab| rounded to the nearest unit: for printing only; decide with table_within. */
int64_t table_length_round(struct table_pt a, struct table_pt b);
/* |ab| in sub-units, floor(|ab| * TABLE_SUB) (< 2^36): the measure of lengths and costs. */
int64_t table_length_sub(struct table_pt a, struct table_pt b);

/* ---- positions along a segment ------------------------------------------------------------ */

/* Compares two positions exactly (cross-multiplied in __int128): -1, 0 or 1. */
int table_frac_cmp(struct table_frac a, struct table_frac b);
/* The distance from a to the position t of segment ab in sub-units, floor(t * L) where
 * L = table_length_sub(a, b): positions measured this way add up along a segment. */
int64_t table_frac_sub(struct table_pt a, struct table_pt b, struct table_frac t);
/* The point at position t of ab, each coordinate rounded to nearest (halves up, towards +inf).
 * For reports and placing markers; decisions use the exact position t. */
struct table_pt table_frac_point(struct table_pt a, struct table_pt b, struct table_frac t);

/* ---- orientation and segments --------------------------------------------------------------- */

/* Where c lies from the directed line a->b: 1 left (a, b, c counter-clockwise), -1 right,
 * 0 on the line (also when a == b). */
int table_orient(struct table_pt a, struct table_pt b, struct table_pt c);
/* 1 if p lies on the closed segment ab (a == b: p == a), else 0. */
int table_on_seg(struct table_pt p, struct table_pt a, struct table_pt b);

enum table_isect {
	TABLE_ISECT_NONE,    /* no common point */
	TABLE_ISECT_CROSS,   /* one common point, inside both segments */
	TABLE_ISECT_TOUCH,   /* one common point, an endpoint of one or both */
	TABLE_ISECT_OVERLAP, /* collinear, sharing a piece of positive length */
};
/* Classifies segments ab and cd exactly. A zero-length segment is a point: TOUCH if it lies
 * on the other segment. If at is not NULL and they meet, *at receives the position along ab
 * of the common point (for OVERLAP, the one nearest a; a == b gives 0). */
enum table_isect table_seg_isect(struct table_frac *at, struct table_pt a, struct table_pt b,
	struct table_pt c, struct table_pt d);

/* ---- polygons ------------------------------------------------------------------------------- */

enum table_where {
	TABLE_OUTSIDE,
	TABLE_INSIDE,
	TABLE_BOUNDARY, /* on an edge or a vertex; for spans: running along an edge */
};

/* Checks that p is a polygon the segment functions accept: n >= 3 (TABLE_EFEW), points in
 * bound (TABLE_EBOUNDS), no vertex equal to the next, the last included, and no edge folding
 * back on the previous one (TABLE_EDEGEN), no two edges meeting except neighbours at their
 * shared vertex (TABLE_ESELF). On an error, *at (if not NULL) receives the vertex or edge
 * index i (edge i runs from v[i] to v[i+1]). Returns 0 or the error. O(n^2). */
int table_poly_check(const struct table_poly *p, size_t *at);
/* Where q lies: inside, outside or on the boundary of p. Exact (crossing parity with exact
 * orientation); works for any winding and any closed vertex list, simple or not. */
enum table_where table_poly_where(const struct table_poly *p, struct table_pt q);

/* A piece of segment AB between two places where it meets a polygon's boundary. */
struct table_span {
	struct table_frac from; /* start along AB */
	struct table_frac to;   /* end along AB; from < to unless A == B */
	enum table_where where; /* INSIDE, OUTSIDE, or BOUNDARY: running along an edge */
};
/* Splits segment ab where it enters, leaves, or starts or stops running along the boundary
 * of p (valid per table_poly_check): the spans cover [0, 1] in order and neighbours differ in
 * where, so a span may touch the boundary at isolated vertices (AB grazing a corner from
 * outside, or a reflex corner from inside). A == B gives one span 0..1 whose where is
 * table_poly_where(p, a). Returns the count; *out receives a new array (the caller frees it;
 * at most 2 n + 2 entries). Allocation failure aborts. */
size_t table_seg_spans(struct table_span **out, const struct table_poly *p, struct table_pt a,
	struct table_pt b);

/* How segment AB lies in a polygon, in sub-units (TABLE_SUB). */
struct table_measure {
	int64_t length; /* table_length_sub(a, b) */
	int64_t inside; /* the part strictly inside p */
	int64_t along;  /* the part running along p's edges */
	int touches;    /* 1 if AB meets the closed polygon at all */
};
/* Measures ab against p (valid): each span's length is table_frac_sub(to) - (from), so
 * inside + along + outside == length exactly. */
void table_seg_measure(struct table_measure *out, const struct table_poly *p, struct table_pt a,
	struct table_pt b);

/* ---- line of sight -------------------------------------------------------------------------- */

/* Line-of-sight flags. By default a sight line is blocked by a polygon only if a part of
 * positive length lies strictly inside it: grazing a vertex, running along an edge, and ending
 * on the boundary are clear. */
enum {
	/* Also blocked when the open segment (A and B excluded) touches the boundary: a vertex
	 * on the sight line or a run along an edge. */
	TABLE_LOS_GRAZE_BLOCKS = 1 << 0,
	/* Skip polygons that hold A or B strictly inside (a figure in a wood sees out; bound how
	 * far with table_seg_measure). A or B on the boundary does not count as held. */
	TABLE_LOS_IGNORE_HOLDING = 1 << 1,
};
/* 1 if the sight line ab is blocked by any of the n polygons (each valid), else 0; if
 * blocked and which is not NULL, *which receives the lowest blocking index. A == B is never
 * blocked. */
int table_los_blocked(size_t *which, const struct table_poly *polys, size_t n, struct table_pt a,
	struct table_pt b, unsigned flags);

/* ---- linear obstacles ------------------------------------------------------------------------ */

/* Checks a polyline: n >= 2 (TABLE_EFEW), points in bound (TABLE_EBOUNDS), no point equal to
 * the next (TABLE_EDEGEN). Returns 0 or the error, *at (if not NULL) the index. */
int table_line_check(const struct table_line *l, size_t *at);

enum table_contact {
	TABLE_CROSS, /* the obstacle passes from one side of AB to the other */
	TABLE_TOUCH, /* meets AB at one point without passing */
	TABLE_ALONG, /* runs along AB for a while without passing */
};
/* One connected contact between segment AB and an obstacle. */
struct table_crossing {
	size_t line;            /* index of the obstacle */
	size_t seg;             /* its first segment in the contact, v[seg]..v[seg+1] */
	struct table_frac from; /* where the contact begins along AB */
	struct table_frac to;   /* where it ends; equal to from for a point contact */
	enum table_contact kind;
};
/* Every contact between segment ab and the n obstacles (each valid per table_line_check), in
 * exact order along AB (then by to, line, seg). A contact that includes A or B is a TOUCH or
 * ALONG, never a CROSS (a figure at a wall has not crossed it); elsewhere it is a CROSS when
 * the obstacle arrives from one side of AB and leaves on the other (through a vertex on AB or
 * after running along AB: then from < to). An obstacle that ends on AB does not cross it.
 * Returns the count; *out receives a new array (caller frees; NULL-safe when 0). */
size_t table_crossings(struct table_crossing **out, const struct table_line *lines, size_t n,
	struct table_pt a, struct table_pt b);

/* ---- movement through areas ------------------------------------------------------------------ */

/* An area with a movement cost multiplier: moving a length l inside it costs l * num / den
 * (woods at half speed: 2/1). Outside every area the multiplier is 1/1. */
struct table_area {
	struct table_poly poly; /* valid per table_poly_check */
	int32_t num;            /* 1 ..TABLE_COST_MAX */
	int32_t den;            /* 1 ..TABLE_COST_MAX */
};
/* Movement flags. By default a piece of a leg running along an area's edge is outside it. */
enum {
	TABLE_MOVE_EDGE_IN = 1 << 0, /* a piece along an area's edge counts as inside it */
	/* table_path_reach: a stop short of a waypoint is the lattice point of the unit cell
	 * holding the exact stop whose distance from the leg's start is nearest the distance
	 * gone (docs/geometry.md, "The last unit"), not the truncated point */
	TABLE_REACH_NEAREST = 1 << 1,
};
/* The length of the path w[0..n-1] in sub-units: the sum of each leg's table_length_sub. */
int64_t table_path_length(const struct table_pt *w, size_t n);
/* The movement spent along the path w[0..n-1] (1 <= n <= TABLE_PATH_MAX) through the areas,
 * in sub-units of cost. Per leg: the leg is split at every point where it meets an area's
 * boundary (exact positions); each piece costs the highest multiplier of the areas it lies in;
 * piece ends are measured by table_frac_sub; maximal runs of equal multiplier cost
 * ceil(run length * num / den). The legs' costs are added. */
int64_t table_path_cost(const struct table_pt *w, size_t n, const struct table_area *areas,
	size_t n_areas, unsigned flags);

/* How far a path can be followed with a movement budget. */
struct table_reach {
	int complete;       /* 1 if the whole path is affordable */
	size_t leg;         /* the leg it stops on (w[leg] -> w[leg+1]); last if done */
	int64_t along;      /* sub-units along that leg */
	int64_t spent;      /* cost in sub-units, <= budget */
	struct table_pt at; /* the stopping point, each offset from w[leg] truncated
	                                   towards w[leg] (never past the exact point); with
	                                   TABLE_REACH_NEAREST the corner of that unit cell
	                                   whose distance from w[leg] is nearest along */
};
/* Follows the path as table_path_cost prices it, with budget (sub-units of cost, >= 0). In a
 * run of multiplier num/den with m left, the figure goes floor(m * den / num) sub-units.
 * flags: TABLE_MOVE_EDGE_IN, TABLE_REACH_NEAREST (the rule for the last unit). */
void table_path_reach(struct table_reach *out, const struct table_pt *w, size_t n,
	const struct table_area *areas, size_t n_areas, unsigned flags, int64_t budget);

/* ---- squared distances -------------------------------------------------------------------- */

/* Compares two squared distances exactly: -1, 0 or 1. */
int table_d2_cmp(struct table_d2 a, struct table_d2 b);
/* Compares the distance sqrt(d) with r (0 <= r <= TABLE_RANGE_MAX): -1, 0 or 1. */
int table_d2_cmp_r(struct table_d2 d, int64_t r);
/* The distance sqrt(d) in sub-units, floor: for printing. */
int64_t table_d2_sub(struct table_d2 d);
/* The squared distance from p to the closed segment ab. */
struct table_d2 table_seg_d2(struct table_pt p, struct table_pt a, struct table_pt b);

/* ---- oriented rectangles (unit footprints) ------------------------------------------------ */

enum { TABLE_FL, TABLE_FR, TABLE_RR, TABLE_RL };
/* A unit's footprint: corners front-left, front-right, rear-right, rear-left (clockwise). The
 * unit faces out of its front edge; left and right are the unit's own. Any convex
 * quadrilateral in this order is accepted (table_rect_check). */
struct table_rect {
	struct table_pt c[4]; /* indexed by TABLE_FL .. TABLE_RL */
};
/* Builds the footprint whose front edge runs from fl to fr (the unit faces to the left of
 * fl -> fr turned a quarter clockwise) and whose depth is depth units. The rear corners are
 * fl + o and fr + o, o = (round(e.y * depth / |e|), round(-e.x * depth / |e|)) with
 * e = fr - fl, each rounded to nearest by integer square root (a tie cannot occur), so the
 * result is an exact parallelogram. Returns 0, TABLE_EDEGEN (fl == fr) or TABLE_EBOUNDS
 * (a corner out of bound, depth < 1 or > 2 TABLE_COORD_MAX). */
int table_rect_make(struct table_rect *out, struct table_pt fl, struct table_pt fr, int32_t depth);
/* 0 if r's corners are in bound and turn strictly clockwise (a convex footprint), else
 * TABLE_EBOUNDS or TABLE_EDEGEN. */
int table_rect_check(const struct table_rect *r);
/* r as a polygon (a view of r->c: valid while r is), for sight lines and areas. */
struct table_poly table_rect_poly(const struct table_rect *r);
/* Where p lies: inside, outside or on the boundary of r. */
enum table_where table_rect_where(const struct table_rect *r, struct table_pt p);

enum table_overlap {
	TABLE_APART,       /* no common point */
	TABLE_TOUCHING,    /* common boundary points only (base contact) */
	TABLE_OVERLAPPING, /* interiors intersect */
};
/* Separating-axis test on the eight edge normals, exact in int64. */
enum table_overlap table_rect_overlap(const struct table_rect *a, const struct table_rect *b);
/* The squared distance from p to r (0 inside or on the boundary). */
struct table_d2 table_rect_d2_pt(const struct table_rect *r, struct table_pt p);
/* The squared distance between the nearest points of a and b (0 when touching/overlapping). */
struct table_d2 table_rect_d2(const struct table_rect *a, const struct table_rect *b);
/* 1 if p is within range of r (distance <= range), else 0. */
int table_rect_within_pt(const struct table_rect *r, struct table_pt p, int64_t range);
/* 1 if a and b's nearest points are within range (distance <= range), else 0. */
int table_rect_within(const struct table_rect *a, const struct table_rect *b, int64_t range);

/* other's point nearest r, rounded to the nearest unit (halves towards +inf), for reports:
 * where a charge makes contact, where to measure from. If a segment of other is nearest
 * (parallel edges, e.g. base contact), its middle. Returns 0, or -1 when they overlap. */
int table_rect_nearest(struct table_pt *out, const struct table_rect *r,
	const struct table_rect *other);

enum table_arc {
	TABLE_ARC_FRONT,
	TABLE_ARC_LEFT,  /* the unit's left flank */
	TABLE_ARC_RIGHT, /* the unit's right flank */
	TABLE_ARC_REAR,
	TABLE_ARC_CORNER, /* TABLE_ARCS_EDGES only: beyond a corner, in no strip */
	TABLE_ARC_INSIDE, /* strictly inside the footprint (or overlapping it) */
};
enum table_arc_mode {
	/* The diagonals extended beyond the corners cut the table into four arcs. On a
	 * diagonal, front wins over a flank and a flank over the rear. */
	TABLE_ARCS_DIAGONALS,
	/* Strips swept straight out of each edge ("directly in front"), closed: the extended
	 * side edges belong to the front and rear strips, the extended front and rear edges to
	 * the flank strips; a corner belongs to the front, or to a flank at the rear. */
	TABLE_ARCS_EDGES,
};
/* The arc of r that p lies in. Points on r's boundary take the arc of their edge. */
enum table_arc table_arc(const struct table_rect *r, struct table_pt p, enum table_arc_mode mode);

enum table_ref {
	TABLE_REF_CENTRE,       /* other's centre (half-unit exact) */
	TABLE_REF_FRONT_CENTRE, /* the middle of other's front edge */
	TABLE_REF_NEAREST,      /* other's point nearest r; if a segment of other is
	                                   nearest (parallel edges, base contact), its middle */
};
/* The arc of r that the reference point of other lies in, computed exactly (rational
 * points). TABLE_ARC_INSIDE when that point is inside r, or for REF_NEAREST when the
 * footprints overlap. */
enum table_arc table_arc_of(const struct table_rect *r, const struct table_rect *other,
	enum table_ref ref, enum table_arc_mode mode);

#endif
