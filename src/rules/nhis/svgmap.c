/* svgmap.c — the No Honor in Surrender hex map as SVG (rules.h draw_map): flat-topped hexes
 * in vertical columns, even columns half a hex lower as on the printed map, coloured by
 * terrain with hill levels, roads and features; each side's units as counters; the turn's
 * moves, fire and melees read from its events. Positions are public in NHiS (standing
 * opportunity fire is private, and never drawn), so every view shows the same map. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/nhis/nhis.h"
#include "core/banned.h"

/* A hex is drawn with integer corners: half-width R, half-height HH (about R * sqrt(3) / 2),
 * so columns are 3R/2 apart and rows 2 HH apart. */
#define R 40
#define HH 35
#define LEFT 34
#define TOP 34
#define LEGEND 170

static const char *const side_colour[2] = { "#c0392b", "#1f4e9c" };
static const char *const terrain_colour[NHIS_TERRAIN_COUNT] = {
	"#eef2d8", /* open */
	"#a0522d", /* building */
	"#cd853f", /* huts */
	"#a9a9a9", /* rough */
	"#5a5a5a", /* lava rock */
	"#3f8f5a", /* trees */
	"#c9da74", /* tall grass */
	"#9bc53d", /* brush */
	"#f3dfae", /* beach */
	"#8fc1a9", /* paddy */
};
static const char *const feature_text[NHIS_FEATURE_COUNT] = { "", "foxhole", "bunker", "cave",
	"wreck" };
static const char type_letter[NHIS_UTYPE_COUNT] = { 'S', 'L', 'M', 'm', 'F', 'T' };

static int hx(int hex)
{
	return LEFT + R + (hex / 100 - 1) * (3 * R / 2);
}

static int hy(int hex)
{
	int col = hex / 100;
	return TOP + HH + (hex % 100 - 1) * 2 * HH + (col % 2 == 0 ? HH : 0);
}

static void hex_shape(struct svg *g, int x, int y, int inset, const struct svg_style *st)
{
	int r = R - inset, h = HH - inset * 7 / 8;
	int xy[12] = { x - r, y, x - r / 2, y - h, x + r / 2, y - h, x + r, y, x + r / 2, y + h,
		x - r / 2, y + h };
	svg_poly(g, xy, 6, 1, 0, st);
}

/* The hex named by the four digits at p, or 0. */
static int hex_at(const struct nhis_state *s, const char *p)
{
	char name[5];
	int hex;
	if (!p || strlen(p) < 4)
		return 0;
	memcpy(name, p, 4);
	name[4] = '\0';
	return nhis_hex_parse(name, &hex) == 0 && nhis_on_map(&s->map, hex) ? hex : 0;
}

/* The first hex of the map named in text (four digits standing alone), or 0. */
static int first_hex(const struct nhis_state *s, const char *text)
{
	for (const char *p = text; *p; p++) {
		int digits = 0;
		while (p[digits] >= '0' && p[digits] <= '9')
			digits++;
		if (digits == 4 && (p == text || p[-1] < '0' || p[-1] > '9') && hex_at(s, p))
			return hex_at(s, p);
		p += digits ? digits - 1 : 0;
	}
	return 0;
}

/* The side of the unit whose id starts text (up to ',' or ' '), or of the player named so. */
static int side_of(const struct nhis_state *s, const char *text)
{
	char id[64];
	size_t n = strcspn(text, ", ");
	snprintf(id, sizeof(id), "%.*s", (int)(n < 63 ? n : 63), text);
	int u = nhis_unit_find(s, id);
	if (u >= 0)
		return s->units[u].side;
	for (int k = 0; k < 2; k++)
		if (strcmp(s->side[k].player, id) == 0)
			return k;
	return 0;
}

static void counter(struct svg *g, int x, int y, const struct nhis_unit *u)
{
	struct svg_style box = { side_colour[u->side], "#000000", 1, 0 };
	struct svg_style white = { "#ffffff", NULL, 0, SVG_MIDDLE | SVG_BOLD };
	struct svg_style stripe = { "#ffffff", NULL, 0, 0 };
	struct svg_style shaken = { "#ffd400", "#000000", 1, 0 };
	char t[2] = { type_letter[u->type], '\0' };

	svg_rect(g, x - 8, y - 7, 16, 14, &box);
	svg_text(g, x, y + 4, 10, t, &white);
	if (u->is_reduced)
		svg_rect(g, x - 8, y + 4, 16, 3, &stripe);
	if (u->shaken)
		svg_circle(g, x + 8, y - 7, 3, &shaken);
}

static void draw_hex(struct svg *g, const struct nhis_state *s, int hex)
{
	const struct nhis_hex *h = nhis_map_at(&s->map, hex);
	int x = hx(hex), y = hy(hex);
	struct svg_style fill = { terrain_colour[h->terrain], "#666666", 1, 0 };
	struct svg_style label = { h->terrain == NHIS_LAVA || h->terrain == NHIS_BUILDING ?
					   "#ffffff" :
					   "#444444",
		NULL, 0, SVG_MIDDLE };
	char name[16];

	hex_shape(g, x, y, 0, &fill);
	if (h->elevation) {
		struct svg_style hill = { NULL, "#7a4a12", 2 * h->elevation, 0 };
		hex_shape(g, x, y, 2 + h->elevation, &hill);
		snprintf(name, sizeof(name), "L%d", h->elevation);
		svg_text(g, x + R / 2 + 2, y + 4, 10, name, &label);
	}
	nhis_hex_name(hex, name);
	svg_text(g, x, y - HH + 12, 10, name, &label);
	if (h->feature) {
		struct svg_style ft = { "#000000", NULL, 0, SVG_MIDDLE };
		svg_label(g, x, y + HH - 4, 9, feature_text[h->feature], &ft);
	}
}

/* Roads: a line between the centres of neighbouring road hexes. */
static void draw_roads(struct svg *g, const struct nhis_state *s)
{
	struct svg_style road = { NULL, "#8b5a2b", 4, 0 };
	for (int col = 1; col <= s->map.cols; col++)
		for (int row = 1; row <= s->map.rows; row++) {
			int a = col * 100 + row;
			if (!nhis_map_at(&s->map, a)->road)
				continue;
			for (int dc = 0; dc <= 1; dc++)
				for (int dr = -1; dr <= 1; dr++) {
					int b = (col + dc) * 100 + row + dr;
					if ((dc || dr > 0) && nhis_on_map(&s->map, b) &&
						nhis_adjacent(a, b) &&
						nhis_map_at(&s->map, b)->road)
						svg_line(g, hx(a), hy(a), hx(b), hy(b), 0, &road);
				}
		}
}

static void draw_units(struct svg *g, const struct nhis_state *s)
{
	for (int col = 1; col <= s->map.cols; col++)
		for (int row = 1; row <= s->map.rows; row++) {
			int hex = col * 100 + row, k = 0;
			for (size_t i = 0; i < s->n_units; i++) {
				const struct nhis_unit *u = &s->units[i];
				if (u->eliminated || u->hex != hex)
					continue;
				if (k < 6)
					counter(g, hx(hex) - 18 + (k % 3) * 18,
						hy(hex) - 6 + (k / 3) * 16, u);
				k++;
			}
		}
}

static void hit_mark(struct svg *g, int x, int y)
{
	struct svg_style burst = { "#ffd400", "#000000", 2, 0 };
	svg_star(g, x, y, 11, 4, &burst);
}

static void fight_mark(struct svg *g, int x, int y)
{
	struct svg_style ring = { "#ffffff", "#000000", 2, 0 };
	struct svg_style blade = { NULL, "#000000", 3, 0 };
	svg_fight_mark(g, x, y, 12, 7, &ring, &blade);
}

/* The turn's events on the map, in order: moves (one arrow per hex entered), fire with its
 * result, melees. */
static void draw_turn(struct svg *g, const struct nhis_state *s, const struct events *ev)
{
	for (size_t i = 0; ev && i < ev->n; i++) {
		const struct event *e = &ev->v[i];
		const char *t = e->text, *p;
		int a, b;
		if (e->kind != EVENT_EVENT)
			continue;
		if (strstr(t, "melee") && (a = first_hex(s, t))) {
			fight_mark(g, hx(a) + R / 2, hy(a) - HH / 2);
			continue;
		}
		p = strstr(t, " -> ");
		if (!p || p - t < 4 || !(a = hex_at(s, p - 4)) || !(b = hex_at(s, p + 4)))
			continue;
		int side = side_of(s, t);
		if (strstr(t, " fire ")) {
			const char *r = strrchr(t, ':');
			int hit = r && strncmp(r + 2, "no effect", 9) != 0;
			struct svg_style sh = { NULL, side_colour[side], 2,
				SVG_ARROW | SVG_DASHED };
			svg_line(g, hx(a), hy(a) - 4, hx(b), hy(b) - 4, 12, &sh);
			if (hit)
				hit_mark(g, hx(b) + 14, hy(b) - 14);
		} else {
			struct svg_style mv = { NULL, side_colour[side], 4, SVG_ARROW };
			svg_line(g, hx(a), hy(a) + 8, hx(b), hy(b) + 8, 14, &mv);
		}
	}
}

static void legend(struct svg *g, const struct nhis_state *s, int y)
{
	struct svg_style txt = { "#000000", NULL, 0, 0 };
	int x = LEFT;

	svg_legend(g, x, y, 14);
	svg_swatches(g, x, y, NHIS_TERRAIN_COUNT, 5, 100, terrain_colour, "#666666",
		nhis_terrain_names, &txt);
	y += 66;
	struct svg_style hill = { "#eef2d8", "#7a4a12", 3, 0 };
	svg_rect(g, x, y - 12, 16, 16, &hill);
	svg_text(g, x + 20, y, 12, "hill (L1, L2: level)", &txt);
	struct svg_style road = { NULL, "#8b5a2b", 4, 0 };
	svg_line(g, x + 150, y - 4, x + 180, y - 4, 0, &road);
	svg_text(g, x + 186, y, 12, "road", &txt);
	svg_text(g, x + 240, y, 12, "hex CCRR: column, row; even columns half a hex lower", &txt);
	y += 26;
	for (int k = 0; k < 2; k++) {
		struct nhis_unit u = { 0 };
		u.side = k;
		u.type = NHIS_SQUAD;
		counter(g, x + 8, y - 4 + k * 22, &u);
		svg_text(g, x + 22, y + k * 22, 12, s->side[k].player, &txt);
	}
	svg_text(g, x + 120, y, 12,
		"S squad, L leader, M machine gun, m mortar, F flamethrower, T tank", &txt);
	svg_text(g, x + 120, y + 22, 12, "white stripe: reduced; yellow dot: Shaken", &txt);
	y += 44;
	struct svg_style mv = { NULL, "#444444", 4, SVG_ARROW };
	struct svg_style sh = { NULL, "#444444", 2, SVG_ARROW | SVG_DASHED };
	svg_line(g, x, y, x + 40, y, 14, &mv);
	svg_text(g, x + 46, y + 4, 12, "move", &txt);
	svg_line(g, x + 100, y, x + 140, y, 12, &sh);
	hit_mark(g, x + 160, y);
	svg_text(g, x + 178, y + 4, 12, "fire, hit", &txt);
	fight_mark(g, x + 260, y);
	svg_text(g, x + 278, y + 4, 12, "melee", &txt);
	/* Scale: one hex, centre to centre. */
	svg_scale_bar(g, x + 360, y + 4, 2 * HH, 0, 12, "1 hex");
	svg_group_end(g);
}

void nhis_draw_map(const struct nhis_state *s, const struct rules_map *m, struct buf *out)
{
	struct svg g;
	struct svg_style lab = { "#000000", NULL, 0, SVG_MIDDLE | SVG_BOLD };
	int w = LEFT + R / 2 + s->map.cols * (3 * R / 2) + 20;
	int h = TOP + (2 * s->map.rows + 1) * HH + 20 + LEGEND;
	char title[64], t[16];

	if (w < LEFT + 640)
		w = LEFT + 640;
	snprintf(title, sizeof(title), "No Honor in Surrender, turn %d", m->turn);
	svg_begin(&g, out, w, h, w, title);
	svg_group(&g, "table");
	for (int col = 1; col <= s->map.cols; col++) {
		snprintf(t, sizeof(t), "%02d", col);
		svg_text(&g, hx(col * 100 + 1), TOP - 10, 13, t, &lab);
	}
	for (int row = 1; row <= s->map.rows; row++) {
		snprintf(t, sizeof(t), "%02d", row);
		svg_text(&g, LEFT / 2, hy(100 + row) + 5, 13, t, &lab);
	}
	for (int col = 1; col <= s->map.cols; col++)
		for (int row = 1; row <= s->map.rows; row++)
			draw_hex(&g, s, col * 100 + row);
	draw_roads(&g, s);
	draw_units(&g, s);
	svg_group_end(&g);
	svg_group(&g, "turn");
	draw_turn(&g, s, m->events);
	svg_group_end(&g);
	legend(&g, s, TOP + (2 * s->map.rows + 1) * HH + 30);
	svg_end(&g);
}
