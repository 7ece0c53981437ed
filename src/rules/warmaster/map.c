/* map.c — the Warmaster table as an SVG map (rules.h draw_map), in millimetres as the orders
 * measure: terrain areas, structures with their damage, each unit's stands as rectangles
 * turned as the unit faces (integer division along its footprint's edges, no trigonometry),
 * a facing arrow, characters, confused and destroyed units; the turn on it: moves, drive-backs
 * and retreats from the state before, shots and combats from the events. Nothing on the
 * table is private in Warmaster (standing choices are, and are never drawn). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/warmaster/warmaster.h"
#include "core/banned.h"

#define M 60       /* margin for the edge labels, mm */
#define LEGEND 260 /* the legend's height below the table, mm */
#define TICK 100   /* an edge label every 10 cm */

static const char *const palette[] = { "#c0392b", "#1f4e9c", "#1e8449", "#7d3c98", "#d35400",
	"#117a65", "#7b241c", "#2e4053" };

static const char *colour(int side)
{
	return palette[(size_t)(side < 0 ? 0 : side) % (sizeof(palette) / sizeof(palette[0]))];
}

static int X(struct table_pt p)
{
	return M + p.x;
}

static int Y(const struct wm_state *s, struct table_pt p)
{
	return M + s->depth - p.y;
}

/* a + (b - a) * k / n, each coordinate truncated towards zero. */
static struct table_pt along(struct table_pt a, struct table_pt b, int k, int n)
{
	return (struct table_pt){ (int32_t)(a.x + ((int64_t)b.x - a.x) * k / n),
		(int32_t)(a.y + ((int64_t)b.y - a.y) * k / n) };
}

static void quad(struct svg *g, const struct wm_state *s, const struct table_pt q[4],
	const struct svg_style *st)
{
	int xy[8];
	for (int i = 0; i < 4; i++)
		xy[2 * i] = X(q[i]), xy[2 * i + 1] = Y(s, q[i]);
	svg_poly(g, xy, 4, 1, 0, st);
}

/* The unit's stands: across its front in line or irregular, one behind another in column. */
static void unit(struct svg *g, const struct wm_state *s, const struct wm_unit *u)
{
	struct table_rect r = wm_rect(u);
	struct table_pt fl = r.c[TABLE_FL], fr = r.c[TABLE_FR], rr = r.c[TABLE_RR],
			rl = r.c[TABLE_RL];
	int n = u->stands > 0 ? u->stands : 1;
	struct svg_style body = { u->destroyed ? "#dddddd" : colour(u->side),
		u->confused ? "#ffd400" : "#000000", u->confused ? 4 : 1,
		u->destroyed ? SVG_DASHED : 0 };

	for (int i = 0; i < n; i++) {
		struct table_pt q[4];
		if (u->formation == WM_COLUMN) {
			q[0] = along(fl, rl, i, n), q[1] = along(fr, rr, i, n);
			q[2] = along(fr, rr, i + 1, n), q[3] = along(fl, rl, i + 1, n);
		} else {
			q[0] = along(fl, fr, i, n), q[1] = along(fl, fr, i + 1, n);
			q[2] = along(rl, rr, i + 1, n), q[3] = along(rl, rr, i, n);
		}
		quad(g, s, q, &body);
	}
	/* Facing: an arrow from the front edge's middle, 25 mm straight ahead. */
	struct table_pt fc = along(fl, fr, 1, 2), bc = along(rl, rr, 1, 2);
	int64_t dx = (int64_t)fc.x - bc.x, dy = (int64_t)fc.y - bc.y;
	int64_t len = (int64_t)svg_isqrt((unsigned long long)(dx * dx + dy * dy));
	if (len > 0 && !u->destroyed) {
		struct table_pt tip = { (int32_t)(fc.x + dx * 25 / len),
			(int32_t)(fc.y + dy * 25 / len) };
		struct svg_style face = { NULL, "#000000", 2, SVG_ARROW };
		svg_line(g, X(fc), Y(s, fc), X(tip), Y(s, tip), 10, &face);
	}
	struct table_pt c = wm_centre(u);
	struct svg_style txt = { "#000000", NULL, 0, SVG_MIDDLE };
	char label[96];
	snprintf(label, sizeof(label), "%s%s%s", u->id, u->confused ? " (confused)" : "",
		u->destroyed ? " (destroyed)" : "");
	svg_label(g, X(c), Y(s, c) + 4 + (u->stand_d > 30 ? 0 : 26), 12, label, &txt);
	if (u->destroyed) {
		struct svg_style x = { NULL, "#555555", 2, 0 };
		svg_line(g, X(fl), Y(s, fl), X(rr), Y(s, rr), 0, &x);
		svg_line(g, X(fr), Y(s, fr), X(rl), Y(s, rl), 0, &x);
	}
}

static void character(struct svg *g, int x, int y, const struct wm_character *ch)
{
	static const char *const letter[] = { "G", "H", "W" };
	struct svg_style body = { colour(ch->side), "#ffffff", 2, 0 };
	struct svg_style txt = { "#ffffff", NULL, 0, SVG_MIDDLE | SVG_BOLD };
	svg_circle(g, x, y, 10, &body);
	svg_text(g, x, y + 5, 13, letter[ch->role], &txt);
}

static void structure(struct svg *g, const struct wm_state *s, const struct wm_structure *t)
{
	static const char *const name[] = { "wall", "tower", "gateway", "building" };
	struct svg_style box = { t->breached ? "#f2d7d5" : "#7f7f7f",
		t->breached ? "#c0392b" :
		t->damaged  ? "#e67e22" :
			      "#000000",
		t->damaged || t->breached ? 4 : 1, 0 };
	struct svg_style txt = { "#000000", NULL, 0, SVG_MIDDLE };
	int x = X(t->at), y = Y(s, t->at);
	char label[96];
	svg_rect(g, x - 15, y - 15, 30, 30, &box);
	if (t->breached) {
		struct svg_style cross = { NULL, "#c0392b", 3, 0 };
		svg_line(g, x - 15, y - 15, x + 15, y + 15, 0, &cross);
		svg_line(g, x + 15, y - 15, x - 15, y + 15, 0, &cross);
	}
	snprintf(label, sizeof(label), "%s %s%s", name[t->kind], t->id,
		t->breached ? " (breached)" :
		t->damaged  ? " (damaged)" :
			      "");
	svg_label(g, x, y - 20, 12, label, &txt);
}

static void area(struct svg *g, const struct wm_state *s, const struct wm_area *a)
{
	static const char *const fill[] = { "#8cc084", "#e3d3a8", "#b9b9b9", "#8ec5e8" };
	struct svg_style st = { fill[a->kind], "#666666", 1, 0 };
	int *xy = xcalloc(2 * a->n, sizeof(int));
	for (size_t i = 0; i < a->n; i++)
		xy[2 * i] = X(a->v[i]), xy[2 * i + 1] = Y(s, a->v[i]);
	svg_poly(g, xy, a->n, 1, 0, &st);
	free(xy);
}

static void hit_mark(struct svg *g, int x, int y, int hits)
{
	struct svg_style burst = { "#ffd400", "#000000", 1, 0 };
	for (int i = 0; i < hits && i < 6; i++)
		svg_circle(g, x + 12 * i, y, 5, &burst);
}

static void fight_mark(struct svg *g, int x, int y)
{
	struct svg_style ring = { "#ffffff", "#000000", 2, 0 };
	struct svg_style blade = { NULL, "#000000", 3, 0 };
	svg_fight_mark(g, x, y, 14, 8, &ring, &blade);
}

/* The unit named by the len bytes at p, or -1. */
static int unit_at(const struct wm_state *s, const char *p, size_t len)
{
	char id[96];
	if (len >= sizeof(id))
		return -1;
	memcpy(id, p, len);
	id[len] = '\0';
	return wm_unit_find(s, id);
}

/* 1 if an event of ev names unit id followed by what (" is driven back", " retreats"). */
static int named(const struct events *ev, const char *id, const char *what)
{
	size_t n = strlen(id);
	for (size_t i = 0; ev && i < ev->n; i++) {
		const char *t = ev->v[i].text;
		if (strncmp(t, id, n) == 0 && strncmp(t + n, what, strlen(what)) == 0)
			return 1;
	}
	return 0;
}

static void draw_turn(struct svg *g, const struct wm_state *s, const struct wm_state *before,
	const struct events *ev)
{
	for (size_t i = 0; before && i < s->n_units && i < before->n_units; i++) {
		const struct wm_unit *a = &before->units[i], *b = &s->units[i];
		if (strcmp(a->id, b->id) != 0 || a->destroyed)
			continue;
		struct table_pt p = wm_centre(a), q = wm_centre(b);
		if (p.x == q.x && p.y == q.y)
			continue;
		int back = named(ev, b->id, " is driven back") || named(ev, b->id, " retreats");
		struct svg_style mv = { NULL, back ? "#e67e22" : colour(b->side), 4,
			SVG_ARROW | (back ? SVG_DASHED : 0) };
		svg_line(g, X(p), Y(before, p), X(q), Y(s, q), 18, &mv);
	}
	for (size_t i = 0; before && i < s->n_chars && i < before->n_chars; i++) {
		const struct wm_character *a = &before->chars[i], *b = &s->chars[i];
		if (strcmp(a->id, b->id) != 0 || a->slain ||
			(a->at.x == b->at.x && a->at.y == b->at.y))
			continue;
		struct svg_style mv = { NULL, colour(b->side), 2, SVG_ARROW | SVG_DASHED };
		svg_line(g, X(a->at), Y(before, a->at), X(b->at), Y(s, b->at), 12, &mv);
	}
	for (size_t i = 0; ev && i < ev->n; i++) {
		const char *t = ev->v[i].text, *p = strstr(t, ": "), *on;
		int a, b;
		if (ev->v[i].kind != EVENT_EVENT || !p || !(on = strstr(p, " attacks on ")) ||
			(a = unit_at(s, t, (size_t)(p - t))) < 0 ||
			(b = unit_at(s, on + 12, strcspn(on + 12, ", "))) < 0)
			continue;
		struct table_pt pa = wm_centre(&s->units[a]), pb = wm_centre(&s->units[b]);
		const char *h = strstr(on, ", ");
		int hits = h ? (int)strtol(h + 2, NULL, 10) : 0;
		if (strcmp(ev->v[i].phase, "shooting") == 0) {
			struct svg_style sh = { NULL, colour(s->units[a].side), 2,
				SVG_ARROW | SVG_DASHED };
			svg_line(g, X(pa), Y(s, pa), X(pb), Y(s, pb), 14, &sh);
			hit_mark(g, X(pb) + 12, Y(s, pb) - 22, hits);
		} else {
			fight_mark(g, (X(pa) + X(pb)) / 2, (Y(s, pa) + Y(s, pb)) / 2);
		}
	}
}

static void legend(struct svg *g, const struct wm_state *s)
{
	struct svg_style txt = { "#000000", NULL, 0, 0 };
	static const char *const fill[] = { "#8cc084", "#e3d3a8", "#b9b9b9", "#8ec5e8" };
	int x = M, y = M + s->depth + 50;

	svg_legend(g, x, y, 16);
	y += 30;
	for (int k = 0; k < WM_AKIND_COUNT; k++) {
		struct svg_style sw = { fill[k], "#666666", 1, 0 };
		svg_rect(g, x + k * 150, y - 14, 18, 18, &sw);
		svg_text(g, x + 24 + k * 150, y, 14, wm_akind_names[k], &txt);
	}
	y += 34;
	for (size_t k = 0; k < s->n_sides && k < 4; k++) {
		struct svg_style sw = { colour((int)k), "#000000", 1, 0 };
		svg_rect(g, x + (int)k * 200, y - 14, 30, 18, &sw);
		svg_text(g, x + 38 + (int)k * 200, y, 14, s->side[k].player, &txt);
	}
	y += 34;
	struct svg_style conf = { "#888888", "#ffd400", 4, 0 };
	struct svg_style dest = { "#dddddd", "#000000", 1, SVG_DASHED };
	struct svg_style face = { NULL, "#000000", 2, SVG_ARROW };
	svg_rect(g, x, y - 14, 30, 18, &conf);
	svg_text(g, x + 38, y, 14, "confused", &txt);
	svg_rect(g, x + 150, y - 14, 30, 18, &dest);
	svg_text(g, x + 188, y, 14, "destroyed", &txt);
	svg_line(g, x + 300, y - 5, x + 330, y - 5, 10, &face);
	svg_text(g, x + 338, y, 14, "facing (stands turned as the unit)", &txt);
	y += 34;
	struct wm_character ch;
	memset(&ch, 0, sizeof(ch));
	character(g, x + 10, y - 5, &ch);
	svg_text(g, x + 26, y, 14, "general, H hero, W wizard", &txt);
	struct wm_structure st;
	memset(&st, 0, sizeof(st));
	st.id = (char *)"";
	struct svg_style box = { "#7f7f7f", "#e67e22", 4, 0 };
	svg_rect(g, x + 300, y - 14, 18, 18, &box);
	svg_text(g, x + 326, y, 14, "structure, damaged; red cross: breached", &txt);
	y += 34;
	struct svg_style mv = { NULL, "#444444", 4, SVG_ARROW };
	struct svg_style back = { NULL, "#e67e22", 4, SVG_ARROW | SVG_DASHED };
	struct svg_style sh = { NULL, "#444444", 2, SVG_ARROW | SVG_DASHED };
	svg_line(g, x, y - 5, x + 50, y - 5, 18, &mv);
	svg_text(g, x + 58, y, 14, "move", &txt);
	svg_line(g, x + 120, y - 5, x + 170, y - 5, 18, &back);
	svg_text(g, x + 178, y, 14, "driven back / retreat", &txt);
	svg_line(g, x + 350, y - 5, x + 400, y - 5, 14, &sh);
	hit_mark(g, x + 410, y - 5, 2);
	svg_text(g, x + 440, y, 14, "shooting, hits", &txt);
	fight_mark(g, x + 580, y - 5);
	svg_text(g, x + 600, y, 14, "combat", &txt);
	y += 34;
	struct svg_style bar = { "#000000", NULL, 0, 0 };
	svg_rect(g, x, y - 8, 100, 5, &bar);
	svg_rect(g, x, y - 14, 3, 16, &bar);
	svg_rect(g, x + 97, y - 14, 3, 16, &bar);
	svg_text(g, x + 110, y, 14, "100 mm; edges in mm, as orders give them", &txt);
	svg_group_end(g);
}

void wm_draw_map(const struct wm_state *s, const struct rules_map *m, struct buf *out)
{
	struct svg g;
	struct svg_style table = { "#e6edcf", "#333333", 3, 0 };
	struct svg_style mid = { "#333333", NULL, 0, SVG_MIDDLE };
	struct svg_style end = { "#333333", NULL, 0, SVG_END };
	const struct wm_state *before = m->before;
	int w = 2 * M + s->width, h = 2 * M + s->depth + LEGEND;
	char title[64];

	if (w < 900)
		w = 900;
	snprintf(title, sizeof(title), "Warmaster, turn %d", m->turn);
	svg_begin(&g, out, w, h, w, title);
	svg_group(&g, "table");
	static const struct svg_ruler ruler = { TICK, 14, 20, 6, 5 };
	svg_ruled_table(&g, M, M, s->width, s->depth, &ruler, &table, &mid, &end);
	for (size_t i = 0; i < s->n_areas; i++)
		area(&g, s, &s->areas[i]);
	for (size_t i = 0; i < s->n_structures; i++)
		structure(&g, s, &s->structures[i]);
	for (size_t i = 0; i < s->n_units; i++)
		unit(&g, s, &s->units[i]);
	for (size_t i = 0; i < s->n_chars; i++)
		if (!s->chars[i].slain)
			character(&g, X(s->chars[i].at) + (s->chars[i].with ? 14 : 0),
				Y(s, s->chars[i].at) - (s->chars[i].with ? 14 : 0), &s->chars[i]);
	svg_group_end(&g);
	svg_group(&g, "turn");
	draw_turn(&g, s, before, m->events);
	svg_group_end(&g);
	legend(&g, s);
	svg_end(&g);
}
