/* report.c — a side's Markdown view of the Border Reivers table: a character map (one cell
 * per 2") with terrain, figures and animals, then each figure's state. Another side's hidden
 * groups are left off, and every hidden group off the public report (player NULL). */
#include <stdlib.h>
#include <string.h>

#include "rules/reivers/reivers.h"
#include "core/banned.h"

#define CELL 20 /* tenths of an inch per map character */
#define MAP_MAX 120

static char terrain_char(const struct rv_state *s, struct table_pt p)
{
	static const char area[] = { 'T', '~', '#', ':', '.' };
	char c = ' ';
	for (size_t i = 0; i < s->n_feat; i++) {
		const struct rv_feature_def *f = &s->feat[i];
		if (f->is_line) {
			for (size_t k = 0; k + 1 < f->n; k++)
				if (table_d2_cmp_r(table_seg_d2(p, f->v[k], f->v[k + 1]),
					    CELL / 2) <= 0)
					c = f->kind == RV_ROAD ? '=' :
					    f->kind == RV_WALL ? 'W' :
								 'F';
		} else {
			struct table_poly poly = { f->v, f->n };
			if (c == ' ' && table_poly_where(&poly, p) != TABLE_OUTSIDE)
				c = area[f->kind];
		}
	}
	return c;
}

static void put(char *grid, int cols, int rows, struct table_pt p, char c)
{
	int col = p.x / CELL, row = rows - 1 - p.y / CELL;
	if (col >= cols)
		col = cols - 1;
	if (row < 0)
		row = 0;
	grid[row * (cols + 1) + col] = c;
}

/* A figure of side fig on the map of side's report: o his own, x an enemy's; in the public
 * report (side -1) its side's number, 1 to 9, then * (the key names them). */
static char fig_char(int fig, int side)
{
	if (side >= 0)
		return fig == side ? 'o' : 'x';
	return fig < 9 ? (char)('1' + fig) : '*';
}

static void map(const struct rules_campaign *camp, const struct rv_state *s, int side,
	struct buf *out)
{
	int cols = s->width / CELL + 1, rows = s->height / CELL + 1;
	if (cols > MAP_MAX || rows > MAP_MAX)
		return;
	char *grid = xcalloc((size_t)((cols + 1) * rows + 1), 1);
	for (int r = 0; r < rows; r++) {
		for (int c = 0; c < cols; c++) {
			struct table_pt p = { c * CELL + CELL / 2,
				(rows - 1 - r) * CELL + CELL / 2 };
			grid[r * (cols + 1) + c] = terrain_char(s, p);
		}
		grid[r * (cols + 1) + cols] = '\n';
	}
	for (size_t i = 0; i < s->n_animal; i++)
		put(grid, cols, rows, s->animal[i].at, s->animal[i].kind == RV_HORSE ? 'h' : 'c');
	for (size_t i = 0; i < s->n_fig; i++)
		if (!s->fig[i].dead && !rv_hidden_from(s, (int)i, side))
			put(grid, cols, rows, s->fig[i].at, fig_char(s->fig[i].side, side));
	buf_printf(out, "```\n%s```\n\nKey: ", grid);
	if (side >= 0)
		buf_puts(out, "o yours, x enemy, ");
	else /* the public report: each side by its number */
		for (size_t k = 0; k < camp->n_players; k++)
			buf_printf(out, "%c %s, ", fig_char((int)k, -1), camp->players[k]);
	buf_puts(out, "c cattle or sheep, h horse, T woods, ~ water, # building, : rough, "
		      "= road, W wall, F fence; one character is 2\", up is up the table.\n\n");
	free(grid);
}

void rv_report(const struct rules_campaign *c, const void *state, const char *player,
	struct buf *out)
{
	const struct rv_state *s = state;
	int side = rv_side_of(c, player);
	buf_printf(out, "### The table (%d\" x %d\")\n\n", s->width / RV_INCH, s->height / RV_INCH);
	map(c, s, side, out);
	buf_puts(out,
		"### Figures\n\n| figure | side | group | at | state |\n|---|---|---|---|---|\n");
	for (size_t i = 0; i < s->n_fig; i++) {
		const struct rv_figure *f = &s->fig[i];
		if (rv_hidden_from(s, (int)i, side))
			continue;
		/* "| id | side | group | [x, y] | state |", a row a figure: no printf per row */
		buf_puts(out, "| ");
		buf_puts(out, f->id);
		buf_puts(out, " | ");
		buf_puts(out, c->players[f->side]);
		buf_puts(out, " | ");
		buf_puts(out, f->group);
		buf_puts(out, " | [");
		buf_put_int(out, f->at.x);
		buf_puts(out, ", ");
		buf_put_int(out, f->at.y);
		buf_puts(out, "] | ");
		buf_puts(out, f->dead ? "dead" : f->hits ? "hit" : "sound");
		buf_puts(out, f->mounted ? ", mounted" : "");
		buf_puts(out, f->reload ? ", unloaded" : "");
		buf_puts(out, " |\n");
		if (f->stunned_until > 0)
			buf_printf(out, "|  |  |  |  | stunned to turn %d |\n", f->stunned_until);
	}
	buf_puts(out, "\n## Animals\n\n");
	for (size_t i = 0; i < s->n_animal; i++)
		buf_printf(out, "- %s (%s) at [%d, %d]%s%s%s\n", s->animal[i].id,
			rv_animal_names[s->animal[i].kind], s->animal[i].at.x, s->animal[i].at.y,
			s->animal[i].spooked ? ", spooked" : "",
			s->animal[i].owner >= 0 ? ", held by " : "",
			s->animal[i].owner >= 0 ? c->players[s->animal[i].owner] : "");
}
