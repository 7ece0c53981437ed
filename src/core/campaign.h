/* campaign.h — an open campaign: its campaign.yaml, rule system and options, git repository,
 * journal and lock. The game-agnostic handle every command works through. */
#ifndef UMPIRE_CAMPAIGN_H
#define UMPIRE_CAMPAIGN_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include "core/buf.h"
#include "core/diag.h"
#include "core/error.h"
#include "core/node.h"
#include "core/repo.h"
#include "core/journal.h"
#include "core/pbem.h"
#include "rules/rules.h"

#define UMPIRE_PLAYER "umpire"             /* the umpire's own order files */
#define ORDER_FILE_MAX_BYTES (1024 * 1024) /* an order file; 800 orders of ~1 KB fit */
#define ORDER_FILE_MAX_NODES 200000        /* YAML nodes in one order file (~20 an order) */
#define CAMPAIGN_MAX_PLAYERS 16
#define SCENARIO_MAX_BYTES (4 * 1024 * 1024) /* a scenario: 12 sides of 800 figures fit */
#define SCENARIO_MAX_NODES 1000000           /* YAML nodes in a scenario */
#define STATE_MAX_BYTES (16 * 1024 * 1024)   /* a committed state.yaml */
#define STATE_MAX_NODES 1000000              /* YAML nodes in a state.yaml */

enum campaign_open_flags {
	CAMPAIGN_LOCK = 1 << 0,           /* take the exclusive lock (.umpire/lock): turn, init */
	CAMPAIGN_JOURNAL = 1 << 1,        /* open .umpire/journal.sqlite (must exist) */
	CAMPAIGN_JOURNAL_IF_ANY = 1 << 2, /* open it when present (a clone has none) */
	CAMPAIGN_READ_LOCK = 1 << 3,   /* verify, replay: a shared lock on .umpire/readers, waiting
	                              * for a running turn; the journal opened read-only */
	CAMPAIGN_SOUND_LATER = 1 << 4, /* with LOCK and JOURNAL: the journal's soundness check
	                                * is left to campaign_check_sound (run: an idle pass
	                                * writes nothing, and the check reads the whole file) */
};

/* Where the randomness nobody knows at the close comes from (fairness.entropy;
 * docs/fairness.md, "Closed turns"). */
enum campaign_entropy {
	CAMPAIGN_ENTROPY_NONE,    /* no close: the umpire could choose among outcomes */
	CAMPAIGN_ENTROPY_BEACON,  /* a public beacon round after the close */
	CAMPAIGN_ENTROPY_PLAYERS, /* the players' committed nonces, revealed after the close */
};
/* The names of enum campaign_entropy, as campaign.yaml spells them. */
extern const char *const campaign_entropy_names[];
/* Parses an entropy name; -1 when unknown. */
int campaign_entropy_parse(const char *name);
/* Checks one time-stamp authority (name an identifier, url http:// or https://, at most 500
 * bytes, no space or control): NULL when fine, else what is wrong (a static string). */
const char *campaign_timestamp_problem(const char *name, const char *url);

/* Who sees what (`visibility:`; docs/fairness.md, "Sealed turns"). */
enum campaign_visibility {
	CAMPAIGN_OPEN,   /* order files and the whole state committed: everyone sees all */
	CAMPAIGN_SEALED, /* order files and private state withheld until the reveal; the public
	                  * commit holds salted commitments to them */
};
/* The names of enum campaign_visibility, as campaign.yaml spells them. */
extern const char *const campaign_visibility_names[];
/* Parses a visibility name; -1 when unknown. */
int campaign_visibility_parse(const char *name);

/* drand's quicknet chain: the default beacon (docs/fairness.md, "The beacon"). */
#define CAMPAIGN_DRAND_QUICKNET \
	"drand quicknet (https://api.drand.sh/" \
	"52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971/public/ROUND)"
#define CAMPAIGN_DRAND_QUICKNET_GENESIS 1692803367LL
#define CAMPAIGN_DRAND_QUICKNET_PERIOD 3LL
#define CAMPAIGN_BEACON_DELAY 600LL /* default fairness.beacon_delay, seconds */
/* umpire's demo beacon (init --demo-beacon; core/beacon.h): rounds every 3 seconds from
 * 2026-01-01, signed with a secret key published with umpire. */
#define CAMPAIGN_DEMO_BEACON \
	"umpire demo beacon (its secret key is published with umpire: it proves nothing about fairness)"
#define CAMPAIGN_DEMO_BEACON_GENESIS 1767225600LL
#define CAMPAIGN_DEMO_BEACON_PERIOD 3LL

/* A time-stamp authority the campaign names (fairness.timestamps; tstamp.h). */
struct campaign_timestamp {
	char *name; /* an identifier: its tokens are journal/turn-NNNN.close.NAME.tsr */
	char *url;  /* http:// or https://: where umpire POSTs the request at each close */
};
#define CAMPAIGN_MAX_TIMESTAMPS 8

struct campaign {
	char *dir;          /* the campaign directory (work tree) */
	int closes_reread;  /* schedule_load reads every close file again, not what this copy
			     * read before (.git/SCHEDULE_READ): verify --full */
	char *id;           /* campaign id */
	char *title;        /* may be "" */
	char *rules_name;   /* `rules:` */
	int rules_revision; /* `rules_revision:` the rule system's revision it is played with */
	char **players;     /* player ids, in campaign.yaml order */
	size_t n_players;
	const struct rule_system *rules;
	void *options;          /* rules->options_parse */
	uint8_t commitment[32]; /* fairness.commitment */
	uint32_t chain_length;  /* fairness.chain_length */
	int fair;               /* 0 when set up from a --secret-file */
	int entropy;            /* fairness.entropy: enum campaign_entropy */
	char *beacon; /* fairness.beacon: which public randomness is mixed in; NULL none */
	long long beacon_genesis;  /* fairness.beacon_genesis: when round 1 was out, UTC seconds */
	long long beacon_period;   /* fairness.beacon_period: seconds between two rounds */
	long long beacon_delay;    /* fairness.beacon_delay: seconds from a close to its round */
	char *beacon_chain;        /* fairness.beacon_chain: the chain hash (hex); NULL unsigned */
	char *beacon_key;          /* fairness.beacon_public_key: G2 point (hex); NULL unsigned */
	int beacon_demo;           /* fairness.beacon_demo: umpire's demo beacon, proves nothing */
	struct pbem pbem;          /* players' addresses, schedule, publish, mail (play by email) */
	int visibility;            /* `visibility:` enum campaign_visibility */
	struct rules_campaign rc;  /* the view handed to the rule system */
	struct repo *repo;         /* always open */
	struct journal *journal;   /* NULL unless opened */
	int lock_fd;               /* -1 unless locked */
	int readers_fd;            /* .umpire/readers: -1 unless locked */
	struct timespec locked_at; /* CAMPAIGN_LOCK: when the writer lock was taken (its mtime) */
	int secret_exposed; /* campaign_read_secret: .umpire/secret is group/world-readable */
	char **stale_locks; /* CAMPAIGN_LOCK: git lock files a killed run left, removed; or NULL */
	/* fairness.timestamps: the RFC 3161 authorities asked at each close, n_timestamps */
	struct campaign_timestamp *timestamps;
	size_t n_timestamps;
	int sound;                /* the journal's soundness check: 0 not asked, 1 left for later
	            * (CAMPAIGN_SOUND_LATER), 2 passed, -1 failed */
	long long data_version;   /* SQLite's data_version when it passed (campaign_close) */
	int orders_timelocked;    /* `orders: timelocked`: order files time-locked (timelock.h) */
	char *timelock_recipient; /* timelock.recipient: the umpire's age1… (sealed); or NULL */
};

/* Opens the campaign in dir. Returns 0; ERROR_LOCKED when another run holds the lock (with
 * CAMPAIGN_LOCK); -1 otherwise, the message in error_last(): class ERROR_MISSING for no
 * campaign there, ERROR_INPUT for a bad campaign.yaml (its diagnostics in the message). */
int campaign_open(struct campaign **out, const char *dir, unsigned flags);
void campaign_close(struct campaign *c);
/* Closes c's journal (SQLite folds and removes its -wal and -shm files), keeping the rest
 * open and the lock held: what `umpire run` does before it takes the journal's stat for its
 * idle mark (core/idle.h). */
void campaign_close_journal(struct campaign *c);
/* The check campaign_open makes before a command writes to the journal (SQLite's
 * quick_check, the last turn's stored rows against their hashes and git), when it was left
 * for later (CAMPAIGN_SOUND_LATER); once, later calls return its result. 0 / -1
 * (ERROR_INPUT naming what is damaged). */
int campaign_check_sound(struct campaign *c);
/* Notes in .umpire/sound that turn's files rows, as the journal holds them now, match the
 * blobs of its commit (hex id): the turn that wrote both, or the check that compared them.
 * The next check reads the blobs again only when the rows or the last turn differ. A cache,
 * written by rename but not synced (file_write_atomic). 0 / -1 (the file not written: the
 * next check compares the blobs). */
int campaign_note_sound(struct campaign *c, int turn, const char *commit);

/* Why no player can ever get the verdict "fair" for campaign c, whatever receipts he holds
 * (the campaign-wide reasons of docs/fairness.md, "The verdict": entropy none, fair: false,
 * an unsigned beacon, the demo beacon, a chain umpire does not know, no schedule under
 * beacon), in words, "; "-separated, appended to out. Returns how many (0: none). */
size_t campaign_unproven(const struct campaign *c, struct buf *out);

/* Under a schedule whose missing is no-orders (entropy beacon), a close's witness (a receipt
 * mail's arrival) comes no later than the turn's deadline plus grace plus this many seconds,
 * which is shorter than beacon_delay (init refuses a schedule with beacon_delay at or below
 * it): a close made at the deadline cannot be resolved, seen and made again inside it
 * (docs/fairness.md, "The verdict"). */
#define CLOSE_WITNESS_WINDOW 300

/* Sets what is told when campaign_open waits for a lock (a turn for the readers of a
 * running verify or replay, they for a running turn): one line, for src/cmd to print. NULL:
 * wait silently. */
void campaign_set_wait_notice(void (*notice)(const char *message));

/* What a new campaign is made of (campaign_create). */
struct campaign_spec {
	const char *dir;           /* the new campaign directory: absent or empty */
	const char *scenario_name; /* the scenario's file name, for diagnostics */
	const void *scenario;      /* the scenario's bytes (YAML) */
	size_t scenario_len;
	const char *id;        /* campaign id; NULL: the scenario's, else dir's name */
	uint8_t secret[32];    /* the umpire's secret (from the OS CSPRNG, or a test file) */
	int fair;              /* 0 when the secret came from a file */
	uint32_t chain_length; /* turn keys in the chain */
	int entropy;           /* enum campaign_entropy */
	const char *beacon;    /* fairness.beacon: the public randomness source; NULL none */
	long long beacon_genesis, beacon_period, beacon_delay; /* seconds (beacon only) */
	const char *beacon_chain; /* the chain hash; NULL: a beacon without signatures */
	const char *beacon_key;   /* the chain's public key (with beacon_chain) */
	int beacon_demo;          /* umpire's demo beacon */
	int visibility;           /* enum campaign_visibility */
	long long when;           /* the setup's commit time, seconds */
	/* --tsa: the time-stamp authorities to name, n_timestamps of them */
	const struct campaign_timestamp *timestamps;
	size_t n_timestamps;
	int orders_timelocked;          /* --orders timelocked */
	const char *timelock_recipient; /* sealed and timelocked: the umpire's age1… */
	const char *timelock_identity;  /* its AGE-SECRET-KEY-1… line, kept in .umpire/ */
};

/* Creates the campaign spec describes: checks the scenario (problems into d, then -1 with
 * class ERROR_INPUT, nothing written), then the directory, .umpire/ (secret 0600, journal),
 * the git repository and the setup commit "Setup" tagged turn-0000, journaled as turn 0.
 * *out is the open campaign (close with campaign_close). Returns 0 / -1 (error.h; class
 * ERROR_CREATE when dir is in use or cannot be made). */
int campaign_create(struct campaign **out, const struct campaign_spec *spec, struct diag *d);

/* Parses campaign.yaml bytes into c's fields (id … fairness), reporting into d. Used by
 * campaign_open and by replay on historical versions. Returns 0 / -1. */
int campaign_parse(struct campaign *c, const char *file, const struct buf *bytes, struct diag *d);

/* Checks `players` (a sequence of {id, ...} maps: identifiers, none 'umpire', no duplicates,
 * as many as c->rules takes when c->rules is set) and appends their ids to c->players.
 * Problems go to d at the nodes' positions. Returns 0 / -1. */
int campaign_parse_players(struct campaign *c, const struct node *players, struct diag *d);

/* Loads state.yaml as of rev ("HEAD", "turn-0003"): *turn gets its `turn`, *state the rule
 * system's state (free with c->rules->state_free). Returns 0 / -1 (error.h; an invalid
 * state's diagnostics are in the message). */
int campaign_load_state(struct campaign *c, const char *rev, int *turn, void **state);

/* campaign_load_state from bytes already read (a sealed campaign's private state); rev names
 * where they came from in messages. Returns 0 / -1. */
int campaign_parse_state(struct campaign *c, const char *rev, const struct buf *bytes, int *turn,
	void **state);

/* Emits the canonical state.yaml bytes for state after `turn` onto out, as player may know it
 * (the rule system's state_view hook); player NULL is the public view, what state.yaml holds.
 * A rule system without state_view shows everyone the whole state (state_emit). */
int campaign_emit_state(const struct campaign *c, int turn, const void *state, const char *player,
	struct buf *out);

/* The whole state after `turn` as state.yaml bytes (state_emit, whatever state_view hides):
 * what a sealed campaign keeps privately and publishes at the reveal. Appends to out. */
int campaign_emit_whole_state(const struct campaign *c, int turn, const void *state,
	struct buf *out);

/* The state.yaml a turn commits: the whole state when the campaign is open, the public view
 * (state_view, player NULL) when sealed. Appends to out. */
int campaign_emit_committed_state(const struct campaign *c, int turn, const void *state,
	struct buf *out);

/* campaign_emit_committed_state (whole: campaign_emit_whole_state), and in *read the state as
 * the next turn loads it from those bytes, as campaign_parse_state would give it, made from the
 * tree they were written from (node_as_read) rather than by parsing them; *read NULL when
 * that cannot stand for parsing them (written by libyaml, over a limit, refused): parse them.
 * Free *read with c->rules->state_free. Returns 0, or -1 when the bytes cannot be emitted. */
int campaign_emit_read(struct campaign *c, int turn, const void *state, int whole, struct buf *out,
	void **read);

/* Reads the 32-byte secret from .umpire/secret (the text read is wiped; the caller wipes
 * secret, e.g. sodium_munlock). Sets c->secret_exposed when the file is readable by its group
 * or others. Returns 0 / -1 (class ERROR_MISSING). */
int campaign_read_secret(struct campaign *c, uint8_t secret[32]);
struct journal_record;
/* The journal's stored copies of the order files of r (journal_record_check), salted with
 * the secret when the campaign is sealed (its sha256 column is then the salted commitment).
 * 0, or -1 (ERROR_INPUT naming what is damaged; the secret's error when it cannot be read). */
int campaign_check_stored_orders(struct campaign *c, const struct journal_record *r);

/* The campaign's players plus "umpire", sorted by byte order of id: the order of the orders
 * digest and of a journal export's `orders` list. A malloc'd array (free it) of c's strings;
 * *n gets its length. */
const char **campaign_ids(const struct campaign *c, size_t *n);

/* 1 if id is a player of the campaign. */
int campaign_has_player(const struct campaign *c, const char *id);

/* Who won the game that ended in state, by the scenario's victory conditions (the rule
 * system's victory hook, docs/rules/NAME.md "Victory"). Appends one line of plain text (no
 * Markdown: the caller escapes it for its sink) to out: "P wins: WHY", "a draw: WHY", or
 * "no winner by the scenario's conditions (it states none): the umpire rules who won".
 * *winner (may be NULL) gets the winner's id (one of c->players) or NULL. Returns 1 when the
 * conditions decided (a winner or a draw), 0 when they name none. */
int campaign_victory(const struct campaign *c, const void *state, const char **winner,
	struct buf *out);

#endif
