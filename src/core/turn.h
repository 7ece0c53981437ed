/* turn.h — the turn pipeline, shared by `check`, `turn` and `replay` so that all three run
 * exactly the same code: read and check order files against the current state, derive the
 * turn seed, resolve (umpire rulings, then the rule system's phases), render state.yaml, the
 * journal export and reports, then append to the journal and commit to git. */
#ifndef UMPIRE_TURN_H
#define UMPIRE_TURN_H

#include <stddef.h>
#include <stdint.h>
#include "core/campaign.h"
#include "core/dice.h"
#include "core/events.h"

#define TURN_MAX_RULINGS 100

/* One umpire ruling: `- roll: 2d6+1` / `for: "storm at sea"`. */
struct ruling {
	struct dice_expr expr;
	char *notation;      /* as canonicalised by dice_expr_format */
	char *what;          /* the `for:` text */
};

/* One received order file. */
struct order_file {
	char *path;          /* as given on the command line (diagnostics) */
	char *player;        /* the `player:` of the file */
	unsigned char *bytes;/* raw bytes as received */
	size_t len;
	uint8_t sha256[32];  /* SHA256(bytes) */
	void *orders;        /* rules->orders_parse result (players) */
	struct ruling *rulings; /* umpire's file */
	size_t n_rulings;
};

struct turn_input {
	int turn;                    /* the turn being processed */
	struct order_file *files;    /* sorted by player id (byte order) once complete */
	size_t n_files;
	char **missing;              /* due players without a file (--allow-missing) */
	size_t n_missing;
	char *beacon_value;          /* public beacon value (B_t = SHA256 of it); NULL: none */
	char *beacon_round;          /* the round the umpire announced; NULL: none */
};

struct turn_output {
	uint8_t key[32], digest[32], beacon[32], seed[32];
	struct dice dice;
	struct events events;
	char *summary;               /* one line */
	struct buf state_yaml;       /* new state.yaml bytes */
	uint8_t state_sha256[32];
	struct buf journal_yaml;     /* journal/turn-NNNN.yaml bytes */
	struct buf *reports;         /* one per campaign player, campaign order */
	size_t n_reports;
	size_t rules_first_die;      /* dice drawn before the rule system's phases (rulings) */
	size_t rules_first_event;    /* events recorded before them */
};

void turn_input_init(struct turn_input *in, int turn);
void turn_input_release(struct turn_input *in, const struct campaign *c);
void turn_output_release(struct turn_output *out);

/* The file of player in in, or NULL. */
const struct order_file *turn_find_file(const struct turn_input *in, const char *player);

/* Loads the state at the committed HEAD into *state (free with c->rules->state_free) and
 * sets in->turn to the next turn. Refuses, with a message on stderr, when the rule system
 * says the game is over. Returns an exit code (0 ok). */
int turn_load_next(struct campaign *c, struct turn_input *in, void **state);

/* Parses one order file's bytes (name for diagnostics) for in->turn against state and adds
 * it to in. Every problem goes to d. Returns 0, or -1 when the file has errors. */
int turn_add_order_bytes(struct turn_input *in, struct campaign *c, const void *state,
	const char *name, const unsigned char *bytes, size_t len, struct diag *d);
/* Reads path (bounded by ORDER_FILE_MAX_BYTES) and calls turn_add_order_bytes. */
int turn_add_order_file(struct turn_input *in, struct campaign *c, const void *state,
	const char *path, struct diag *d);
/* Checks every due player sent a file (else records them as missing when allow_missing,
 * or prints one line per missing player and returns -1) and sorts in->files. */
int turn_complete(struct turn_input *in, struct campaign *c, const void *state,
	int allow_missing);

/* B_t for a beacon value: SHA256(value bytes), or 32 zero bytes when value is NULL. */
void turn_beacon(uint8_t out[32], const char *value);

/* Resolves in->turn on state (mutated) with turn key `key`: digest, seed, umpire rulings,
 * rules->resolve, then renders outputs. Returns 0, or -1 (message on stderr) on an internal
 * error. out is initialised here; release it with turn_output_release either way. */
int turn_resolve(struct turn_output *out, struct campaign *c, void *state,
	const struct turn_input *in, const uint8_t key[32], const uint8_t beacon[32]);

/* Appends the turn to the journal (one transaction) and commits it to git with its tag.
 * when: commit time in seconds. Returns an exit code (0 ok). */
int turn_commit(struct campaign *c, const struct turn_input *in, const struct turn_output *out,
	long long when);

/* Brings git level with the journal after a crash: finishes a turn the journal holds but git
 * lacks, tags an untagged turn commit. Prints what it did. Returns an exit code (0 ok). */
int turn_recover(struct campaign *c);

/* Commits a complete record (files, summary, time filled in; journal_head and commit_id are
 * computed here): builds the git objects, appends the record to the journal with the commit
 * id it must become, then publishes main and the tag. Used by init (turn 0) and turn_commit.
 * Returns an exit code. */
int turn_commit_record(struct campaign *c, struct journal_record *r);
/* The commit message of turn (0: "Setup"), ending with the trailers Turn, Journal-Head
 * (hex) and Commitment (docs/formats.md). Appends to msg. */
void turn_commit_message(struct buf *msg, const struct campaign *c, int turn,
	const char *summary, const char *journal_head);
/* The repository path of entry `turn` of the journal hash chain: campaign.yaml for turn 0,
 * journal/turn-NNNN.yaml after. */
void turn_entry_path(char *out, size_t len, int turn);
/* head = SHA256(prev || entry): one link of the journal hash chain (docs/fairness.md). */
void turn_chain_head(uint8_t out[32], const uint8_t prev[32], const void *entry, size_t len);

/* 1 if the order files at paths are byte for byte the order files of the journal's turn
 * `turn` (a re-run of a command that already succeeded, e.g. after a crash). */
int turn_same_orders(struct campaign *c, int turn, char *const *paths, size_t n);

/* The processing time to use: $SOURCE_DATE_EPOCH when set (reproducible builds convention),
 * else the clock. */
long long turn_now(void);

#endif
