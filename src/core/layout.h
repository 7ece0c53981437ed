/* layout.h — the one owner of a campaign's committed layout: every path in its git tree, the
 * tag of each turn, the commit message and its trailers, and the list of files a turn
 * commits. The writer (the turn pipeline, recovery) and every reader (replay, verify, audit,
 * log, stats) call these, so they cannot drift apart. docs/formats.md shows the layout. */
#ifndef UMPIRE_LAYOUT_H
#define UMPIRE_LAYOUT_H

#include <stddef.h>
#include <stdint.h>
#include "core/buf.h"

#define LAYOUT_BRANCH "refs/heads/main"      /* the one branch umpire commits to */
#define LAYOUT_CAMPAIGN "campaign.yaml"      /* the campaign's settings and commitment */
#define LAYOUT_STATE "state.yaml"            /* the state after the latest turn */
#define LAYOUT_TAG_PREFIX "turn-"            /* every turn's tag starts so */
#define LAYOUT_CLOSE_TAG_PREFIX "close-"     /* a closed turn's tag starts so */
#define LAYOUT_CLOSE_SUBJECT "orders closed" /* "Turn N: orders closed" */
#define LAYOUT_TAG_MAX 16                    /* "turn-NNNNNN" and its NUL fit */
#define LAYOUT_PATH_MAX 256                  /* any committed path and its NUL fit */

/* In .umpire/: the players' mail addresses, private to the umpire, never committed. */
#define LAYOUT_ADDRESSES "addresses.yaml"

/* The tag of turn t (0 = setup): "turn-0003". */
void layout_tag(char out[LAYOUT_TAG_MAX], int turn);
/* Parses a tag name made by layout_tag; 0 with *turn set, or -1 when name is not one. */
int layout_parse_tag(const char *name, int *turn);

/* journal/turn-NNNN.yaml: the turn's journal export. */
void layout_export_path(char out[LAYOUT_PATH_MAX], int turn);
/* The entry of the journal hash chain for turn t: campaign.yaml for 0, the export after. */
void layout_entry_path(char out[LAYOUT_PATH_MAX], int turn);
/* orders/turn-NNNN: where the turn's order files are committed. */
void layout_orders_dir(char out[LAYOUT_PATH_MAX], int turn);
/* orders/turn-NNNN/PLAYER.yaml. */
void layout_order_path(char out[LAYOUT_PATH_MAX], int turn, const char *player);
/* The player whose order file is called name in the orders directory ("attacker.yaml"):
 * a new string (caller frees), or NULL when name is not PLAYER.yaml. */
char *layout_order_player(const char *name);
/* reports/turn-NNNN: where the players' reports are committed. */
void layout_reports_dir(char out[LAYOUT_PATH_MAX], int turn);
/* reports/turn-NNNN/PLAYER.md. */
void layout_report_path(char out[LAYOUT_PATH_MAX], int turn, const char *player);

/* reports/turn-NNNN/PLAYER.svg: the map beside player's report (docs/formats.md "Maps"). */
void layout_map_path(char out[LAYOUT_PATH_MAX], int turn, const char *player);
/* reports/turn-NNNN.svg: a sealed turn's public map, beside the public report. */
void layout_public_map_path(char out[LAYOUT_PATH_MAX], int turn);
/* A sealed player's map in his outbox (.umpire/outbox/PLAYER/turn-NNNN/), beside report.md. */
#define LAYOUT_OUTBOX_MAP "map.svg"
/* Sealed: a player's turn-0 briefing (report.md, map.svg) in .umpire/outbox/PLAYER/briefing/,
 * apart from the turns' directories, which each hold a salt. */
#define LAYOUT_OUTBOX_BRIEFING "briefing"
/* The relative link from a report to its map: "PLAYER.svg" (open), LAYOUT_OUTBOX_MAP (a
 * sealed player's, in his outbox), "turn-NNNN.svg" (player NULL: the public report). */
void layout_map_link(char out[LAYOUT_PATH_MAX], int turn, const char *player, int sealed);

/* Tag close-NNNN: turn's inputs fixed (docs/fairness.md, "Closed turns"). */
void layout_close_tag(char out[LAYOUT_TAG_MAX], int turn);
/* journal/turn-NNNN.close.yaml: what the close fixed. */
void layout_close_path(char out[LAYOUT_PATH_MAX], int turn);
/* journal/turn-NNNN.close.AUTHORITY.tsr: the time-stamp authority's answer (a DER
 * TimeStampResp) for the close file, committed with it (docs/fairness.md, "Time stamps"). */
void layout_close_token_path(char out[LAYOUT_PATH_MAX], int turn, const char *authority);
/* The close commit's message: "Turn N: orders closed", a line on what it fixed, then the
 * trailers Turn, Orders-Digest and Commitment (hex). Appends to msg. */
void layout_close_message(struct buf *msg, int turn, const char *what, const uint8_t digest[32],
	const uint8_t commitment[32]);

/* What a committed file of a turn is. */
enum layout_kind {
	LAYOUT_KIND_STATE,         /* state.yaml */
	LAYOUT_KIND_EXPORT,        /* journal/turn-NNNN.yaml */
	LAYOUT_KIND_ORDERS,        /* an order file as received */
	LAYOUT_KIND_REPORT,        /* a player's report */
	LAYOUT_KIND_PUBLIC_REPORT, /* sealed: the one report everybody may read */
	LAYOUT_KIND_MAP,           /* a player's map, beside his report */
	LAYOUT_KIND_PUBLIC_MAP,    /* sealed: the public map, beside the public report */
};

/* One file a turn commits. */
struct layout_entry {
	enum layout_kind kind;      /* what it is */
	const char *player;         /* ORDERS, REPORT, MAP: whose (points into the caller's list) */
	char path[LAYOUT_PATH_MAX]; /* where */
};

/* The files turn t commits, sorted by path: state.yaml, the journal export, one order
 * file per sender (the players who sent a file, the umpire included) and one report per
 * campaign player, with his map when maps is 1 (the rule system draws maps). *out is malloc'd
 * (free it); returns the count. */
size_t layout_turn_files(struct layout_entry **out, int turn, const char *const *senders,
	size_t n_senders, const char *const *players, size_t n_players, int maps);
/* How an open turn lays out its reports (docs/formats.md "Shared reports"). */
struct layout_reports {
	int maps;                     /* the rule system draws maps */
	int shared;                   /* the shared report reports/turn-NNNN.md is committed (and,
				       * with maps, the shared map reports/turn-NNNN.svg) */
	const unsigned char *own_map; /* shared, maps: per player, 1 when his own map is committed
				       * beside his report; NULL: every player's is */
};
/* layout_turn_files with the shared report and map when r->shared, and a player's map only
 * when r->own_map says so (the entries of both: LAYOUT_KIND_PUBLIC_REPORT, _PUBLIC_MAP). */
size_t layout_open_turn_files(struct layout_entry **out, int turn, const char *const *senders,
	size_t n_senders, const char *const *players, size_t n_players,
	const struct layout_reports *r);
/* The files a sealed turn t commits, sorted by path: state.yaml (the public view), the
 * journal export and the public report, with the public map when maps is 1; no order file,
 * no player's report or map. */
size_t layout_sealed_turn_files(struct layout_entry **out, int turn, int maps);
/* reports/turn-NNNN.md: a sealed turn's public report (outside reports/turn-NNNN/, whose
 * names are player ids). */
void layout_public_report_path(char out[LAYOUT_PATH_MAX], int turn);

/* The reveal (tag `reveal`, docs/fairness.md "Sealed turns"): what a sealed campaign
 * withheld, published at the end. reveal/turn-NNNN: one directory per turn (0: the setup). */
#define LAYOUT_REVEAL_TAG "reveal"
#define LAYOUT_REVEAL_SUBJECT "Reveal"
void layout_reveal_dir(char out[LAYOUT_PATH_MAX], int turn);
/* The reveal commit's message: "Reveal", a line on what it holds, then the trailers Turn (the
 * last turn revealed) and Commitment (hex). Appends to msg. */
void layout_reveal_message(struct buf *msg, int last, const uint8_t commitment[32]);

/* The first line of turn t's commit message, without its new line: "Setup" for turn 0, else
 * "Turn N: " and summary on one line (escape_message_line: a new line would forge a trailer).
 * Appends to out. */
void layout_commit_subject(struct buf *out, int turn, const char *summary);
/* The commit message of turn t (0: "Setup"; else "Turn N: summary"), then the trailers
 * Turn, Journal-Head and Commitment (hex) that tie the commit to the journal hash chain and
 * the campaign's commitment (docs/formats.md). Appends to msg. */
void layout_commit_message(struct buf *msg, int turn, const char *summary,
	const uint8_t journal_head[32], const uint8_t commitment[32]);
/* The value of trailer key ("Journal-Head") in a commit message made by
 * layout_commit_message: a new string (caller frees), or NULL when it has none. */
char *layout_trailer(const char *message, const char *key);

#endif
