/* svg.h — a small writer of SVG maps (the pictures beside each report, docs/formats.md
 * "Maps"): integer coordinates only, every attribute in a fixed order, text escaped for XML,
 * one generic font family and no embedded font, so the same drawing is the same bytes on every
 * machine. Rule systems draw their battlefield through it (rules.h draw_map). */
#ifndef UMPIRE_SVG_H
#define UMPIRE_SVG_H

#include <stddef.h>
#include "core/buf.h"

/* A map is refused past this size (a runaway drawing, not a big battle). */
#define SVG_MAX_BYTES (4 * 1024 * 1024)
/* A map larger than this, drawn plain, is drawn again with runs (struct svg; render_map):
 * a big battle's map in fewer bytes (issue 38), while every map up to it stays the bytes it
 * always was, so a campaign played before runs still verifies. */
#define SVG_RUNS_FROM (1024 * 1024)

/* Flags of svg_style. */
enum svg_flags {
	SVG_DASHED = 1 << 0, /* a dashed stroke */
	SVG_ARROW = 1 << 1,  /* lines and polylines: an arrowhead at the last point */
	SVG_BOLD = 1 << 2,   /* text: bold */
	SVG_MIDDLE = 1 << 3, /* text: anchored at its middle (default: its start) */
	SVG_END = 1 << 4,    /* text: anchored at its end */
};

/* How a shape is painted. Colours are CSS names or "#rrggbb" (program text, never input). */
struct svg_style {
	const char *fill;   /* NULL: "none" */
	const char *stroke; /* NULL: "none" */
	int width;          /* stroke width in user units (ignored without stroke) */
	unsigned flags;     /* enum svg_flags */
};

/* A text's box as svg.c estimates it (user units): x0 <= x < x1, y0 <= y < y1. */
struct svg_box {
	int x0, y0, x1, y1;
};

/* A drawing in progress: the caller's buffer and the user-unit size. With runs on
 * (svg_set_runs), shapes drawn one after another with the same paint (a side's figures, its
 * moves) are written as a run: one <path> of their subpaths (a line each) with the paint, then
 * one of their arrowheads (issue 38: the 9,600-figure map in a third of the bytes); a shape
 * alone is written as its element with its paint, as every shape is with runs off. */
struct svg {
	struct buf *out;    /* appended to (not owned) */
	int w, h;           /* the viewBox 0 0 w h */
	int groups;         /* groups open */
	int runs;           /* runs on (svg_set_runs when svg_begin began it) */
	int run;            /* 0 none; 1 one shape pending (pending, paint); 2 a run's path open */
	struct buf pending; /* the pending shape's element and geometry attributes */
	struct buf paint;   /* the pending shape's or the open run's paint attributes */
	struct buf head;    /* the pending shape's arrowhead's element and points (or empty) */
	struct buf pending_d;  /* runs: the pending shape as a path's subpath */
	struct buf head_d;     /* runs: its arrowhead as a path's subpath (or empty) */
	struct buf heads;      /* the open run's arrowheads' subpaths, written after its path */
	const char *head_fill; /* their fill (program text) */
	struct svg_box *boxes; /* every text's box so far (svg_label keeps clear of them) */
	size_t n_boxes, cap_boxes;
	struct svg_pending *labels; /* svg_label's, placed and written by svg_end */
	size_t n_labels, cap_labels;
	size_t start;        /* out->len where the drawing begins */
	size_t shapes_runs;  /* bytes the shapes wrote (runs on: their runs and elements) */
	size_t shapes_plain; /* bytes they would have written with runs off */
	struct buf scratch;  /* an arrowhead written alone, to count it */
};

/* Runs on (1) or off (0, the default) for the drawings this thread begins from now on
 * (render_map turns them on to draw a map over SVG_RUNS_FROM again). */
void svg_set_runs(int on);
/* The bytes the drawing this thread ended last (svg_end) would have had with runs off (its
 * own length when they were off), when that drawing is all of out from offset from to its
 * end; else SIZE_MAX. Everything but the shapes is the same bytes either way, so a map drawn
 * with runs tells whether it had to be (render_map) without being drawn plain. */
size_t svg_plain_bytes(const struct buf *out, size_t from);
/* Starts a drawing of w x h user units, shown px_w pixels wide (the height follows), with a
 * <title> (escaped) and a white background. Appends to out. */
void svg_begin(struct svg *s, struct buf *out, int w, int h, int px_w, const char *title);
/* Closes the open groups, writes the labels (svg_label) in a group of their own, on top of
 * everything, and closes the drawing; frees what s holds. */
void svg_end(struct svg *s);
/* 1 when the drawings a and b (svg_begin's) are the same but for their <title>s: the same
 * picture under another name (a player's view of an open turn against its public view,
 * docs/formats.md "Shared reports"), else 0. */
int svg_same_but_title(const struct buf *a, const struct buf *b);
/* <g class="cls"> ... </g>: cls is program text ([a-z0-9-]), NULL none. */
void svg_group(struct svg *s, const char *cls);
void svg_group_end(struct svg *s);

void svg_rect(struct svg *s, int x, int y, int w, int h, const struct svg_style *st);
void svg_circle(struct svg *s, int cx, int cy, int r, const struct svg_style *st);
/* A line from (x1, y1) to (x2, y2); SVG_ARROW: an arrowhead of length head at (x2, y2). */
void svg_line(struct svg *s, int x1, int y1, int x2, int y2, int head, const struct svg_style *st);
/* n points xy[2i], xy[2i+1]: a polyline (closed 0; SVG_ARROW: a head of length head at the
 * last point) or a polygon (closed 1). n >= 2. */
void svg_poly(struct svg *s, const int *xy, size_t n, int closed, int head,
	const struct svg_style *st);
/* text (escaped for XML; invalid UTF-8 and control characters as '?') at (x, y), the
 * baseline, size user units high, in the generic sans-serif family. */
void svg_text(struct svg *s, int x, int y, int size, const char *text, const struct svg_style *st);
/* A label that may move, for a unit or a place: kept (text copied; st's strings must outlive
 * s, as program text does) and written by svg_end, after every svg_text, so it keeps clear
 * of all of them (grid names, rulers, legend) and of the labels before it. It goes at the
 * first of these places whose box (svg_text_box) leaves the viewBox by nothing and meets no
 * text's box: (x, y), then 1, -1, 2, -2, ... up to 8 lines of size * 6 / 5 + 1 below and
 * above, each slid left or right into the viewBox when it sticks out. Where none is free,
 * the text is cut to fewer characters and "…" until one is; failing that it goes at (x, y)
 * slid into the viewBox. Integers only, in a fixed order: the same map, the same bytes. */
void svg_label(struct svg *s, int x, int y, int size, const char *text, const struct svg_style *st);
/* The box a text takes (an upper bound of what a browser lays out in DejaVu Sans, the
 * generic sans-serif of Debian: each ASCII character's advance from a table, 1 em for any
 * other; the font's ascent and descent above and below the baseline y), anchored as flags
 * (SVG_MIDDLE, SVG_END, SVG_BOLD) say. */
struct svg_box svg_text_box(int x, int y, int size, const char *text, unsigned flags);
/* A table's edge numbers: every tick units, size units high; along the bottom below units
 * under it, up the left side left units left of it and lift units below each mark. */
struct svg_ruler {
	int tick, size, below, left, lift;
};
/* The rectangle (x, y, w, h) in table, numbered along its bottom from 0 at the left (centred:
 * mid) and up its left side from 0 at the bottom (right-aligned: end), as r says. */
void svg_ruled_table(struct svg *s, int x, int y, int w, int h, const struct svg_ruler *r,
	const struct svg_style *table, const struct svg_style *mid, const struct svg_style *end);
/* Opens a map's legend: <g class="legend"> and its bold title "Legend", size units high, at
 * (x, y), the baseline. svg_group_end closes it. */
void svg_legend(struct svg *s, int x, int y, int size);
/* A scale bar len units long, 4 thick, its top 6 above the baseline y; with ticks, a 2-unit
 * wide 12-unit tick at each end; then text, size units high, 6 to its right on y. Black. */
void svg_scale_bar(struct svg *s, int x, int y, int len, int ticks, int size, const char *text);
/* A melee mark: a circle of radius r drawn in ring, crossed by two diagonal strokes in
 * blade from (x - arm, y - arm) to (x + arm, y + arm) and from (x + arm, y - arm) to
 * (x - arm, y + arm). */
void svg_fight_mark(struct svg *s, int x, int y, int r, int arm, const struct svg_style *ring,
	const struct svg_style *blade);
/* A closed eight-pointed star about (x, y): points outer away along the axes, inner away
 * along the diagonals, starting from the top and going clockwise. */
void svg_star(struct svg *s, int x, int y, int outer, int inner, const struct svg_style *st);
/* A legend's swatches: n 16-unit squares (fill[k], stroke of width 1) with name[k] in 12-unit
 * text beside each, cols a row, dx apart, rows 22 apart, the first square's top at y + 10. */
void svg_swatches(struct svg *s, int x, int y, int n, int cols, int dx, const char *const *fill,
	const char *stroke, const char *const *name, const struct svg_style *txt);

/* Appends text escaped for XML character data and attribute values (&, <, >, ", ' as
 * entities; control characters and invalid UTF-8 as '?'). */
void svg_escape(struct buf *out, const char *text);
/* floor(sqrt(n)) for the lengths arrowheads need. */
unsigned long long svg_isqrt(unsigned long long n);

#endif
