/* turn.h — the turn pipeline: one static table of steps, read top to bottom like the
 * rulebook (recover, load, orders, seed, rulings, resolve, render, build, journal,
 * publish). `check`, `turn`, `replay` and `verify` each run a named slice of that one table
 * (turn_run), so no command repeats a step by hand and none can disagree with another about
 * what a turn is. docs/design.md shows the table. */
#ifndef UMPIRE_TURN_H
#define UMPIRE_TURN_H

#include <stddef.h>
#include <stdint.h>
#include "core/adjust.h"
#include "core/campaign.h"
#include "core/close.h"
#include "core/dice.h"
#include "core/events.h"
#include "core/fair.h"
#include "core/journal.h"

#define TURN_MAX 999999      /* the highest turn number anywhere (tags, --turn, files) */
#define TURN_MAX_RULINGS 100 /* rulings in the umpire's file */
#define TURN_PACK_EVERY 50   /* turns between two packings of git's loose objects (turn_maintain) */
/* Entries of a player's `orders` list: 12 players of 834 orders make a 10,000-order turn. */
#define TURN_MAX_ORDERS 10000

/* One umpire ruling: `- roll: 2d6+1` / `for: "storm at sea"`. */
struct ruling {
	struct dice_expr expr; /* the parsed notation */
	char *notation;        /* as canonicalised by dice_expr_format */
	char *what;            /* the `for:` text */
};

/* One received order file. */
struct order_file {
	char *path;           /* as given on the command line, or its committed path (messages) */
	char *player;         /* the `player:` of the file, once parsed; NULL before */
	unsigned char *bytes; /* raw bytes as received */
	size_t len;           /* bytes */
	uint8_t sha256[FAIR_HASH_BYTES];      /* SHA256(bytes) */
	uint8_t digest_hash[FAIR_HASH_BYTES]; /* the hash D_t, the close and the export take:
	                                       * sha256 (open), the salted commitment (sealed) */
	uint8_t salt[FAIR_HASH_BYTES];        /* sealed: the file's salt (fair_salt) */
	void *orders;                         /* rules->orders_parse result (players) */
	struct ruling *rulings;               /* the umpire's file: dice rulings */
	size_t n_rulings;
	struct adjustment *adjustments; /* the umpire's file: adjustments, in file order */
	size_t n_adjustments;
	int has_entropy; /* entropy players: the file's `entropy:` commitment */
	uint8_t entropy[FAIR_HASH_BYTES];
	int contribution; /* entropy players: a player who is not due, his `entropy:` alone and
	                   * no orders (docs/fairness.md, "Contributions"); the rule system never
	                   * sees the file */
	int concede;      /* `concede: true`: the player's side concedes; the game ends with the
	                 * turn (core/end.h) */
	int is_rulings;   /* given as the umpire's rulings (--rulings; a committed umpire.yaml):
	                 * only such a file may say `player: umpire`, and it must */
	char *timelock_failed; /* orders timelocked: why the file gave no orders once opened
	                        * (it did not open, or not to his orders), or NULL */
};

/* One revealed salt of a sealed turn (reveal/turn-NNNN/salts.yaml). */
struct turn_salt {
	char *player;                  /* whose file */
	uint8_t salt[FAIR_HASH_BYTES]; /* the salt revealed */
};

/* Sealed: one player's private view of a turn and its salted commitments, which the export
 * publishes (docs/fairness.md, "Sealed turns"): what `verify --view` opens before the reveal. */
struct turn_view {
	int salted;                           /* the salts are set (derived, or revealed) */
	uint8_t report_salt[FAIR_HASH_BYTES]; /* fair_view_salt(S, t, player, "report") */
	uint8_t state_salt[FAIR_HASH_BYTES];  /* fair_view_salt(S, t, player, "state") */
	struct buf state;                     /* his view of the state (his outbox's state.yaml) */
	uint8_t report_sha256[FAIR_HASH_BYTES]; /* fair_sealed_hash(report_salt, his report) */
	uint8_t state_sha256[FAIR_HASH_BYTES];  /* fair_sealed_hash(state_salt, state) */
};

/* What a turn takes in. */
struct turn_input {
	int turn;                 /* the turn being processed */
	struct order_file *files; /* sorted by player id (byte order) once parsed */
	size_t n_files;
	char **missing; /* due players without a file (--allow-missing) */
	size_t n_missing;
	char *beacon_value;     /* public beacon value (B_t = SHA256 of it); NULL: none */
	char *beacon_round;     /* the round the umpire announced; NULL: none */
	char *beacon_signature; /* the source's signature of the round (hex), journaled; NULL */
};

/* What a turn gives out. */
struct turn_output {
	uint8_t key[FAIR_HASH_BYTES], digest[FAIR_HASH_BYTES];  /* k_t, D_t */
	uint8_t beacon[FAIR_HASH_BYTES], seed[FAIR_HASH_BYTES]; /* B_t, s_t */
	struct dice dice;                                       /* every die, in order */
	struct events events;                                   /* every event, in order */
	char *summary;                                          /* one line */
	struct buf state_yaml;                                  /* new state.yaml bytes */
	uint8_t state_sha256[FAIR_HASH_BYTES];
	void *read_state;         /* render: the rule system's state as the next turn loads
	                           * state_yaml (campaign_emit_read), for reread; NULL: parse it */
	struct buf whole_yaml;    /* sealed: the whole state as the umpire keeps it (reread emits
	                           * it, seal writes it) */
	struct buf journal_yaml;  /* journal/turn-NNNN.yaml bytes */
	struct buf *reports;      /* one per campaign player, campaign order (sealed: private) */
	struct buf public_report; /* sealed: the report everybody may read (committed) */
	size_t n_reports;
	struct buf *maps;         /* one per campaign player, beside reports; NULL: the rule system
	                        * draws none (docs/formats.md "Maps") */
	struct buf public_map;    /* sealed: the public map (committed); shared: the shared map */
	int shared;               /* open, common part over RENDER_SHARE_FROM: public_report is the
				   * turn's shared report, each player's report links it
				   * (docs/formats.md "Shared reports") */
	unsigned char *own_map;   /* shared, maps: per player, 1 when his map differs from the
				   * shared one (committed beside his report), 0 when it is the
				   * shared one (maps[k] left empty); else NULL */
	struct turn_view *views;  /* sealed: one per campaign player, campaign order; else NULL */
	struct buf *game_turns;   /* the game's end: "- SUBJECT\n" of each earlier turn, read from
				   * git once for every report (render_game_end); made by
				   * step_render, empty until then */
	size_t rules_first_die;   /* dice drawn before the rule system's phases (rulings) */
	size_t rules_first_event; /* events recorded before them */
};

/* Where the order files and the turn key come from. */
enum turn_source {
	TURN_LIVE,     /* the files given (turn_add_order_file), the key from the secret */
	TURN_RECORDED, /* a journaled turn re-run: the files committed at `rev`, checked against
	                 * `record`'s hashes; the key and beacon from `record` */
};

enum turn_flags {
	TURN_ALLOW_MISSING = 1 << 0, /* a due player without a file is journaled as 'no orders' */
	TURN_CHECK_ONLY = 1 << 1,    /* `check`: the given files alone, no completeness check */
	TURN_DICE_CHECKED = 1 << 2,  /* TURN_RECORDED: the record's dice were checked against its
					seed (audit_fairness), so the turn reuses their values */
	TURN_CLOSING = 1 << 3,       /* `close`: fix the turn's inputs (recover..close) */
	TURN_PLAIN_ORDERS = 1 << 4,  /* `seal`: the plain order file of a time-locked campaign */
	TURN_PER_PLAYER = 1 << 5,    /* TURN_RECORDED, open: the turn was committed with every
					player's report whole, whatever its size (played before
					shared reports, docs/formats.md) */
};

/* What a run did besides the turn itself, for the command to tell the user. */
enum turn_status {
	TURN_RECOVERED = 1 << 0,    /* a turn a crash left half-done was finished first */
	TURN_ALREADY_DONE = 1 << 1, /* the files given are those of the last turn: nothing to do */
	TURN_ALREADY_CLOSED = 1 << 2, /* `close` of the files the turn was closed with */
};

/* A turn being processed: everything the steps share. */
struct turn {
	struct campaign *c;                  /* the open campaign (not owned) */
	enum turn_source source;             /* where orders and key come from */
	unsigned flags;                      /* enum turn_flags */
	const struct journal_record *record; /* TURN_RECORDED: the turn as journaled (not owned) */
	const char *rev;             /* TURN_RECORDED: where its order files are committed */
	const char *record_name;     /* TURN_RECORDED: how messages name the record */
	long long when;              /* commit time, seconds (live turns) */
	void *state;                 /* the state, mutated into the state after the turn */
	void *before;                /* a copy of the state before the rulings, for the maps */
	int owns_state;              /* 1: load made it, turn_release frees it */
	struct turn_input in;        /* order files, missing players, beacon */
	struct turn_output out;      /* seed, dice, events, rendered files */
	struct diag diag;            /* every problem found in the order files */
	struct journal_record *last; /* recover: the journal's last turn, read once */
	struct journal_record rec;   /* build: the record the journal appends */
	unsigned status;             /* enum turn_status */
	const char *failed_step;     /* the step that failed ("orders": see diag), NULL none */
	int recovered;               /* TURN_RECOVERED: which turn */
	int closed;                  /* a closed turn: close holds what the close fixed */
	struct close_record close;   /* closed: journal/turn-NNNN.close.yaml */
	char close_commit[41];       /* closed: the close commit's id */
	long long round_override;    /* `close --beacon-round R`: the round to name; 0 none */
	struct turn_salt *salts;     /* TURN_RECORDED, sealed: the salts the reveal published */
	size_t n_salts;
	/* What the command should tell besides, one line each (a time-stamp authority that did
	 * not answer the close), and how many time stamps the close committed. */
	struct buf notes;
	size_t stamped;
};

/* Sets up t for campaign c. For TURN_RECORDED pass the record, the revision holding its order
 * files and the state before the turn (mutated, not owned); else record, rev and state are
 * NULL. Release with turn_release. */
void turn_init(struct turn *t, struct campaign *c, enum turn_source source, unsigned flags,
	const struct journal_record *record, const char *rev, void *state);
void turn_release(struct turn *t);

/* Reads the order file at path (at most ORDER_FILE_MAX_BYTES) into t, once; parsing comes in
 * the `orders` step. A file that cannot be read is a diagnostic in t->diag. Returns 0 / -1. */
int turn_add_order_file(struct turn *t, const char *path);
/* turn_add_order_file for the umpire's rulings file, given explicitly by the umpire
 * (`--rulings FILE`): the one file that may, and must, say `player: umpire`. A file that says
 * so but came as a player's order file is refused: nothing in a file says who sent it. */
int turn_add_rulings_file(struct turn *t, const char *path);
/* Adds an order file's bytes (len, copied) under name, as turn_add_order_file does once it
 * has read them (the fuzz targets feed bytes this way). */
void turn_add_order_bytes(struct turn *t, const char *name, const void *bytes, size_t len);
/* The receipt of player's file for the closed turn t (receipt_close: sealed, with his salt).
 * Appends to out. */
void turn_receipt(const struct turn *t, const char *player, struct buf *out);
/* Reads the close of turn n committed at tag close-NNNN into r (release with close_release)
 * and its commit id into commit_id; the file's bytes into bytes too, unless NULL (owned by
 * the caller, who releases them). Returns 0, ERROR_NOTFOUND when the turn was not closed,
 * -1 otherwise. */
int turn_read_close(struct campaign *c, int n, struct close_record *r, char commit_id[41],
	struct buf *bytes);
/* Where `close` keeps the closed files and `reveal` the players' nonces of turn n:
 * .umpire/closed/turn-NNNN and .umpire/reveals/turn-NNNN. A new string. */
char *turn_private_dir(const struct campaign *c, const char *what, int n);
/* Keeps player's nonce for turn, already checked against the close (close_reveal_check), in
 * .umpire/reveals/turn-NNNN/PLAYER (64 hex digits and a line break), durably: what `umpire
 * turn` reads under entropy players. Keeping it again is harmless. Returns 0 / -1. */
int turn_keep_reveal(const struct campaign *c, int turn, const char *player,
	const uint8_t nonce[FAIR_HASH_BYTES]);
/* How many players of close r committed to entropy and have no kept nonce that matches it;
 * their ids are appended to who, comma-separated (close order). */
size_t turn_reveals_missing(const struct campaign *c, const struct close_record *r,
	struct buf *who);

/* The whole state after turn n: state.yaml at tag turn-NNNN when open; when sealed, the
 * reveal's reveal/turn-NNNN/state.yaml, or before the reveal the one the umpire kept
 * (.umpire/sealed/). *turn gets its `turn`; free *state with c->rules->state_free. 0 / -1. */
int turn_load_whole_state(struct campaign *c, int n, int *turn, void **state);

/* Sets the public beacon value and its round (copied; round may be NULL). */
void turn_set_beacon(struct turn *t, const char *value, const char *round);
/* Sets the beacon round's signature (hex, copied; NULL: none), checked against the value when
 * the turn takes its randomness (fair_beacon_signature_check) and journaled with it. */
void turn_set_beacon_signature(struct turn *t, const char *signature);

/* Runs the steps from `first` to `last` (names of the table, inclusive) in order. Returns
 * 0 when every step ran; 1 when a step found there is nothing more to do (t->status says
 * why); -1 on failure (error_last(); class ERROR_INPUT with t->diag holding the order files'
 * problems, ERROR_INPUT for a recorded turn that differs, ERROR_INTERNAL for a bug). */
int turn_run(struct turn *t, const char *first, const char *last);

/* One step of the pipeline. */
struct turn_step {
	const char *name;           /* "recover" … "publish": what turn_run's slices name */
	const char *does;           /* one line, for docs and tests */
	int (*run)(struct turn *t); /* 0 go on, 1 nothing more to do, -1 failed */
};
/* The step table in order, ended by an entry whose name is NULL. */
const struct turn_step *turn_steps(void);

/* The file of player in t, or NULL. */
const struct order_file *turn_find_file(const struct turn_input *in, const char *player);
/* 1 if player was due and is journaled as sending no orders (--allow-missing). */
int turn_is_missing(const struct turn_input *in, const char *player);

/* The files turn t commits (layout_turn_files), each with the bytes the pipeline received or
 * rendered: state.yaml, the journal export, the order files, the reports. Needs the `render`
 * step done. *out sorted by path, owned by the caller (file_list_free); returns the count. */
size_t turn_files(const struct turn *t, struct file **out);

/* The maintenance step between turns (issue 38: no turn packs): once TURN_PACK_EVERY turns
 * have been played since the last packing (.umpire/packed holds that turn), the loose git
 * objects of the turns since go into one pack (repo_pack_loose), so .git grows with the
 * content, not with every turn's rewritten trees; first SQLite's quick_check over the whole
 * journal (commands skip it while the file is as one that found it sound left it: issue 38),
 * failing with its finding (ERROR_INPUT). `umpire run` and `umpire publish` call it,
 * holding the writer lock, after their work; a campaign played with `umpire turn` alone
 * keeps its objects loose (valid; `git gc` packs them too). Safe against a crash at any
 * point. Returns the number of objects packed (0: nothing due), or -1 (the repository is
 * as valid as before). */
int turn_maintain(struct campaign *c);

/* Commits the setup (turn 0): builds the commit of files (sorted by path, owned by the
 * caller) with message "Setup", journals it with its state hash and publishes main and tag
 * turn-0000. The `build`, `journal` and `publish` steps of the table. Returns 0 / -1. */
int turn_commit_setup(struct campaign *c, const struct file *files, size_t n_files,
	const uint8_t state_sha256[FAIR_HASH_BYTES], long long when);

/* B_t for a beacon value: SHA256(value bytes), or 32 zero bytes when value is NULL. */
void turn_beacon(uint8_t out[FAIR_HASH_BYTES], const char *value);
/* head = SHA256(prev || entry): one link of the journal hash chain (docs/fairness.md). */
void turn_chain_head(uint8_t out[FAIR_HASH_BYTES], const uint8_t prev[FAIR_HASH_BYTES],
	const void *entry, size_t len);

#endif
