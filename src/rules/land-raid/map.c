/* map.c — the Land Raid table as an SVG map (rules.h draw_map): the grid of squares coloured
 * by kind, each side's bases by role, casualty and plunder markers, and the turn on it (moves,
 * fall-backs, assaults, shots with their hits) read from the turn's events. Nothing on the
 * table is hidden (standing orders are, and are never drawn), so every view is the same. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/land-raid/landraid.h"
#include "core/banned.h"

#define CELL 120   /* a square, in map units (pixels at 1:1) */
#define LEFT 40    /* room for the row numbers */
#define TOP 40     /* room for the column letters */
#define LEGEND 150 /* the legend's height below the grid */

static const char *const side_colour[LR_SIDES] = { "#c0392b", "#1f4e9c" };
static const char *const kind_colour[LR_KINDS] = { "#f3eddc", "#bcd9ea", "#d9b38c", "#e8a552",
	"#b4b4b4", "#c9a6d6" };

/* The square named at p (letters and digits up to the next other character), or -1. */
static int square_at(const struct landraid_state *s, const char *p)
{
	char name[8];
	size_t n = 0;

	if (!p)
		return -1;
	while (n < sizeof(name) - 1 &&
		((p[n] >= 'A' && p[n] <= 'Z') || (p[n] >= '0' && p[n] <= '9')))
		name[n] = p[n], n++;
	name[n] = '\0';
	return n ? landraid_square(s, name) : -1;
}

/* The square after the first occurrence of marker in text, or -1. */
static int square_after(const struct landraid_state *s, const char *text, const char *marker)
{
	const char *p = strstr(text, marker);
	return p ? square_at(s, p + strlen(marker)) : -1;
}

static int cx(const struct landraid_state *s, int sq)
{
	return LEFT + landraid_col(s, sq) * CELL + CELL / 2;
}

static int cy(const struct landraid_state *s, int sq)
{
	return TOP + landraid_row(s, sq) * CELL + CELL / 2;
}

/* The side of the live base called id in s or before, or -1. */
static int side_of(const struct landraid_state *s, const struct landraid_state *before,
	const char *id, size_t len)
{
	char name[64];
	snprintf(name, sizeof(name), "%.*s", (int)(len < 63 ? len : 63), id);
	const struct landraid_base *b = landraid_base_find(s, name);
	if (!b && before)
		b = landraid_base_find(before, name);
	return b ? b->side : -1;
}

/* One base at (x, y): troops a circle, officers a square, the commander a square with a
 * white centre, loot carriers a circle with a white centre. */
static void base_mark(struct svg *g, int x, int y, int side, int role)
{
	struct svg_style st = { side_colour[side], "#000000", 1, 0 };
	struct svg_style white = { "#ffffff", NULL, 0, 0 };
	if (role == LR_OFFICER || role == LR_COMMANDER)
		svg_rect(g, x - 9, y - 9, 18, 18, &st);
	else
		svg_circle(g, x, y, 9, &st);
	if (role == LR_COMMANDER || role == LR_LOOT_CARRIER)
		svg_circle(g, x, y, 3, &white);
}

static void draw_square(struct svg *g, const struct landraid_state *s, int sq)
{
	int x = LEFT + landraid_col(s, sq) * CELL, y = TOP + landraid_row(s, sq) * CELL;
	struct svg_style cell = { kind_colour[s->kind[sq]], "#555555", 2, 0 };
	struct svg_style grey = { "#555555", NULL, 0, 0 };
	struct svg_style right = { "#555555", NULL, 0, SVG_END };
	struct svg_style mark = { "#000000", NULL, 0, SVG_BOLD };
	char t[32];

	svg_rect(g, x, y, CELL, CELL, &cell);
	svg_text(g, x + 4, y + 15, 13, s->name[sq], &grey);
	svg_label(g, x + CELL - 4, y + 15, 11, landraid_kind_names[s->kind[sq]], &right);
	for (int side = 0; side < LR_SIDES; side++) {
		struct landraid_base *v[LR_MAX_BASES < 40 ? LR_MAX_BASES : 40];
		size_t n = landraid_bases_in(s, sq, side, LR_ALL_ROLES, v, 40);
		for (size_t i = 0; i < n && i < 15; i++)
			base_mark(g, x + 14 + (int)(i % 5) * 22,
				y + 32 + side * 44 + (int)(i / 5) * 20, side, v[i]->role);
		if (n > 15) {
			snprintf(t, sizeof(t), "+%zu", n - 15);
			svg_label(g, x + CELL - 4, y + 60 + side * 44, 11, t, &right);
		}
	}
	int k = 0;
	for (int side = 0; side < LR_SIDES; side++)
		if (s->cas[side][sq]) {
			snprintf(t, sizeof(t), "x%c:%d", side ? 'D' : 'A', s->cas[side][sq]);
			svg_text(g, x + 4 + 38 * k++, y + CELL - 5, 12, t, &mark);
		}
	if (s->plunder[sq]) {
		snprintf(t, sizeof(t), "P:%d", s->plunder[sq]);
		svg_text(g, x + CELL - 4, y + CELL - 5, 12, t, &right);
	}
}

/* Hits as small black-ringed yellow dots beside (x, y). */
static void hit_marks(struct svg *g, int x, int y, int hits)
{
	struct svg_style burst = { "#ffd400", "#000000", 1, 0 };
	for (int i = 0; i < hits && i < 6; i++)
		svg_circle(g, x + 8 + 9 * i, y - 8, 4, &burst);
}

static void fight_mark(struct svg *g, int x, int y)
{
	struct svg_style ring = { "#ffd400", "#000000", 2, 0 };
	struct svg_style blade = { NULL, "#000000", 3, 0 };
	svg_fight_mark(g, x, y, 13, 8, &ring, &blade);
}

/* The turn's events on the map, in order: every move, fall-back, assault and shot. */
static void draw_turn(struct svg *g, const struct landraid_state *s,
	const struct landraid_state *before, const struct events *ev)
{
	int acting = -1, last_target = -1, last_side = -1;

	for (size_t i = 0; ev && i < ev->n; i++) {
		const struct event *e = &ev->v[i];
		const char *t = e->text, *p;
		int from, to, side;
		if (e->kind != EVENT_EVENT)
			continue;
		if ((p = strstr(t, ") at ")) && strstr(t, " acts: ")) {
			acting = square_at(s, p + 5);
			last_side = side_of(s, before, t, strcspn(t, " "));
		} else if ((p = strstr(t, " moves from ")) && (from = square_at(s, p + 12)) >= 0 &&
			   (to = square_after(s, p + 12, " to ")) >= 0) {
			side = side_of(s, before, t, (size_t)(p - t));
			struct svg_style mv = { NULL, side_colour[side < 0 ? 0 : side], 4,
				SVG_ARROW };
			int off = side == LR_DEFENDER ? 10 : -10;
			svg_line(g, cx(s, from) + off, cy(s, from) + off, cx(s, to) + off,
				cy(s, to) + off, 18, &mv);
		} else if ((p = strstr(t, " falls back from ")) &&
			   (from = square_at(s, p + 17)) >= 0 &&
			   (to = square_after(s, p + 17, " to ")) >= 0) {
			side = strncmp(t, "the defender", 12) == 0 ? LR_DEFENDER : LR_ATTACKER;
			struct svg_style fb = { NULL, side_colour[side], 3,
				SVG_ARROW | SVG_DASHED };
			svg_line(g, cx(s, from), cy(s, from) + 20, cx(s, to), cy(s, to) + 20, 16,
				&fb);
		} else if ((p = strstr(t, " assaults ")) && (to = square_at(s, p + 10)) >= 0 &&
			   (from = square_after(s, p + 10, " from ")) >= 0) {
			side = side_of(s, before, t, (size_t)(p - t));
			struct svg_style as = { NULL, side_colour[side < 0 ? 0 : side], 6,
				SVG_ARROW | SVG_DASHED };
			svg_line(g, cx(s, from), cy(s, from) - 20, cx(s, to), cy(s, to) - 20, 22,
				&as);
			fight_mark(g, cx(s, to) + 30, cy(s, to) - 20);
		} else if ((p = strstr(t, " shooting ")) &&
			   (to = square_after(s, p, " at ")) >= 0) {
			int response = strstr(t, " response (") != NULL;
			from = response ? last_target : acting;
			side = response ? 1 - (last_side < 0 ? 0 : last_side) : last_side;
			if (response && strstr(t, "(on move)"))
				from = -1;
			const char *h = strstr(p, ": ");
			int hits = h ? (int)strtol(h + 2, NULL, 10) : 0;
			struct svg_style sh = { NULL, "#222222", 2, SVG_ARROW | SVG_DASHED };
			/* A response runs back along the shot it answers: set apart from it. */
			int off = response ? 12 : 0;
			if (from >= 0 && from != to)
				svg_line(g, cx(s, from) + 20 + off, cy(s, from) + off,
					cx(s, to) + 20 + off, cy(s, to) + off, 14, &sh);
			hit_marks(g, cx(s, to) + 14, cy(s, to) + (response ? 40 : 10), hits);
			if (!response)
				last_target = to;
			(void)side;
		}
	}
}

static void legend(struct svg *g, int y)
{
	struct svg_style txt = { "#000000", NULL, 0, 0 };
	int x = LEFT;

	svg_legend(g, x, y, 14);
	svg_swatches(g, x, y, LR_KINDS, 3, 150, kind_colour, "#555555", landraid_kind_names, &txt);
	y += 60;
	static const char *const role_text[] = { "troops", "officer", "commander", "loot carrier" };
	for (int side = 0; side < LR_SIDES; side++) {
		svg_text(g, x, y + 14 + side * 22, 12, landraid_side_names[side], &txt);
		for (int r = 0; r < 4; r++) {
			base_mark(g, x + 80 + r * 95, y + 10 + side * 22, side, r);
			if (side == 0)
				svg_text(g, x + 92 + r * 95, y + 14, 11, role_text[r], &txt);
		}
	}
	int lx = LEFT + 490;
	struct svg_style mv = { NULL, "#444444", 4, SVG_ARROW };
	struct svg_style fb = { NULL, "#444444", 3, SVG_ARROW | SVG_DASHED };
	struct svg_style sh = { NULL, "#222222", 2, SVG_ARROW | SVG_DASHED };
	y -= 60;
	svg_line(g, lx, y + 16, lx + 40, y + 16, 14, &mv);
	svg_text(g, lx + 48, y + 20, 12, "move", &txt);
	svg_line(g, lx, y + 38, lx + 40, y + 38, 14, &fb);
	svg_text(g, lx + 48, y + 42, 12, "falls back / assault", &txt);
	svg_line(g, lx, y + 60, lx + 40, y + 60, 14, &sh);
	hit_marks(g, lx + 40, y + 68, 2);
	svg_text(g, lx + 80, y + 64, 12, "shot, hits", &txt);
	fight_mark(g, lx + 14, y + 86);
	svg_text(g, lx + 48, y + 90, 12, "fight", &txt);
	svg_text(g, lx, y + 112, 12, "xA:2 casualty markers, P:1 plunder", &txt);
	/* The scale: one square, as the sheet measures (face, corner, within 3). */
	svg_scale_bar(g, LEFT, y + 134, CELL, 0, 12, "1 square");
	svg_group_end(g);
}

void landraid_draw_map(const struct landraid_state *s, const struct landraid_state *before,
	const struct rules_map *m, struct buf *out)
{
	struct svg g;
	struct svg_style mid = { "#000000", NULL, 0, SVG_MIDDLE | SVG_BOLD };
	int w = LEFT + s->cols * CELL + 20, h = TOP + s->rows * CELL + 20 + LEGEND;
	char title[64], label[16];

	if (w < LEFT + 720)
		w = LEFT + 720;
	snprintf(title, sizeof(title), "Land Raid, turn %d", m->turn);
	svg_begin(&g, out, w, h, w, title);
	svg_group(&g, "table");
	for (int col = 0; col < s->cols; col++) {
		snprintf(label, sizeof(label), "%c", 'A' + col);
		svg_text(&g, LEFT + col * CELL + CELL / 2, TOP - 12, 16, label, &mid);
	}
	for (int row = 0; row < s->rows; row++) {
		snprintf(label, sizeof(label), "%d", row + 1);
		svg_text(&g, LEFT / 2, TOP + row * CELL + CELL / 2 + 6, 16, label, &mid);
	}
	for (int sq = 0; sq < s->n_squares; sq++)
		draw_square(&g, s, sq);
	svg_group_end(&g);
	svg_group(&g, "turn");
	draw_turn(&g, s, before, m->events);
	svg_group_end(&g);
	legend(&g, TOP + s->rows * CELL + 30);
	svg_end(&g);
}
