/* map.c — the Border Reivers table as an SVG map (rules.h draw_map), in tenths of an inch as
 * the orders measure: terrain areas and lines, every figure and animal a viewer may see, each
 * group outlined, mounted, stunned and wounded figures marked, and the turn on it (moves and
 * bolting horses from the state before, shots, charges and melees from the events). Another
 * side's hidden group, and its figures, never appear: not now, not where they were before. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/reivers/reivers.h"
#include "core/banned.h"

#define M 40       /* margin for the edge labels, tenths */
#define LEGEND 200 /* the legend's height below the table, tenths */
#define TICK 60    /* an edge label every 6" */

static const char *const palette[] = { "#c0392b", "#1f4e9c", "#1e8449", "#7d3c98", "#d35400",
	"#117a65", "#7b241c", "#2e4053" };
#define PALETTE (sizeof(palette) / sizeof(palette[0]))

static const char *colour(int side)
{
	return palette[(size_t)(side < 0 ? 0 : side) % PALETTE];
}

/* Table coordinates (y up the table) to the drawing's (y down). */
static int X(const struct table_pt p)
{
	return M + p.x;
}

static int Y(const struct rv_state *s, const struct table_pt p)
{
	return M + s->height - p.y;
}

static void area(struct svg *g, const struct rv_state *s, const struct rv_feature_def *f)
{
	static const char *const fill[] = { "#8cc084", "#8ec5e8", "#9c6b4e", "#c9b88a", "#f1ecd6" };
	struct svg_style st = { fill[f->kind], "#555555", 1, 0 };
	int xy[2 * RV_MAX_POINTS];
	for (size_t i = 0; i < f->n; i++)
		xy[2 * i] = X(f->v[i]), xy[2 * i + 1] = Y(s, f->v[i]);
	svg_poly(g, xy, f->n, 1, 0, &st);
}

static void line(struct svg *g, const struct rv_state *s, const struct rv_feature_def *f)
{
	static const char *const stroke[] = { "#c8a165", "#8b5a2b", "#555555" };
	static const int width[] = { 10, 2, 4 };
	struct svg_style st = { NULL, stroke[f->kind], width[f->kind],
		f->kind == RV_FENCE ? SVG_DASHED : 0 };
	int xy[2 * RV_MAX_POINTS];
	for (size_t i = 0; i < f->n; i++)
		xy[2 * i] = X(f->v[i]), xy[2 * i + 1] = Y(s, f->v[i]);
	svg_poly(g, xy, f->n, 0, 0, &st);
}

/* A figure: a circle (a square for a leader or heidman) in his side's colour; mounted a ring
 * around it, stunned a yellow dot, wounded a white cross. */
static void figure(struct svg *g, int x, int y, const struct rv_figure *f, int stunned)
{
	struct svg_style body = { colour(f->side), "#000000", 1, 0 };
	struct svg_style ring = { NULL, colour(f->side), 2, 0 };
	struct svg_style stun = { "#ffd400", "#000000", 1, 0 };
	struct svg_style cross = { NULL, "#ffffff", 2, 0 };
	if (f->mounted)
		svg_circle(g, x, y, 9, &ring);
	if (f->role == RV_FIGURE)
		svg_circle(g, x, y, 5, &body);
	else
		svg_rect(g, x - 5, y - 5, 10, 10, &body);
	if (f->hits > 0) {
		svg_line(g, x - 3, y, x + 3, y, 0, &cross);
		svg_line(g, x, y - 3, x, y + 3, 0, &cross);
	}
	if (stunned)
		svg_circle(g, x + 6, y - 6, 3, &stun);
}

static void animal(struct svg *g, int x, int y, const struct rv_animal_def *a)
{
	static const char *const fill[] = { "#6e4b2a", "#ffffff", "#d2a679" };
	struct svg_style st = { fill[a->kind], a->spooked ? "#e67e22" : "#000000",
		a->spooked ? 2 : 1, 0 };
	int xy[8] = { x, y - 5, x + 6, y, x, y + 5, x - 6, y };
	svg_poly(g, xy, 4, 1, 0, &st);
}

/* 1 if viewer (side, -1 the public) may see figure f of s. */
static int seen(const struct rv_state *s, size_t f, int side)
{
	return !s->fig[f].dead && !rv_hidden_from(s, (int)f, side);
}

static void groups(struct svg *g, const struct rv_state *s, int side)
{
	struct svg_style txt = { "#000000", NULL, 0, 0 };
	for (size_t k = 0; k < s->n_group; k++) {
		int x0 = 1 << 30, y0 = 1 << 30, x1 = -(1 << 30), y1 = -(1 << 30), n = 0;
		for (size_t i = rv_first(s, (int)k); i < s->n_fig; i = rv_next(s, i)) {
			if (!seen(s, i, side))
				continue;
			int x = X(s->fig[i].at), y = Y(s, s->fig[i].at);
			x0 = x < x0 ? x : x0, x1 = x > x1 ? x : x1;
			y0 = y < y0 ? y : y0, y1 = y > y1 ? y : y1;
			n++;
		}
		/* A group of one needs no outline (a big fray has thousands). */
		if (!n || (n == 1 && !s->group[k].hidden && s->group[k].morale == RV_STEADY))
			continue;
		struct svg_style box = { NULL, colour(s->group[k].side), 1, SVG_DASHED };
		svg_rect(g, x0 - 12, y0 - 12, x1 - x0 + 24, y1 - y0 + 24, &box);
		char label[RV_ID_LEN + 24];
		snprintf(label, sizeof(label), "%s%s%s", s->group[k].id,
			s->group[k].hidden ? " (hidden)" : "",
			s->group[k].morale == RV_BROKEN ? " broken" :
			s->group[k].morale == RV_SHAKEN ? " shaken" :
							  "");
		svg_label(g, x0 - 12, y0 - 15, 9, label, &txt);
	}
}

static void hit_mark(struct svg *g, int x, int y)
{
	struct svg_style burst = { "#ffd400", "#000000", 1, 0 };
	svg_star(g, x, y, 8, 3, &burst);
}

static void fight_mark(struct svg *g, int x, int y)
{
	struct svg_style ring = { "#ffffff", "#000000", 1, 0 };
	struct svg_style blade = { NULL, "#000000", 2, 0 };
	svg_fight_mark(g, x, y, 8, 5, &ring, &blade);
}

/* The figure whose id is the len bytes at p, or -1. */
static int fig_at(const struct rv_state *s, const char *p, size_t len)
{
	char id[RV_ID_LEN + 1];
	if (len > RV_ID_LEN)
		return -1;
	memcpy(id, p, len);
	id[len] = '\0';
	return rv_figure_find(s, id);
}

/* The figure named after marker in text (up to ':', ' ' or the end), or -1. */
static int fig_after(const struct rv_state *s, const char *text, const char *marker)
{
	const char *p = strstr(text, marker);
	if (!p)
		return -1;
	p += strlen(marker);
	return fig_at(s, p, strcspn(p, ": ,("));
}

/* The turn on the map: every move a viewer saw (from where he saw the figure before to where
 * it stands; bolting horses dashed orange), animals driven, shots and melees. */
static void draw_turn(struct svg *g, const struct rv_state *s, const struct rv_state *before,
	const struct events *ev, int side)
{
	char bolted[RV_MAX_FIGURES / 8 + 1], retreated[RV_MAX_FIGURES / 8 + 1];

	memset(bolted, 0, sizeof(bolted));
	memset(retreated, 0, sizeof(retreated));
	for (size_t i = 0; ev && i < ev->n; i++) {
		const char *t = ev->v[i].text, *p = strstr(t, "'s horse bolts ");
		int f = p ? fig_at(s, t, (size_t)(p - t)) : -1;
		if (f >= 0)
			bolted[f / 8] |= (char)(1 << (f % 8));
		/* "G retreats from F": every figure of group G (of any side: ids are per side). */
		p = strstr(t, " retreats from ");
		for (size_t k = 0; p && k < s->n_group; k++)
			if (strlen(s->group[k].id) == (size_t)(p - t) &&
				strncmp(s->group[k].id, t, (size_t)(p - t)) == 0)
				for (size_t j = rv_first(s, (int)k); j < s->n_fig;
					j = rv_next(s, j))
					retreated[j / 8] |= (char)(1 << (j % 8));
	}
	for (size_t i = 0; before && i < s->n_fig && i < before->n_fig; i++) {
		const struct rv_figure *a = &before->fig[i], *b = &s->fig[i];
		if (strcmp(a->id, b->id) != 0 || a->dead || !seen(before, i, side) ||
			rv_hidden_from(s, (int)i, side) ||
			(a->at.x == b->at.x && a->at.y == b->at.y))
			continue;
		int bolt = (bolted[i / 8] >> (i % 8)) & 1, back = (retreated[i / 8] >> (i % 8)) & 1;
		struct svg_style mv = { NULL, bolt ? "#e67e22" : colour(b->side), 2,
			SVG_ARROW | (bolt || back ? SVG_DASHED : 0) };
		svg_line(g, X(a->at), Y(before, a->at), X(b->at), Y(s, b->at), 8, &mv);
	}
	for (size_t i = 0; before && i < s->n_animal && i < before->n_animal; i++) {
		const struct rv_animal_def *a = &before->animal[i], *b = &s->animal[i];
		if (strcmp(a->id, b->id) != 0 || (a->at.x == b->at.x && a->at.y == b->at.y))
			continue;
		struct svg_style mv = { NULL, "#6e4b2a", 1, SVG_ARROW };
		svg_line(g, X(a->at), Y(before, a->at), X(b->at), Y(s, b->at), 6, &mv);
	}
	for (size_t i = 0; ev && i < ev->n; i++) {
		const char *t = ev->v[i].text, *p;
		int a, b;
		if (ev->v[i].kind != EVENT_EVENT)
			continue;
		if ((p = strstr(t, " fires ")) && (a = fig_at(s, t, (size_t)(p - t))) >= 0 &&
			(b = fig_after(s, p, " at ")) >= 0 && seen(s, (size_t)a, side) &&
			!rv_hidden_from(s, b, side)) {
			struct svg_style sh = { NULL, colour(s->fig[a].side), 1,
				SVG_ARROW | SVG_DASHED };
			size_t n = strlen(t);
			svg_line(g, X(s->fig[a].at), Y(s, s->fig[a].at), X(s->fig[b].at),
				Y(s, s->fig[b].at), 6, &sh);
			if (n < 4 || strcmp(t + n - 4, "miss") != 0)
				hit_mark(g, X(s->fig[b].at) + 8, Y(s, s->fig[b].at) - 8);
		} else if (((b = fig_after(s, t, " charges into contact with ")) >= 0 ||
				   (b = fig_after(s, t, " attack ")) >= 0) &&
			   !rv_hidden_from(s, b, side)) {
			fight_mark(g, X(s->fig[b].at) - 10, Y(s, s->fig[b].at) - 10);
		}
	}
}

static void legend(struct svg *g, const struct rules_campaign *c, const struct rv_state *s)
{
	struct svg_style txt = { "#000000", NULL, 0, 0 };
	int x = M, y = M + s->height + 40;
	static const char *const fill[] = { "#8cc084", "#8ec5e8", "#9c6b4e", "#c9b88a" };
	static const char *const name[] = { "woods", "water", "building", "rough" };

	svg_legend(g, x, y, 12);
	y += 22;
	for (int k = 0; k < 4; k++) {
		struct svg_style sw = { fill[k], "#555555", 1, 0 };
		svg_rect(g, x + k * 70, y - 10, 12, 12, &sw);
		svg_text(g, x + 16 + k * 70, y, 10, name[k], &txt);
	}
	static const char *const lname[] = { "road", "fence", "wall" };
	static const char *const lcol[] = { "#c8a165", "#8b5a2b", "#555555" };
	for (int k = 0; k < 3; k++) {
		struct svg_style ls = { NULL, lcol[k],
			k == 0 ? 8 :
			k == 1 ? 2 :
				 4,
			k == 1 ? SVG_DASHED : 0 };
		svg_line(g, x + 290 + k * 62, y - 4, x + 310 + k * 62, y - 4, 0, &ls);
		svg_text(g, x + 314 + k * 62, y, 10, lname[k], &txt);
	}
	y += 24;
	for (size_t k = 0; k < c->n_players && k < 4; k++) {
		struct rv_figure f;
		memset(&f, 0, sizeof(f));
		f.side = (int)k;
		figure(g, x + 6 + (int)k * 110, y - 4, &f, 0);
		svg_text(g, x + 16 + (int)k * 110, y, 10, c->players[k], &txt);
	}
	y += 24;
	struct rv_figure f;
	memset(&f, 0, sizeof(f));
	f.mounted = 1;
	figure(g, x + 6, y - 4, &f, 0);
	svg_text(g, x + 20, y, 10, "mounted", &txt);
	f.mounted = 0;
	f.role = RV_LEADER;
	figure(g, x + 86, y - 4, &f, 0);
	svg_text(g, x + 96, y, 10, "leader", &txt);
	f.role = RV_FIGURE;
	f.hits = 1;
	figure(g, x + 156, y - 4, &f, 0);
	svg_text(g, x + 166, y, 10, "wounded", &txt);
	f.hits = 0;
	figure(g, x + 236, y - 4, &f, 1);
	svg_text(g, x + 250, y, 10, "stunned", &txt);
	struct svg_style box = { NULL, "#444444", 1, SVG_DASHED };
	svg_rect(g, x + 310, y - 12, 24, 14, &box);
	svg_text(g, x + 340, y, 10, "group", &txt);
	y += 24;
	static const char *const aname[] = { "cattle", "sheep", "loose horse" };
	for (int k = 0; k < 3; k++) {
		struct rv_animal_def a;
		memset(&a, 0, sizeof(a));
		a.kind = (enum rv_animal)k;
		animal(g, x + 6 + k * 80, y - 4, &a);
		svg_text(g, x + 16 + k * 80, y, 10, aname[k], &txt);
	}
	struct svg_style back = { NULL, "#444444", 2, SVG_ARROW | SVG_DASHED };
	svg_line(g, x + 290, y - 4, x + 320, y - 4, 8, &back);
	svg_text(g, x + 324, y, 10, "retreat", &txt);
	y += 24;
	struct svg_style mv = { NULL, "#444444", 2, SVG_ARROW };
	struct svg_style bolt = { NULL, "#e67e22", 2, SVG_ARROW | SVG_DASHED };
	struct svg_style sh = { NULL, "#444444", 1, SVG_ARROW | SVG_DASHED };
	svg_line(g, x, y - 4, x + 30, y - 4, 8, &mv);
	svg_text(g, x + 34, y, 10, "move", &txt);
	svg_line(g, x + 80, y - 4, x + 110, y - 4, 8, &bolt);
	svg_text(g, x + 114, y, 10, "horse bolts", &txt);
	svg_line(g, x + 190, y - 4, x + 220, y - 4, 6, &sh);
	hit_mark(g, x + 228, y - 4);
	svg_text(g, x + 240, y, 10, "shot, hit", &txt);
	fight_mark(g, x + 310, y - 4);
	svg_text(g, x + 322, y, 10, "melee", &txt);
	y += 26;
	svg_scale_bar(g, x, y, 60, 1, 10,
		"6 inches (60 tenths); edges in tenths, as orders give them");
	svg_group_end(g);
}

void rv_map(const struct rules_campaign *c, const void *state, const struct rules_map *m,
	const char *player, struct buf *out)
{
	const struct rv_state *s = state, *before = m->before;
	int side = rv_side_of(c, player);
	struct svg g;
	struct svg_style table = { "#e6edcf", "#333333", 2, 0 };
	struct svg_style mid = { "#333333", NULL, 0, SVG_MIDDLE };
	struct svg_style end = { "#333333", NULL, 0, SVG_END };
	int w = 2 * M + s->width, h = 2 * M + s->height + LEGEND;
	char title[96];

	if (w < 480)
		w = 480;
	if (side >= 0)
		snprintf(title, sizeof(title), "Border Reivers, turn %d, as %s sees it", m->turn,
			c->players[side]);
	else
		snprintf(title, sizeof(title), "Border Reivers, turn %d, public view", m->turn);
	svg_begin(&g, out, w, h, 2 * w, title);
	svg_group(&g, "table");
	static const struct svg_ruler ruler = { TICK, 10, 14, 4, 4 };
	svg_ruled_table(&g, M, M, s->width, s->height, &ruler, &table, &mid, &end);
	for (size_t i = 0; i < s->n_feat; i++)
		if (!s->feat[i].is_line)
			area(&g, s, &s->feat[i]);
	for (size_t i = 0; i < s->n_feat; i++)
		if (s->feat[i].is_line)
			line(&g, s, &s->feat[i]);
	groups(&g, s, side);
	for (size_t i = 0; i < s->n_animal; i++)
		if (!s->animal[i].gone)
			animal(&g, X(s->animal[i].at), Y(s, s->animal[i].at), &s->animal[i]);
	for (size_t i = 0; i < s->n_fig; i++)
		if (seen(s, i, side))
			figure(&g, X(s->fig[i].at), Y(s, s->fig[i].at), &s->fig[i],
				s->fig[i].stunned_until >= m->turn + 1);
	svg_group_end(&g);
	svg_group(&g, "turn");
	draw_turn(&g, s, before, m->events, side);
	svg_group_end(&g);
	legend(&g, c, s);
	svg_end(&g);
}

/* A viewer and the public differ only on rv_hidden_from: a figure of the viewer's side in a
 * hidden group, which he sees and the public does not (a figure's group is of its side). The
 * title aside, that is all rv_map draws differently. */
static int side_hides(const struct rv_state *s, int side)
{
	for (size_t k = 0; s && k < s->n_group; k++)
		if (s->group[k].hidden && s->group[k].side == side)
			return 1;
	return 0;
}

int rv_map_as_public(const struct rules_campaign *c, const void *state, const struct rules_map *m,
	const char *player)
{
	int side = rv_side_of(c, player);

	return !side_hides(state, side) && !side_hides(m->before, side);
}
