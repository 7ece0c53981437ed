/* map.c — the NHiS hex map: four-digit hex names, cube coordinates, distance, adjacency,
 * line of sight by integer cube interpolation, and the terrain chart (movement cost, cover
 * factor, the two-column-shift terrains). Exact integer geometry: no floating point. */
#include <stdlib.h>
#include <string.h>

#include "rules/nhis/nhis.h"
#include "core/banned.h"

const char *const nhis_terrain_names[] = {
	"open",
	"building",
	"huts",
	"rough",
	"lava-rock",
	"trees",
	"tall-grass",
	"brush",
	"beach",
	"paddy",
	NULL,
};
const char *const nhis_feature_names[] = {
	"none",
	"foxhole",
	"bunker",
	"cave",
	"wreck",
	NULL,
};

/* NHiS terrain chart. Wooden Building's values come from the options (NOTES [I]). */
struct terrain_chart {
	int cost;   /* movement points to enter */
	int cover;  /* cover factor */
	int blocks; /* blocks LOS */
	int shift;  /* two-column shift terrain */
};
static const struct terrain_chart chart[NHIS_TERRAIN_COUNT] = {
	[NHIS_OPEN] = { 1, 0, 0, 0 },
	[NHIS_BUILDING] = { 2, 3, 1, 1 },
	[NHIS_HUTS] = { 2, 1, 1, 1 },
	[NHIS_ROUGH] = { 3, 2, 0, 1 },
	[NHIS_LAVA] = { 3, 2, 0, 1 },
	[NHIS_TREES] = { 2, 2, 1, 1 },
	[NHIS_TALL_GRASS] = { 2, 1, 1, 1 },
	[NHIS_BRUSH] = { 1, 0, 0, 1 },
	[NHIS_BEACH] = { 2, 0, 0, 0 },
	[NHIS_PADDY] = { 4, 0, 0, 0 },
};

/* Floor division for possibly negative numerators (d > 0). */
static long long floordiv(long long n, long long d)
{
	long long q = n / d;
	if ((n % d != 0) && (n < 0))
		q--;
	return q;
}

int nhis_hex_parse(const char *s, int *out)
{
	if (!s || strlen(s) != 4)
		return -1;
	for (int i = 0; i < 4; i++)
		if (s[i] < '0' || s[i] > '9')
			return -1;
	int col = (s[0] - '0') * 10 + (s[1] - '0');
	int row = (s[2] - '0') * 10 + (s[3] - '0');
	if (col < 1 || row < 1)
		return -1;
	*out = col * 100 + row;
	return 0;
}

void nhis_hex_name(int hex, char out[5])
{
	int col = hex / 100, row = hex % 100;
	out[0] = (char)('0' + col / 10 % 10);
	out[1] = (char)('0' + col % 10);
	out[2] = (char)('0' + row / 10 % 10);
	out[3] = (char)('0' + row % 10);
	out[4] = '\0';
}

int nhis_on_map(const struct nhis_map *m, int hex)
{
	int col = hex / 100, row = hex % 100;
	return hex > 0 && col >= 1 && col <= m->cols && row >= 1 && row <= m->rows;
}

const struct nhis_hex *nhis_map_at(const struct nhis_map *m, int hex)
{
	if (!nhis_on_map(m, hex))
		return NULL;
	return &m->v[(size_t)(hex / 100 - 1) * (size_t)m->rows + (size_t)(hex % 100 - 1)];
}

void nhis_hex_cube(int hex, int *x, int *y, int *z)
{
	int col = hex / 100, row = hex % 100;
	*x = col;
	*z = row - (int)floordiv(col - 1, 2);
	*y = -*x - *z;
}

int nhis_distance(int a, int b)
{
	int ax, ay, az, bx, by, bz;
	nhis_hex_cube(a, &ax, &ay, &az);
	nhis_hex_cube(b, &bx, &by, &bz);
	return (abs(ax - bx) + abs(ay - by) + abs(az - bz)) / 2;
}

int nhis_adjacent(int a, int b)
{
	return nhis_distance(a, b) == 1;
}

/* Rounds the scaled cube point (X, Y, Z)/D to the nearest hex (the usual cube rounding:
 * round each coordinate, then recompute the one that moved most). The callers' nudges make
 * every comparison strict, so no tie is ever broken here. Returns col*100+row, or 0 when
 * the hex has no four-digit name (off any map). */
static int cube_round(long long X, long long Y, long long Z, long long D)
{
	long long rx = floordiv(2 * X + D, 2 * D);
	long long ry = floordiv(2 * Y + D, 2 * D);
	long long rz = floordiv(2 * Z + D, 2 * D);
	long long dx = llabs(rx * D - X), dy = llabs(ry * D - Y), dz = llabs(rz * D - Z);
	if (dx > dy && dx > dz)
		rx = -ry - rz;
	else if (dy > dz)
		ry = -rx - rz;
	else
		rz = -rx - ry;
	(void)ry;
	long long col = rx;
	long long row = rz + floordiv(col - 1, 2);
	if (col < 1 || col > 99 || row < 1 || row > 99)
		return 0;
	return (int)(col * 100 + row);
}

/* The line is sampled at the N-1 interior points A + (B-A)*i/N, N the distance, in cube
 * coordinates scaled by D = N*K. The nudge side*(1, 2, -3)/D (sums to 0, so the point stays
 * on the plane x+y+z = 0) moves a point lying exactly on a hexside or corner into one of
 * the hexes touching it. With K = 16 the nudge is far smaller than any other difference
 * (multiples of K), and the coordinates' residues mod K (+-1, +-2, +-3) are all different,
 * so the rounding never meets a tie. */
#define LINE_K 16

size_t nhis_line(int a, int b, int side, int *out)
{
	int ax, ay, az, bx, by, bz;
	nhis_hex_cube(a, &ax, &ay, &az);
	nhis_hex_cube(b, &bx, &by, &bz);
	long long n = nhis_distance(a, b);
	long long D = n * LINE_K;
	size_t count = 0;
	for (long long i = 1; i < n; i++) {
		long long X = (ax * n + (bx - ax) * i) * LINE_K + side * 1;
		long long Y = (ay * n + (by - ay) * i) * LINE_K + side * 2;
		long long Z = (az * n + (bz - az) * i) * LINE_K - side * 3;
		out[count++] = cube_round(X, Y, Z, D);
	}
	return count;
}

int nhis_hex_blocks(const struct nhis_map *m, const struct nhis_options *o, int a, int b, int h)
{
	const struct nhis_hex *ha = nhis_map_at(m, a), *hb = nhis_map_at(m, b);
	const struct nhis_hex *hh = nhis_map_at(m, h);
	/* Off-map hexes (a line along the map edge) hold no terrain. */
	if (!hh || !ha || !hb || h == a || h == b)
		return 0;
	int lo = ha->elevation < hb->elevation ? ha->elevation : hb->elevation;
	int hi = ha->elevation > hb->elevation ? ha->elevation : hb->elevation;
	/* A crest at least as high as the higher end and above the lower one hides the lower
	 * end (and anything higher than both hides everything). */
	if (o->hill_blocks_los && hh->elevation > lo && hh->elevation >= hi)
		return 1;
	/* Blocking terrain is one level tall: it blocks unless both ends look over it. */
	if (chart[hh->terrain].blocks && hh->elevation >= lo)
		return 1;
	return 0;
}

/* The first blocking hex on the line sampled with nudge side, or 0 if clear. */
static int line_blocker(const struct nhis_map *m, const struct nhis_options *o, int a, int b,
	int side)
{
	int buf[2 * (NHIS_MAX_COLS + NHIS_MAX_ROWS)];
	size_t n = nhis_line(a, b, side, buf);
	for (size_t i = 0; i < n; i++)
		if (nhis_hex_blocks(m, o, a, b, buf[i]))
			return buf[i];
	return 0;
}

int nhis_los(const struct nhis_map *m, const struct nhis_options *o, int a, int b, int *blocker)
{
	int p = line_blocker(m, o, a, b, +1);
	int q = line_blocker(m, o, a, b, -1);
	int clear;
	if (o->hexside == NHIS_HEXSIDE_EITHER)
		clear = !p || !q;
	else
		clear = !p && !q;
	if (blocker)
		*blocker = clear ? 0 : (p ? p : q);
	return clear;
}

int nhis_move_cost(const struct nhis_map *m, const struct nhis_options *o, int from, int to,
	int jungle)
{
	const struct nhis_hex *f = nhis_map_at(m, from), *t = nhis_map_at(m, to);
	if (!f || !t)
		return -1;
	int cost;
	if (f->road && t->road)
		cost = 1;
	else if (t->terrain == NHIS_BUILDING)
		cost = o->building_cost;
	else if (t->terrain == NHIS_TREES && jungle)
		cost = 1;
	else
		cost = chart[t->terrain].cost;
	if (t->elevation > f->elevation)
		cost += 1;
	return cost;
}

int nhis_cover(const struct nhis_map *m, const struct nhis_options *o, int firer, int target)
{
	const struct nhis_hex *t = nhis_map_at(m, target), *f = nhis_map_at(m, firer);
	if (!t)
		return 0;
	/* Bunker: "4 - do not count other terrain in hex", the hill included. */
	if (t->feature == NHIS_BUNKER)
		return 4;
	int cover = t->terrain == NHIS_BUILDING ? o->building_cover : chart[t->terrain].cover;
	if (f && f->elevation < t->elevation)
		cover += 1;
	if (t->feature == NHIS_FOXHOLE || t->feature == NHIS_WRECK)
		cover += 1;
	else if (t->feature == NHIS_CAVE)
		cover += 6;
	return cover;
}

int nhis_shift_terrain(const struct nhis_map *m, int target)
{
	const struct nhis_hex *t = nhis_map_at(m, target);
	if (!t)
		return 0;
	return chart[t->terrain].shift || t->feature == NHIS_CAVE || t->feature == NHIS_WRECK;
}
