/* rules.h — the plug-in interface between the game-agnostic core and a rule system.
 * A rule system is a `const struct rule_system` of labelled function pointers (the curl
 * protocol-handler model), registered in the static table of registry.c. Rule systems
 * include only this header and core's public headers; they never read files, call rand,
 * time or clock: every die comes through the struct dice they are handed. */
#ifndef UMPIRE_RULES_H
#define UMPIRE_RULES_H

#include <stddef.h>
#include "core/buf.h"
#include "core/diag.h"
#include "core/node.h"
#include "core/dice.h"
#include "core/events.h"
#include "core/adjust.h"
#include "core/svg.h"

#define RULES_INTERFACE_VERSION 5

/* What a rule system can do, for the core and for `umpire rules` (curl's PROTOPT_* style). */
enum rules_flags {
	RULES_ALTERNATE = 1 << 0,    /* one side is due per turn (player_due varies) */
	RULES_SIMULTANEOUS = 1 << 1, /* every side sends orders every turn */
	RULES_GRID = 1 << 2,         /* positions on squares or hexes */
	RULES_MEASURED = 1 << 3,     /* positions measured on a tabletop (src/rules/lib/table.h) */
	RULES_PRIVATE = 1 << 4,      /* state_view hides part of the state from some players */
};

/* What every hook may know of the campaign. */
struct rules_campaign {
	const char *id;             /* campaign id */
	const char *const *players; /* player ids, as listed in campaign.yaml */
	size_t n_players;
	const void *options; /* from options_parse */
};

/* One player's part of a turn, as handed to resolve. */
struct rules_orders {
	const char *player; /* player id */
	void *orders;       /* from orders_parse; NULL: no file (--allow-missing) */
};

/* The turn being resolved. */
struct rules_turn {
	int turn;                          /* 1-based turn number */
	const struct rules_orders *orders; /* one entry per due player, sorted by player id */
	size_t n_orders;
	struct dice *dice;     /* draw every die here */
	struct events *events; /* record what happened here */
	struct buf summary;    /* one line for the commit message; empty = default */
	struct buf why;        /* when resolve fails: what went wrong (one line) */
};

/* What a map draws besides the table: the turn just resolved (rules.h draw_map). */
struct rules_map {
	int turn;                    /* the turn drawn; 0: the opening position (the briefing) */
	const void *before;          /* the state before the turn's rulings and phases; NULL at 0 */
	const struct events *events; /* what happened, in order; NULL at turn 0 */
};

struct rule_system {
	int version;       /* RULES_INTERFACE_VERSION */
	const char *name;  /* "land-raid": the `rules:` value in campaign.yaml */
	const char *title; /* "Land Raid (Peter Pig, Pieces of Eight)" */
	const char *help;  /* order types, options, standing orders: `umpire rules NAME` */
	int revision;      /* bumped whenever the same inputs could resolve differently:
	                                 * recorded in campaign.yaml and every journal export, and
	                                 * replay/verify refuse a campaign of another revision */
	unsigned flags;    /* enum rules_flags */
	size_t min_players,
		max_players; /* how many sides the game takes (players of campaign.yaml) */

	/* Parses campaign options (opts may be NULL: all defaults) into *out. */
	int (*options_parse)(void **out, const struct node *opts, struct diag *d);
	/* The options in full, defaults included, for campaign.yaml. Caller frees. */
	struct node *(*options_emit)(const void *opts);
	void (*options_free)(void *opts);

	/* Parses the rule system's part of state.yaml / a scenario (`game:`) into *out,
	 * checking it against the campaign (e.g. sides are the campaign's players). */
	int (*state_parse)(void **out, const struct rules_campaign *c, const struct node *game,
		struct diag *d);
	/* The state as a tree in canonical order (stable, diff-friendly). Caller frees. */
	struct node *(*state_emit)(const struct rules_campaign *c, const void *state);
	void (*state_free)(void *state);

	/* 1 if player must send orders for turn `turn` (the turn about to be processed). */
	int (*player_due)(const struct rules_campaign *c, const void *state, int turn,
		const char *player);
	/* 1 if the game has ended before turn `turn`; may set *why (static text). Optional. */
	int (*game_over)(const struct rules_campaign *c, const void *state, int turn,
		const char **why);

	/* Checks one player's `orders` (a sequence) and optional `standing` (a map or NULL)
	 * against the current state and parses them into *out. Every problem goes to d
	 * (positions from the nodes); returns 0 or -1. Runs for `check` and `turn` alike. */
	int (*orders_parse)(void **out, const struct rules_campaign *c, const void *state, int turn,
		const char *player, const struct node *orders, const struct node *standing,
		struct diag *d);
	void (*orders_free)(void *orders);

	/* Resolves the turn in the rule system's phase order, mutating state. Orders that
	 * cannot be carried out are void events, not errors. Returns 0, or -1 on an internal
	 * error (a bug), in which case nothing of the turn is kept. */
	int (*resolve)(const struct rules_campaign *c, void *state, struct rules_turn *t);

	/* Appends a Markdown view of the state for player (e.g. a map) to out: only what that
	 * player may know. Optional. */
	void (*report)(const struct rules_campaign *c, const void *state, const char *player,
		struct buf *out);
	/* The state as player may know it, as a tree (caller frees); player NULL: the public
	 * view, which is what state.yaml holds. Optional: NULL means every player and the public
	 * see the whole state (state_emit). A rule system with RULES_PRIVATE must set it. */
	struct node *(
		*state_view)(const struct rules_campaign *c, const void *state, const char *player);

	/* Draws the battlefield as player may know it (player NULL: the public view) after the
	 * turn m describes, and the turn on it (moves, shots, fights), a legend, a scale bar and
	 * the grid labels of the orders, as one SVG document appended to out (core/svg.h).
	 * Only what that player may know, of the state before the turn too: a hidden group or
	 * a standing order never shows on another's map. Integer coordinates only. Optional:
	 * NULL means the rule system has no positions to draw (docs/formats.md "Maps"). */
	void (*draw_map)(const struct rules_campaign *c, const void *state,
		const struct rules_map *m, const char *player, struct buf *out);

	/* The umpire's adjustments (core/adjust.h, docs/formats.md). Optional: NULL means the
	 * rule system takes none and the umpire's file may hold rulings only.
	 * adjust_check checks v[0..n) in file order against state as the earlier ones would leave
	 * it (a unit added by one may be named by a later one); every problem goes to d at the
	 * positions of v[i].at. Returns 0 or -1. Runs for `check` and `turn` alike. */
	int (*adjust_check)(const struct rules_campaign *c, const void *state,
		const struct adjustment *v, size_t n, struct diag *d);
	/* Applies one checked adjustment to state, before the rule system's turn; appends what it
	 * did (one line, no reason: the core adds it) to what. Returns 0, or -1 on a bug. */
	int (*adjust_apply)(const struct rules_campaign *c, void *state, const struct adjustment *a,
		struct buf *what);

	/* Appends the body of player's order file for turn `turn` as a template (YAML, after the
	 * campaign, turn and player lines the core writes) to out: `orders: []`, then as comments
	 * one entry per officer, group or unit he commands with its position and what it may do,
	 * then `standing:` with his current standing orders. `umpire check` accepts it as it
	 * stands (no orders) and once its entries are uncommented and filled in. Only what player
	 * may know. Optional: NULL means `orders: []` alone. */
	void (*orders_template)(const struct rules_campaign *c, const void *state, int turn,
		const char *player, struct buf *out);

	/* Appends to out, in Markdown, the game's result as the rule system's sheet or the
	 * scenario scores it (loot, objectives held, casualties: a line per side, and who won
	 * where the sheet says), for the report of the turn that ends the game. Optional: NULL
	 * means the report says only that the game is over and why. */
	void (*result)(const struct rules_campaign *c, const void *state, struct buf *out);
	/* Who won the game that has ended (game_over said so), by the scenario's victory
	 * conditions (the rule system's `victory` option, its vocabulary in docs/rules/NAME.md)
	 * applied to the final state. Sets *winner to one of c->players, or NULL for a draw, and
	 * appends why (one line of plain text, no full stop) to why. Returns 1 when the
	 * conditions decide, 0 when the scenario states none (the umpire rules who won).
	 * Optional: NULL is the same as returning 0. */
	int (*victory)(const struct rules_campaign *c, const void *state, const char **winner,
		struct buf *why);

	/* Since version 4. The orders a side that sent none plays when the campaign says it holds
	 * (`schedule.missed: hold`, or the side is in civil disorder: docs/formats.md "Play by
	 * email"), as the rule system's page defines them with the sheet's section ("Hold
	 * orders" in docs/rules/NAME.md): its units stay where they are and do nothing an order
	 * starts; what the sheet does without an order (morale, a rally, melee in contact) goes
	 * on. Sets *out to orders as orders_parse gives them (freed with orders_free), which
	 * resolve plays for that side; its standing orders stay in the state, untouched, for
	 * when its player sends orders again. Returns 0, or -1 on a bug. Optional: NULL means
	 * the side plays no orders and its standing orders, as any missed turn does. */
	int (*hold_orders)(void **out, const struct rules_campaign *c, const void *state, int turn,
		const char *player);

	/* Since version 5. A copy of state that owes nothing to it (caller frees with
	 * state_free): what state_parse would give from state_emit's tree, without the round
	 * trip (the turn keeps the state before it for its maps, issue 38). Optional: NULL
	 * means the core copies through state_emit and state_parse. */
	void *(*state_clone)(const struct rules_campaign *c, const void *state);
	/* Since version 5. 1 when draw_map draws for player exactly what it draws for the
	 * public view (player NULL) but for the <title>, else 0: the player may see nothing the
	 * public may not, in state or m->before. It may say 0 when unsure (the core then draws
	 * his map and compares), never 1 wrongly: his own hidden units would be left off his
	 * map. Optional: NULL means the core draws and compares (docs/formats.md "Shared
	 * reports"). */
	int (*map_as_public)(const struct rules_campaign *c, const void *state,
		const struct rules_map *m, const char *player);
};

/* The registered rule systems, NULL-terminated, in a fixed order. */
extern const struct rule_system *const rules_registry[];
/* The rule system called name, or NULL. */
const struct rule_system *rules_find(const char *name);
/* Appends to out what to say after "unknown rule system 'name'": "; did you mean
 * 'land-raid'?" for a slip of the keyboard, else "; one of: " every registered name. */
void rules_suggest(struct buf *out, const char *name);

#endif
