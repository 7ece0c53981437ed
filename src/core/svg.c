/* svg.c — the SVG writer of the maps: each element written with its attributes in one fixed
 * order, integer coordinates only, text escaped for XML. No floating point: arrowheads are
 * placed with an integer square root, so every machine writes the same bytes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/escape.h"
#include "core/svg.h"
#include "core/banned.h"

static void put_int(struct buf *b, long long v)
{
	buf_put_int(b, v);
}

/* ` name="v"` */
static void attr_int(struct buf *b, const char *name, long long v)
{
	buf_puts(b, " ");
	buf_puts(b, name);
	buf_puts(b, "=\"");
	put_int(b, v);
	buf_puts(b, "\"");
}

static void attr_str(struct buf *b, const char *name, const char *v)
{
	buf_puts(b, " ");
	buf_puts(b, name);
	buf_puts(b, "=\"");
	svg_escape(b, v);
	buf_puts(b, "\"");
}

/* fill, stroke, stroke-width, stroke-dasharray: always in this order (then the caller's
 * stroke-linejoin). */
static void paint(struct buf *b, const struct svg_style *st, int fill_ok)
{
	attr_str(b, "fill", fill_ok && st && st->fill ? st->fill : "none");
	if (st && st->stroke) {
		attr_str(b, "stroke", st->stroke);
		attr_int(b, "stroke-width", st->width > 0 ? st->width : 1);
		if (st->flags & SVG_DASHED)
			attr_str(b, "stroke-dasharray",
				st->width > 1 ? (st->width > 4 ? "16 10" : "8 5") : "4 3");
	}
}

unsigned long long svg_isqrt(unsigned long long n)
{
	unsigned long long r = 0, bit = 1ULL << 62;

	while (bit > n)
		bit >>= 2;
	while (bit) {
		if (n >= r + bit) {
			n -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return r;
}

/* ` v` (a path's number after another) */
static void put_num(struct buf *b, long long v)
{
	buf_puts(b, " ");
	put_int(b, v);
}

/* A filled triangle of length head pointing from (x1, y1) to its tip (x2, y2): its geometry
 * appended to b (its fill is the caller's) and, d not NULL, the same as a path's subpath to d
 * (tip, then the base's corners relative, the same turning as every arrowhead: runs, below).
 * 1 written, 0 none (no length, no colour). */
static int arrowhead(struct buf *b, struct buf *d, int x1, int y1, int x2, int y2, int head,
	const char *col)
{
	long long dx = (long long)x2 - x1, dy = (long long)y2 - y1;
	long long len = (long long)svg_isqrt((unsigned long long)(dx * dx + dy * dy));

	if (len == 0 || head <= 0 || !col)
		return 0;
	/* base centre head back along the line; half-width head/2 across it */
	long long bx = x2 - dx * head / len, by = y2 - dy * head / len;
	long long px = -dy * head / (2 * len), py = dx * head / (2 * len);
	buf_puts(b, "<polygon points=\"");
	put_int(b, x2);
	buf_puts(b, ",");
	put_int(b, y2);
	buf_puts(b, " ");
	put_int(b, bx + px);
	buf_puts(b, ",");
	put_int(b, by + py);
	buf_puts(b, " ");
	put_int(b, bx - px);
	buf_puts(b, ",");
	put_int(b, by - py);
	buf_puts(b, "\"");
	if (d) {
		buf_puts(d, "M");
		put_int(d, x2);
		put_num(d, y2);
		buf_puts(d, "l");
		put_int(d, bx + px - x2);
		put_num(d, by + py - y2);
		put_num(d, -2 * px);
		put_num(d, -2 * py);
		buf_puts(d, "z");
	}
	return 1;
}

/* An arrowhead (element and points in geom) filled with fill; in a run, with no stroke (the
 * run's is not its own). */
static void put_head(struct buf *b, const struct buf *geom, const char *fill, int in_run)
{
	if (!geom->len)
		return;
	buf_append(b, geom->data, geom->len);
	attr_str(b, "fill", fill);
	buf_puts(b, in_run ? " stroke=\"none\"/>\n" : "/>\n");
}

/* Writes what is pending: a shape alone with its paint (then its arrowhead), or the end of the
 * open run: its path's paint, then its arrowheads' path. Everything that is not a shape calls
 * it first. */
static void flush(struct svg *s)
{
	struct buf *b = s->out;
	size_t at = b->len;

	if (s->run == 1) {
		buf_append(b, s->pending.data, s->pending.len);
		buf_append(b, s->paint.data, s->paint.len);
		buf_puts(b, "/>\n");
		put_head(b, &s->head, s->head_fill, 0);
	} else if (s->run == 2) {
		buf_puts(b, "\"");
		buf_append(b, s->paint.data, s->paint.len);
		buf_puts(b, "/>\n");
		if (s->heads.len) {
			buf_puts(b, "<path d=\"");
			buf_append(b, s->heads.data, s->heads.len);
			buf_puts(b, "\"");
			attr_str(b, "fill", s->head_fill);
			buf_puts(b, " stroke=\"none\"/>\n");
		}
	}
	s->run = 0;
	s->shapes_runs += b->len - at;
}

/* Runs on for the drawings this thread begins (svg_set_runs): per thread, as verify renders
 * turns on several. */
static _Thread_local int runs_on;
/* The drawing this thread ended last (svg_end): where it was written (its buffer, the span
 * from..to) and the bytes it would have had with runs off. */
static _Thread_local struct {
	const struct buf *out;
	size_t from, to, plain;
} last;

void svg_set_runs(int on)
{
	runs_on = on != 0;
}

size_t svg_plain_bytes(const struct buf *out, size_t from)
{
	return last.out == out && last.from == from && last.to == out->len ? last.plain : SIZE_MAX;
}

/* A shape: geom its element and geometry attributes, paint its paint attributes, head an
 * arrowhead's element and points (empty: none) filled with head_fill; d and head_d the same
 * two as a path's subpaths (runs on only). Runs on, after a shape of the same paint, both go in
 * one run: one <path> of every shape's subpath with the paint, then one of their arrowheads;
 * runs off, it is written now with its paint. */
static void shape(struct svg *s, const struct buf *geom, const struct buf *d,
	const struct buf *paint, const struct buf *head, const struct buf *head_d,
	const char *head_fill)
{
	struct buf *b = s->out;
	size_t at = b->len;
	int same = s->run && s->paint.len == paint->len &&
		   memcmp(s->paint.data, paint->data, paint->len) == 0;

	if (!s->runs) {
		buf_append(b, geom->data, geom->len);
		buf_append(b, paint->data, paint->len);
		buf_puts(b, "/>\n");
		put_head(b, head, head_fill, 0);
		return;
	}
	/* What it would have written with runs off, for svg_plain_bytes. */
	s->shapes_plain += geom->len + paint->len + strlen("/>\n");
	if (head->len) {
		buf_clear(&s->scratch);
		put_head(&s->scratch, head, head_fill, 0);
		s->shapes_plain += s->scratch.len;
	}
	if (same && s->run == 1) {
		buf_puts(b, "<path d=\"");
		buf_append(b, s->pending_d.data, s->pending_d.len);
		buf_clear(&s->heads);
		buf_append(&s->heads, s->head_d.data, s->head_d.len);
		s->run = 2;
	}
	if (same) { /* a subpath a line, as a shape an element: maps diff line by line */
		buf_puts(b, "\n");
		buf_append(b, d->data, d->len);
		if (s->heads.len && head_d->len)
			buf_puts(&s->heads, "\n");
		buf_append(&s->heads, head_d->data, head_d->len);
		if (!s->head_fill)
			s->head_fill = head_fill;
		s->shapes_runs += b->len - at;
		return;
	}
	flush(s);
	buf_clear(&s->pending);
	buf_clear(&s->pending_d);
	buf_clear(&s->paint);
	buf_clear(&s->head);
	buf_clear(&s->head_d);
	buf_append(&s->pending, geom->data, geom->len);
	buf_append(&s->pending_d, d->data, d->len);
	buf_append(&s->paint, paint->data, paint->len);
	buf_append(&s->head, head->data, head->len);
	buf_append(&s->head_d, head_d->data, head_d->len);
	s->head_fill = head->len ? head_fill : NULL;
	s->run = 1;
}

void svg_begin(struct svg *s, struct buf *out, int w, int h, int px_w, const char *title)
{
	s->out = out;
	s->w = w > 0 ? w : 1;
	s->h = h > 0 ? h : 1;
	s->groups = 0;
	s->boxes = NULL;
	s->n_boxes = s->cap_boxes = 0;
	s->labels = NULL;
	s->n_labels = s->cap_labels = 0;
	s->runs = runs_on;
	s->run = 0;
	s->pending = (struct buf)BUF_INIT;
	s->paint = (struct buf)BUF_INIT;
	s->head = (struct buf)BUF_INIT;
	s->pending_d = (struct buf)BUF_INIT;
	s->head_d = (struct buf)BUF_INIT;
	s->heads = (struct buf)BUF_INIT;
	s->head_fill = NULL;
	s->scratch = (struct buf)BUF_INIT;
	s->start = out->len;
	s->shapes_runs = s->shapes_plain = 0;
	buf_puts(out, "<svg xmlns=\"http://www.w3.org/2000/svg\"");
	attr_int(out, "width", px_w);
	attr_int(out, "height", (long long)px_w * s->h / s->w);
	buf_puts(out, " viewBox=\"0 0 ");
	put_int(out, s->w);
	buf_puts(out, " ");
	put_int(out, s->h);
	buf_puts(out, "\" font-family=\"sans-serif\">\n<title>");
	svg_escape(out, title ? title : "");
	buf_puts(out, "</title>\n");
	struct svg_style bg = { "#ffffff", NULL, 0, 0 };
	svg_rect(s, 0, 0, s->w, s->h, &bg);
}

/* The offsets of a drawing's <title>: where it opens and past where it closes (0 when there is
 * none: the whole drawing is compared). */
static void title_span(const struct buf *d, size_t *from, size_t *to)
{
	const char *s = d->data ? d->data : "";
	const char *open = strstr(s, "<title>");
	const char *close = open ? strstr(open, "</title>\n") : NULL;

	*from = *to = 0;
	if (open && close) {
		*from = (size_t)(open - s);
		*to = (size_t)(close - s) + strlen("</title>\n");
	}
}

int svg_same_but_title(const struct buf *a, const struct buf *b)
{
	size_t af, at, bf, bt;

	if (!a->data || !b->data)
		return a->len == b->len && a->len == 0;
	title_span(a, &af, &at);
	title_span(b, &bf, &bt);
	return af == bf && a->len - at == b->len - bt && memcmp(a->data, b->data, af) == 0 &&
	       memcmp(a->data + at, b->data + bt, a->len - at) == 0;
}

/* A label svg_label keeps for svg_end. */
struct svg_pending {
	int x, y, size;
	char *text;
	struct svg_style st;
};

static void place_label(struct svg *s, const struct svg_pending *l);

void svg_end(struct svg *s)
{
	flush(s);
	while (s->groups > 0)
		svg_group_end(s);
	if (s->n_labels) {
		svg_group(s, "labels");
		for (size_t i = 0; i < s->n_labels; i++)
			place_label(s, &s->labels[i]);
		svg_group_end(s);
	}
	buf_puts(s->out, "</svg>\n");
	last.out = s->out;
	last.from = s->start;
	last.to = s->out->len;
	last.plain = s->out->len - s->start - s->shapes_runs + s->shapes_plain;
	for (size_t i = 0; i < s->n_labels; i++)
		free(s->labels[i].text);
	free(s->labels);
	free(s->boxes);
	buf_release(&s->pending);
	buf_release(&s->paint);
	buf_release(&s->head);
	buf_release(&s->pending_d);
	buf_release(&s->head_d);
	buf_release(&s->heads);
	buf_release(&s->scratch);
	s->labels = NULL;
	s->boxes = NULL;
	s->n_boxes = s->cap_boxes = s->n_labels = s->cap_labels = 0;
}

void svg_group(struct svg *s, const char *cls)
{
	flush(s);
	buf_puts(s->out, "<g");
	if (cls)
		attr_str(s->out, "class", cls);
	buf_puts(s->out, ">\n");
	s->groups++;
}

void svg_group_end(struct svg *s)
{
	flush(s);
	if (s->groups <= 0)
		return;
	buf_puts(s->out, "</g>\n");
	s->groups--;
}

void svg_rect(struct svg *s, int x, int y, int w, int h, const struct svg_style *st)
{
	struct buf g = BUF_INIT, d = BUF_INIT, p = BUF_INIT, none = BUF_INIT;

	buf_puts(&g, "<rect");
	attr_int(&g, "x", x);
	attr_int(&g, "y", y);
	attr_int(&g, "width", w);
	attr_int(&g, "height", h);
	if (s->runs) { /* clockwise on the page, as every closed subpath of a run */
		buf_puts(&d, "M");
		put_int(&d, x);
		put_num(&d, y);
		buf_puts(&d, "h");
		put_int(&d, w);
		buf_puts(&d, "v");
		put_int(&d, h);
		buf_puts(&d, "h");
		put_int(&d, -(long long)w);
		buf_puts(&d, "z");
	}
	paint(&p, st, 1);
	shape(s, &g, &d, &p, &none, &none, NULL);
	buf_release(&g);
	buf_release(&d);
	buf_release(&p);
}

void svg_circle(struct svg *s, int cx, int cy, int r, const struct svg_style *st)
{
	struct buf g = BUF_INIT, d = BUF_INIT, p = BUF_INIT, none = BUF_INIT;

	buf_puts(&g, "<circle");
	attr_int(&g, "cx", cx);
	attr_int(&g, "cy", cy);
	attr_int(&g, "r", r);
	if (s->runs) { /* two half-circle arcs, clockwise on the page */
		buf_puts(&d, "M");
		put_int(&d, (long long)cx - r);
		put_num(&d, cy);
		for (int k = 0; k < 2; k++) {
			buf_puts(&d, "a");
			put_int(&d, r);
			put_num(&d, r);
			buf_puts(&d, " 0 1 1");
			put_num(&d, k ? -2LL * r : 2LL * r);
			buf_puts(&d, " 0");
		}
		buf_puts(&d, "z");
	}
	paint(&p, st, 1);
	shape(s, &g, &d, &p, &none, &none, NULL);
	buf_release(&g);
	buf_release(&d);
	buf_release(&p);
}

void svg_ruled_table(struct svg *s, int x, int y, int w, int h, const struct svg_ruler *r,
	const struct svg_style *table, const struct svg_style *mid, const struct svg_style *end)
{
	char t[16];

	svg_rect(s, x, y, w, h, table);
	for (int i = 0; i <= w; i += r->tick) {
		snprintf(t, sizeof(t), "%d", i);
		svg_text(s, x + i, y + h + r->below, r->size, t, mid);
	}
	for (int j = 0; j <= h; j += r->tick) {
		snprintf(t, sizeof(t), "%d", j);
		svg_text(s, x - r->left, y + h - j + r->lift, r->size, t, end);
	}
}

void svg_legend(struct svg *s, int x, int y, int size)
{
	struct svg_style bold = { "#000000", NULL, 0, SVG_BOLD };

	svg_group(s, "legend");
	svg_text(s, x, y, size, "Legend", &bold);
}

void svg_scale_bar(struct svg *s, int x, int y, int len, int ticks, int size, const char *text)
{
	struct svg_style bar = { "#000000", NULL, 0, 0 };

	svg_rect(s, x, y - 6, len, 4, &bar);
	if (ticks) {
		svg_rect(s, x, y - 10, 2, 12, &bar);
		svg_rect(s, x + len - 2, y - 10, 2, 12, &bar);
	}
	svg_text(s, x + len + 6, y, size, text, &bar);
}

void svg_fight_mark(struct svg *s, int x, int y, int r, int arm, const struct svg_style *ring,
	const struct svg_style *blade)
{
	svg_circle(s, x, y, r, ring);
	svg_line(s, x - arm, y - arm, x + arm, y + arm, 0, blade);
	svg_line(s, x + arm, y - arm, x - arm, y + arm, 0, blade);
}

void svg_star(struct svg *s, int x, int y, int outer, int inner, const struct svg_style *st)
{
	int xy[16] = { x, y - outer, x + inner, y - inner, x + outer, y, x + inner, y + inner, x,
		y + outer, x - inner, y + inner, x - outer, y, x - inner, y - inner };
	svg_poly(s, xy, 8, 1, 0, st);
}

void svg_swatches(struct svg *s, int x, int y, int n, int cols, int dx, const char *const *fill,
	const char *stroke, const char *const *name, const struct svg_style *txt)
{
	for (int k = 0; k < n; k++) {
		struct svg_style sw = { fill[k], stroke, 1, 0 };
		svg_rect(s, x + (k % cols) * dx, y + 10 + (k / cols) * 22, 16, 16, &sw);
		svg_text(s, x + 20 + (k % cols) * dx, y + 23 + (k / cols) * 22, 12, name[k], txt);
	}
}

void svg_line(struct svg *s, int x1, int y1, int x2, int y2, int head, const struct svg_style *st)
{
	int xy[4] = { x1, y1, x2, y2 };
	svg_poly(s, xy, 2, 0, head, st);
}

/* n points xy as a path's subpath appended to d: the first absolute, each next relative to the
 * one before; closed, "z" and the points in the order that turns clockwise on the page (the
 * shoelace sum positive, y down), as every closed subpath of a run turns, so that the run's
 * fills (nonzero) are the union of its shapes'. */
static void poly_path(struct buf *d, const int *xy, size_t n, int closed)
{
	long long twice = 0;
	int rev;

	for (size_t i = 0; closed && i < n; i++) {
		size_t j = (i + 1) % n;
		twice += (long long)xy[2 * i] * xy[2 * j + 1] -
			 (long long)xy[2 * j] * xy[2 * i + 1];
	}
	rev = twice < 0;
	buf_puts(d, "M");
	put_int(d, xy[rev ? 2 * (n - 1) : 0]);
	put_num(d, xy[rev ? 2 * (n - 1) + 1 : 1]);
	for (size_t k = 1; k < n; k++) {
		size_t i = rev ? n - 1 - k : k, prev = rev ? i + 1 : i - 1;
		buf_puts(d, k == 1 ? "l" : " ");
		put_int(d, (long long)xy[2 * i] - xy[2 * prev]);
		put_num(d, (long long)xy[2 * i + 1] - xy[2 * prev + 1]);
	}
	if (closed)
		buf_puts(d, "z");
}

void svg_poly(struct svg *s, const int *xy, size_t n, int closed, int head,
	const struct svg_style *st)
{
	struct buf g = BUF_INIT, d = BUF_INIT, p = BUF_INIT, h = BUF_INIT, hd = BUF_INIT;

	if (n < 2)
		return;
	buf_puts(&g, closed ? "<polygon points=\"" : "<polyline points=\"");
	for (size_t i = 0; i < n; i++) {
		if (i)
			buf_puts(&g, " ");
		put_int(&g, xy[2 * i]);
		buf_puts(&g, ",");
		put_int(&g, xy[2 * i + 1]);
	}
	buf_puts(&g, "\"");
	if (s->runs)
		poly_path(&d, xy, n, closed);
	paint(&p, st, closed);
	if (!closed)
		buf_puts(&p, " stroke-linejoin=\"round\"");
	if (!closed && st && (st->flags & SVG_ARROW))
		arrowhead(&h, s->runs ? &hd : NULL, xy[2 * n - 4], xy[2 * n - 3], xy[2 * n - 2],
			xy[2 * n - 1], head, st->stroke);
	shape(s, &g, &d, &p, &h, &hd, st ? st->stroke : NULL);
	buf_release(&g);
	buf_release(&d);
	buf_release(&p);
	buf_release(&h);
	buf_release(&hd);
}

/* Advances of DejaVu Sans Book, ' ' to '~', in thousandths of an em, rounded up (measured
 * in Chromium: getComputedTextLength at font-size 1000). */
static const unsigned short advance[95] = {
	318,
	401,
	460,
	838,
	637,
	951,
	780,
	275,
	391,
	391,
	500,
	838,
	318,
	361,
	318,
	337,
	637,
	637,
	637,
	637,
	637,
	637,
	637,
	637,
	637,
	637,
	337,
	337,
	838,
	838,
	838,
	531,
	1000,
	685,
	687,
	699,
	771,
	632,
	576,
	775,
	752,
	295,
	295,
	656,
	558,
	863,
	749,
	788,
	604,
	788,
	695,
	635,
	611,
	732,
	685,
	989,
	686,
	611,
	686,
	391,
	337,
	391,
	838,
	500,
	500,
	613,
	635,
	533,
	635,
	567,
	353,
	635,
	634,
	278,
	278,
	580,
	278,
	975,
	634,
	551,
	635,
	635,
	385,
	521,
	393,
	634,
	592,
	818,
	592,
	592,
	525,
	637,
	337,
	637,
	838,
};

struct svg_box svg_text_box(int x, int y, int size, const char *text, unsigned flags)
{
	long long w = 0;
	struct svg_box b;

	for (const unsigned char *p = (const unsigned char *)(text ? text : ""); *p; p++)
		if (*p >= 0x20 && *p < 0x7f)
			w += advance[*p - 0x20];
		else if ((*p & 0xc0) != 0x80)
			w += 1000;
	if (flags & SVG_BOLD)
		w = w * 6 / 5; /* DejaVu Sans Bold is at most a fifth wider */
	w = (w * size + 999) / 1000 + 1;
	b.x0 = flags & SVG_MIDDLE ? x - (int)((w + 1) / 2) : flags & SVG_END ? x - (int)w : x;
	b.x1 = b.x0 + (int)w;
	b.y0 = y - (size * 93 + 99) / 100; /* ascent 0.928 em */
	b.y1 = y + (size * 24 + 99) / 100; /* descent 0.236 em */
	return b;
}

static void keep_box(struct svg *s, struct svg_box b)
{
	if (s->n_boxes == s->cap_boxes) {
		s->cap_boxes = s->cap_boxes ? 2 * s->cap_boxes : 64;
		s->boxes = xrealloc(s->boxes, s->cap_boxes * sizeof(*s->boxes));
	}
	s->boxes[s->n_boxes++] = b;
}

/* A text's right end keeps this far from the viewBox's right edge: the width svg_text_box
 * estimates can fall short of a browser's by a fraction of a unit (Reivers' 'riders broken'
 * at 9: 59.6 drawn). */
#define RIGHT_MARGIN 1

/* Whether b is inside the viewBox and meets no text's box. */
static int box_free(const struct svg *s, struct svg_box b)
{
	if (b.x0 < 0 || b.y0 < 0 || b.x1 > s->w - RIGHT_MARGIN || b.y1 > s->h)
		return 0;
	for (size_t i = 0; i < s->n_boxes; i++) {
		const struct svg_box *o = &s->boxes[i];
		if (b.x0 < o->x1 && o->x0 < b.x1 && b.y0 < o->y1 && o->y0 < b.y1)
			return 0;
	}
	return 1;
}

/* How far the box must slide right (> 0) or left (< 0) to stand inside the viewBox's width
 * (0 when it does, or cannot). */
static int slide(const struct svg *s, struct svg_box b)
{
	if (b.x0 < 0 && b.x1 - b.x0 <= s->w)
		return -b.x0;
	if (b.x1 > s->w - RIGHT_MARGIN && b.x1 - b.x0 <= s->w - RIGHT_MARGIN)
		return s->w - RIGHT_MARGIN - b.x1;
	return 0;
}

/* The first free place for text near (x, y) (svg_label's order): 1 and *at_x, *at_y, or 0. */
static int find_place(const struct svg *s, int x, int y, int size, const char *text, unsigned flags,
	int *at_x, int *at_y)
{
	int step = size * 6 / 5 + 1;

	for (int k = 0; k <= 16; k++) {
		int dy = (k + 1) / 2 * step * (k % 2 ? 1 : -1);
		struct svg_box b = svg_text_box(x, y + dy, size, text, flags);
		int dx = slide(s, b);
		b.x0 += dx;
		b.x1 += dx;
		if (box_free(s, b)) {
			*at_x = x + dx;
			*at_y = y + dy;
			return 1;
		}
	}
	return 0;
}

void svg_label(struct svg *s, int x, int y, int size, const char *text, const struct svg_style *st)
{
	static const struct svg_style none = { NULL, NULL, 0, 0 };

	if (s->n_labels == s->cap_labels) {
		s->cap_labels = s->cap_labels ? 2 * s->cap_labels : 32;
		s->labels = xrealloc(s->labels, s->cap_labels * sizeof(*s->labels));
	}
	struct svg_pending *l = &s->labels[s->n_labels++];
	l->x = x;
	l->y = y;
	l->size = size;
	l->text = xstrdup(text ? text : "");
	l->st = st ? *st : none;
}

static void place_label(struct svg *s, const struct svg_pending *l)
{
	const struct svg_style *st = &l->st;
	unsigned flags = st->flags;
	const char *t = l->text;
	int x = l->x, y = l->y, size = l->size, at_x, at_y;

	if (find_place(s, x, y, size, t, flags, &at_x, &at_y)) {
		svg_text(s, at_x, at_y, size, t, st);
		return;
	}
	/* Cut at a character's start, from the end, keeping at least three. */
	size_t len = strlen(t), chars = 0;
	for (size_t i = 0; i < len; i++)
		chars += ((unsigned char)t[i] & 0xc0) != 0x80;
	struct buf cut = BUF_INIT;
	for (size_t keep = chars - 1; keep >= 3 && keep < chars; keep--) {
		size_t i = 0, n = 0;
		while (i < len && (n < keep || ((unsigned char)t[i] & 0xc0) == 0x80))
			n += ((unsigned char)t[i++] & 0xc0) != 0x80;
		buf_clear(&cut);
		buf_append(&cut, t, i);
		buf_puts(&cut, "\xe2\x80\xa6"); /* … */
		if (find_place(s, x, y, size, buf_str(&cut), flags, &at_x, &at_y)) {
			svg_text(s, at_x, at_y, size, buf_str(&cut), st);
			buf_release(&cut);
			return;
		}
	}
	buf_release(&cut);
	svg_text(s, x + slide(s, svg_text_box(x, y, size, t, flags)), y, size, t, st);
}

void svg_text(struct svg *s, int x, int y, int size, const char *text, const struct svg_style *st)
{
	struct buf *b = s->out;
	unsigned f = st ? st->flags : 0;
	flush(s);
	keep_box(s, svg_text_box(x, y, size, text, f));
	buf_puts(b, "<text");
	attr_int(b, "x", x);
	attr_int(b, "y", y);
	attr_int(b, "font-size", size);
	if (f & (SVG_MIDDLE | SVG_END))
		attr_str(b, "text-anchor", f & SVG_MIDDLE ? "middle" : "end");
	if (f & SVG_BOLD)
		attr_str(b, "font-weight", "bold");
	attr_str(b, "fill", st && st->fill ? st->fill : "#000000");
	buf_puts(b, ">");
	svg_escape(b, text ? text : "");
	buf_puts(b, "</text>\n");
}

/* The length of the valid UTF-8 sequence at p (1..4), or 0 when it is not one. */
static size_t utf8_len(const unsigned char *p)
{
	size_t n = p[0] < 0x80           ? 1 :
		   (p[0] & 0xe0) == 0xc0 ? 2 :
		   (p[0] & 0xf0) == 0xe0 ? 3 :
		   (p[0] & 0xf8) == 0xf0 ? 4 :
					   0;
	if (n == 0 || (n == 2 && p[0] < 0xc2) || (n == 4 && p[0] > 0xf4))
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	if (n == 3) {
		uint32_t c = (uint32_t)(p[0] & 0x0f) << 12 | (uint32_t)(p[1] & 0x3f) << 6 |
			     (uint32_t)(p[2] & 0x3f);
		if (c < 0x800 || (c >= 0xd800 && c <= 0xdfff) || c == 0xfffe || c == 0xffff)
			return 0;
	}
	if (n == 4) {
		uint32_t c = (uint32_t)(p[0] & 0x07) << 18 | (uint32_t)(p[1] & 0x3f) << 12;
		if (c < 0x10000 || c > 0x10ffff)
			return 0;
	}
	return n;
}

void svg_escape(struct buf *out, const char *text)
{
	const unsigned char *p = (const unsigned char *)text;

	while (*p) {
		/* A run of printable ASCII that is no markup goes as it is, in one append: what
		 * the loop below writes for it byte by byte (colours, ids, most text). */
		size_t k = 0;
		while (p[k] >= 0x20 && p[k] < 0x7f && p[k] != '&' && p[k] != '<' && p[k] != '>' &&
			p[k] != '"' && p[k] != '\'')
			k++;
		if (k) {
			buf_append(out, p, k);
			p += k;
			continue;
		}
		size_t n = utf8_len(p);
		if (n == 0 || (n == 1 && (*p < 0x20 || *p == 0x7f))) {
			buf_puts(out, "?");
			p++;
			continue;
		}
		escape_markup(out, (const char *)p, n,
			ESCAPE_XML); /* a UTF-8 sequence holds none */
		p += n;
	}
}
