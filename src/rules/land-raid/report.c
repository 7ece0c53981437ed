/* report.c — the players' view of a Land Raid table in Markdown: an ASCII map of the grid
 * (square kind, bases per side, casualty and plunder markers), the loot score and a list of
 * every base. Nothing is hidden in Land Raid, so both sides see the same report. */
#include <stdlib.h>
#include <string.h>

#include "rules/land-raid/landraid.h"
#include "core/banned.h"

#define CELL 11 /* characters inside a map cell */

static const char *const kind_short[] = {
	"open",
	"dockside",
	"building",
	"important",
	"barracks",
	"garrison",
};

/* "A:3+O": side letter, a colon, non-officer bases, O per officer, C for the commander. The
 * colon keeps a square's bases apart from a square's name (A3): issue 15, "maps label squares
 * and units distinctly". */
static void side_text(const struct landraid_state *s, int sq, int side, char *out, size_t len)
{
	int n = landraid_count(s, sq, side, LR_NON_OFFICERS);
	int off = landraid_count(s, sq, side, 1u << LR_OFFICER);
	int com = landraid_count(s, sq, side, 1u << LR_COMMANDER);
	size_t k = 0;
	out[0] = '\0';
	if (!n && !off && !com)
		return;
	k += (size_t)snprintf(out + k, len - k, "%c:%d", side == LR_ATTACKER ? 'A' : 'D', n);
	if (com && k < len)
		k += (size_t)snprintf(out + k, len - k, "+C");
	for (int i = 0; i < off && k + 2 < len; i++)
		k += (size_t)snprintf(out + k, len - k, i || com ? "O" : "+O");
}

static void cell(struct buf *b, const char *text)
{
	buf_printf(b, "%-*.*s|", CELL, CELL, text);
}

static void rule_line(struct buf *b, const struct landraid_state *s)
{
	buf_puts(b, "    +");
	for (int col = 0; col < s->cols; col++) {
		for (int i = 0; i < CELL; i++)
			buf_puts(b, "-");
		buf_puts(b, "+");
	}
	buf_puts(b, "\n");
}

void landraid_report(const struct landraid_state *s, const struct landraid_options *o,
	struct buf *out)
{
	char t[3][48];
	buf_puts(out, "### Land Raid: the table\n\n");
	buf_printf(out,
		"Loot carried off by the attacker: **%d** (lost to deviation: %d). "
		"Game length: %d turns per player.\n\n",
		s->loot_taken, s->loot_lost, o->turns_per_player);
	buf_puts(out, "```\n     ");
	for (int col = 0; col < s->cols; col++)
		buf_printf(out, " %-*c", CELL, 'A' + col);
	buf_puts(out, "\n");
	rule_line(out, s);
	for (int row = 0; row < s->rows; row++) {
		for (int line = 0; line < 3; line++) {
			if (line == 0)
				buf_printf(out, " %2d |", row + 1);
			else
				buf_puts(out, "    |");
			for (int col = 0; col < s->cols; col++) {
				int sq = col * s->rows + row;
				char a[16], d[16];
				if (line == 0) {
					snprintf(t[0], sizeof(t[0]), "%s", kind_short[s->kind[sq]]);
					cell(out, t[0]);
				} else if (line == 1) {
					side_text(s, sq, LR_ATTACKER, a, sizeof(a));
					side_text(s, sq, LR_DEFENDER, d, sizeof(d));
					snprintf(t[1], sizeof(t[1]), "%s%s%s", a,
						a[0] && d[0] ? " " : "", d);
					cell(out, t[1]);
				} else {
					size_t k = 0;
					t[2][0] = '\0';
					if (s->cas[LR_ATTACKER][sq])
						k += (size_t)snprintf(t[2] + k, sizeof(t[2]) - k,
							"xA:%d ", s->cas[LR_ATTACKER][sq]);
					if (s->cas[LR_DEFENDER][sq] && k < sizeof(t[2]))
						k += (size_t)snprintf(t[2] + k, sizeof(t[2]) - k,
							"xD:%d ", s->cas[LR_DEFENDER][sq]);
					if (s->plunder[sq] && k < sizeof(t[2]))
						snprintf(t[2] + k, sizeof(t[2]) - k, "P:%d",
							s->plunder[sq]);
					cell(out, t[2]);
				}
			}
			buf_puts(out, "\n");
		}
		rule_line(out, s);
	}
	buf_puts(out, "```\n\n");
	buf_puts(out,
		"Key: a square is named by its column letter and row number (C2: column C, "
		"row 2); in a square, its kind, then what stands on it, always with a colon: "
		"A:3+O = 3 attacker bases and an officer (C = the commander), D:1 = 1 defender "
		"base; xA:2 = 2 attacker casualty markers (xD: the defender's); P:1 = 1 plunder "
		"marker.\n\n");
	buf_puts(out, "| base | side | role | quality | square |\n|---|---|---|---|---|\n");
	for (size_t i = 0; i < s->n_bases; i++) {
		const struct landraid_base *b = s->bases[i];
		if (b->sq < 0)
			continue;
		buf_printf(out, "| %s | %s | %s | %s | %s |\n", b->id, landraid_side_names[b->side],
			landraid_role_names[b->role], landraid_quality_names[b->quality],
			s->name[b->sq]);
	}
	buf_puts(out, "\n");
}
