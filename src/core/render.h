/* render.h — the journal export and the players' reports of a turn (render.c), rendered
 * from the pipeline's struct turn by the `render` step. */
#ifndef UMPIRE_RENDER_H
#define UMPIRE_RENDER_H

/* Where the JSON Schemas say they live (their `$id`s): where `make install` puts them with the
 * default PREFIX, so an editor told `# yaml-language-server: $schema=ID` (the first line of
 * each report's order template) opens the installed file. A constant: reports are byte for
 * byte the same on every machine. */
#define RENDER_SCHEMA_ID_BASE "file:///usr/local/share/umpire/schemas/"

#include "core/turn.h"

/* Appends journal/turn-NNNN.yaml of turn t to b: key, every order file's hash, digest,
 * beacon, seed, every die and event, when sealed each player's view commitments (`views`),
 * the state hash and the summary. Returns 0 / -1. */
int render_export(struct buf *b, const struct turn *t);
/* The part of every report of turn t that is the same for all readers (orders received to
 * the turn seed), appended to common: render_report_from puts it into each player's report,
 * so a turn renders its dice table once, not once a player; a turn of more than
 * RENDER_DICE_LISTED dice points to its journal export instead of the table. Returns the
 * length that part has with every die listed (what RENDER_SHARE_FROM measures). */
size_t render_report_common(struct buf *common, const struct turn *t);
/* Appends the Markdown report of turn t for player to b, with common (render_report_common's,
 * of the same turn); player NULL: a sealed turn's public report (the rule system's Situation
 * only when it sets RULES_PRIVATE). */
void render_report_from(struct buf *b, const struct turn *t, const char *player,
	const struct buf *common);

/* An open turn whose common part (render_report_common's, every die counted as listed) is
 * longer than this commits it once,
 * in the turn's shared report reports/turn-NNNN.md, with the shared map reports/turn-NNNN.svg,
 * and each player's report links them (issue 38, docs/formats.md "Shared reports"): a battle of
 * 9,600 orders commits its events and Situation (1.1 MB) and its map once, not once a player.
 * Every turn up to it keeps the layout it always had, so campaigns played before still verify. */
#define RENDER_SHARE_FROM (1024 * 1024)
/* A turn that rolls more dice than this lists none in its reports' `## Dice`: it points to
 * the journal export, which holds each with its purpose (docs/formats.md "Shared reports";
 * issue 38: the 9,600-order Reivers turn's 19,212 dice were 1.4 MB of table). Every turn up to
 * it (every demo, the golden files) lists its dice as it always did. */
#define RENDER_DICE_LISTED 4096

/* An open turn with t->out.shared set: the shared report into t->out.public_report (the
 * summary, the shared map's link, common and, when every player's is the same, the Situation)
 * and each player's report into t->out.reports (his map's link, a link to the shared report,
 * his Situation unless shared, what comes next). render_maps has run. */
void render_shared_reports(struct turn *t, const struct buf *common);

/* Maps (docs/formats.md "Maps"). The line of a report that shows its map: an image with the
 * relative link layout_map_link gives, or, when the rule system draws none, a line saying so.
 * Appends to b. */
void render_map_link(struct buf *b, const struct campaign *c, int turn, const char *player);
/* Appends player's map (NULL: the public one) of state after the turn m describes: the rule
 * system's draw_map, or a small map saying so when it would pass SVG_MAX_BYTES. The rule
 * system must draw maps. Returns 1 when it was drawn with runs (past SVG_RUNS_FROM), else 0. */
int render_map(struct buf *out, const struct campaign *c, const void *state,
	const struct rules_map *m, const char *player);
/* Keeps a copy of t's state as t->before (the turn's maps draw the moves from it): the
 * `rulings` step's first act. Nothing when the rule system draws no map. Returns 0 / -1. */
int render_keep_before(struct turn *t);
/* Draws the turn's maps into t->out.maps (one per player) and, sealed or shared,
 * t->out.public_map; shared, a player's map that is the public one but for its title is
 * left empty and t->out.own_map says so. Nothing when the rule system draws none
 * (t->out.maps stays NULL). Returns 0 / -1. */
int render_maps(struct turn *t);
/* Appends the turn-0 briefing of player (NULL: the public one): the map of the opening
 * position, the rule system's Situation and who is due on turn 1. */
void render_briefing(struct buf *b, const struct campaign *c, const void *state,
	const char *player);

/* The turn-0 briefing's files, appended to *files (file_list_add), from the opening state:
 * open, each player's report and map (reports/turn-0000/PLAYER.md, .svg), committed by the
 * setup; sealed, the public report and map (reports/turn-0000.md, .svg) when private_views is
 * 0, else each player's, as PLAYER/report.md and PLAYER/map.svg (his outbox's briefing/). */
struct file;
void render_briefing_files(struct file **files, size_t *n, const struct campaign *c,
	const void *state, int private_views);

/* Appends a sealed turn's salts file to b: campaign, turn (and player, when given) and, per
 * order file (player's only, or every one when player is NULL), its player, salt and salted
 * commitment (`sha256`, as the export shows it); then `views`, per player (his only, or every
 * one), the salts and commitments of his report and his view of the state. */
void render_salts(struct buf *b, const struct turn *t, const char *player);

#endif
