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
 * so a turn of 10,000 dice renders its dice table once, not once a player. */
void render_report_common(struct buf *common, const struct turn *t);
/* Appends the Markdown report of turn t for player to b, with common (render_report_common's,
 * of the same turn); player NULL: a sealed turn's public report (the rule system's Situation
 * only when it sets RULES_PRIVATE). */
void render_report_from(struct buf *b, const struct turn *t, const char *player,
	const struct buf *common);

/* Appends a sealed turn's salts file to b: campaign, turn (and player, when given) and, per
 * order file (player's only, or every one when player is NULL), its player, salt and salted
 * commitment (`sha256`, as the export shows it); then `views`, per player (his only, or every
 * one), the salts and commitments of his report and his view of the state. */
void render_salts(struct buf *b, const struct turn *t, const char *player);

#endif
