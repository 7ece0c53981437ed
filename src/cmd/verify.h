/* verify.h — private to `umpire verify` (src/cmd/verify*.c): the state of one run and the
 * checks one file of it calls in another. */
#ifndef UMPIRE_CMD_VERIFY_H
#define UMPIRE_CMD_VERIFY_H

#include <stddef.h>
#include <stdint.h>
#include "core/fair.h"

struct audit_turn;
struct buf;
struct campaign;
struct close_record;
struct file;
struct journal_record;
struct tstamp_trust;

struct verify {
	struct campaign *c;
	char (*chain)[41]; /* main's commits, Setup first */
	size_t n_chain;
	int last_tag;               /* the highest turn-NNNN tag, -1 none */
	int last_journal;           /* the journal's last turn; -1 empty or no journal */
	uint8_t head[32];           /* the journal hash chain up to the turn being checked */
	size_t dice;                /* dice checked in all turns */
	const char *pin_commitment; /* --commitment HEX: what the umpire announced, or NULL */
	const char *pin_setup;      /* --setup HEX: SHA-256 of the Setup's campaign.yaml, or NULL */
	int progress;               /* stderr is a terminal: show "verifying turn t/n" */
	int closes;                 /* entropy beacon or players: a close commit before each turn */
	int sealed;                 /* visibility sealed and no reveal yet: fairness only */
	int revealed;               /* sealed and revealed: main's tip is the reveal commit */
	const char **receipts;      /* --receipt FILE..., NULL-terminated */
	size_t n_receipts;
	const char **receipts_of; /* --receipts-of PLAYER...: his receipts are all given */
	size_t n_receipts_of;
	const char **views; /* --view DIR...: a player's files of one or more turns (sealed) */
	size_t n_views;
	const char **trust_tsa; /* --trust-tsa CERT.pem...: authorities trusted beside the
	                         * built-in ones */
	size_t n_trust_tsa;
	struct tstamp_trust *tsa_trust; /* the system roots and trust_tsa, opened when needed */
	int full; /* --full: every turn again, not only those after the head last verified */
	const char **trust; /* --trust-chain HASH:KEY...: chains the player trusts besides
	                     * the built-in ones (drand quicknet) */
	size_t n_trust;
	int json;      /* --json: the verdict as one JSON object, no text lines */
	int last_turn; /* the last resolved turn verified */
	int threads;   /* the threads that checked the turns (--json "threads"): 1 unless
	                * verify_turns_parallel started more (UMPIRE_VERIFY_THREADS) */
	/* witnessed[t] (0 <= t < n_witnessed): turn t's close has a witness in time: a receipt
	 * mail of a player whose topmost Received: date is at or after the close's closed_at and
	 * before its round's round_at (set by verify_receipts.c), or an RFC 3161 time-stamp token
	 * from an authority the verifier trusts (set by the time-stamp check). A resolved closed
	 * turn without it gives the reason unwitnessed-close (docs/fairness.md, "The verdict"). */
	unsigned char *witnessed;
	size_t n_witnessed;
	int *lacking; /* turns a --receipt witnesses whose close is not on main */
	size_t n_lacking;
	struct buf *out; /* not NULL: say() appends here (a turn checked on a thread) */
};

/* verify.c: the output, the history and a turn's own commit */
void say(struct verify *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *ordinal(size_t n);
/* The commit's trailers against the turn, the commitment and the recomputed chain head,
 * which goes to head (and becomes v->head). */
int check_trailers(struct verify *v, int t, const char *tag, const char *entry_path,
	const struct buf *entry, uint8_t head[FAIR_HASH_BYTES]);
/* Tag turn-t must be main's t-th commit after Setup. */
int check_position(struct verify *v, int t, const char *tag, char tag_id[41]);
/* path must be the same at main's tip as at tag: no later commit may change a turn. */
int same_at_main(struct verify *v, int t, const char *tag, const char *path);
/* The turn's files at main's tip are the ones of its tag. */
int check_unchanged(struct verify *v, int t, const char *tag);
/* Tag turn-t exists, or why it does not where it should. */
int check_tag_exists(struct verify *v, int t, const char *tag);
/* The committed export of turn t, parsed, its bytes in bytes. */
int read_turn_export(struct verify *v, int t, const char *tag, const char *path, struct buf *bytes,
	struct journal_record **ex);

/* One turn: fairness and re-resolution from the export, then chain, history, journal;
 * v->head is the chain head before it, and after it when it passed. 0 / -1. */
int verify_turn(struct verify *v, int t);

/* verify_parallel.c */
/* Turns *from to last checked on UMPIRE_VERIFY_THREADS threads (default: 2, or 1 on one
 * core), each with its own repository and journal handle, their lines printed and the first
 * failure reported in turn order, as one thread would: 0 when they all passed (*from is then
 * last + 1) or when one thread was asked for (*from unchanged: the caller checks them); -1
 * at the first failing turn, its message in error_last(). */
int verify_turns_parallel(struct verify *v, int *from, int last);

/* verify_journal.c */
/* The SQLite journal's turn t against git: its rows against the re-resolved turn (and so
 * against the export and the committed files), its chain head against the trailer, its
 * commit id against the tag, its files rows against the committed blobs. */
int check_journal(struct verify *v, int t, const char *tag, const char *tag_id,
	const uint8_t head[FAIR_HASH_BYTES], const struct audit_turn *at,
	const struct journal_record *ex, const struct buf *state_yaml);

/* verify_sealed.c */
/* Turn t's close: tag close-t is main's commit just before the turn's, a commit of exactly
 * the close file in its canonical form on the turn before, with the message its content
 * gives; the file is unchanged at main. What it fixed against the turn itself (digest,
 * hashes, round, reveals) is checked by the pipeline's closed, close and randomness steps
 * when audit_resolve re-runs the turn. */
int check_close(struct verify *v, int t, struct close_record *keep);
/* A sealed turn before the reveal: what the clone can prove without the withheld files. */
int verify_sealed_turn(struct verify *v, int t);
/* The reveal's salts.yaml lists, beside each player's view salts, the commitments they open:
 * they must be the export's views (the re-resolution proved the salts open those). */
int check_revealed_views(struct verify *v, int t, const struct journal_record *ex);
/* The whole state the re-resolved turn left is the one the reveal publishes for it. */
int check_revealed_state(struct verify *v, int t, const void *state);
/* The reveal commit: main's tip, on the last turn, holding exactly reveal/turn-NNNN/ of every
 * turn (state.yaml, and after the setup salts.yaml and the order files) and the message
 * layout_reveal_message gives: rebuilt, its id must be the tag's. */
int check_reveal_commit(struct verify *v, int last);
/* Sealed: a tag `reveal` must be main's tip; it is then left out of the turns' positions. */
int find_reveal(struct verify *v);

/* verify_stamps.c */
/* Opens v->tsa_trust (the system's roots and --trust-tsa) once. 0 / -1 (ERROR_INPUT: a
 * --trust-tsa file holds no certificate). */
int verify_stamps_open(struct verify *v);
/* The time stamps of close r of turn t (the close file's bytes, committed at tag): each
 * authority of campaign.yaml that has a token there must have a sound one of bytes, its
 * genTime in the close's witness window; one from a trusted authority sets
 * v->witnessed[t]. Each token is appended to files (for the close commit's rebuild) and must
 * be unchanged at main. One line each on what it found. 0 / -1. */
/* Orders timelocked: the close's committed ciphertexts (timelocked/turn-NNNN/PLAYER.age at
 * tag), each the file whose hash close r fixed, one per player's file, added to files for the
 * rebuild of the close commit (verify_timelock.c). 0, or -1 (ERROR_INPUT saying which). */
int verify_timelocked_files(struct verify *v, int t, const char *tag, const struct close_record *r,
	struct file **files, size_t *n_files);
/* A sealed time-locked turn before the reveal, its round's signature in the export ex (already
 * checked): each time-locked file of close r opens with it to an age file to one X25519
 * recipient, the umpire's key, or the turn journals EVENTS_VOID_FILE for its player; *opened
 * counts those that open. 0, or -1 (ERROR_INPUT saying which; ERROR_UNAVAILABLE without node). */
int verify_timelocked_sealed(struct verify *v, int t, const struct close_record *r,
	const struct journal_record *ex, size_t *opened);
int check_close_stamps(struct verify *v, int t, const char *tag, const struct close_record *r,
	const struct buf *bytes, struct file **files, size_t *n_files);

/* verify_receipts.c */
/* Every --receipt against the history, then every --receipts-of. 0 / -1. */
int check_receipts(struct verify *v);

/* verify_verdict.c */
/* --trust-chain HASH:KEY against the Setup: the chain campaign.yaml names, when the player
 * names it, must have the key he gives. 0, or -1 (ERROR_INPUT). */
int check_trusted_key(const struct verify *v);
/* The verdict after the checks: res 0 (every check passed) or -1 (the failure in
 * error_last()). Prints the verdict (text or --json) and returns the exit status: 0 fair,
 * EXIT_NOT_PROVEN (3) consistent, not proven fair, 65 failed. */
int verify_verdict(struct verify *v, int res);
#define EXIT_NOT_PROVEN 3 /* docs/fairness.md, "The verdict" */

/* verify_view.c */
/* --view DIR: a player's files of sealed turns against the clone, turn by turn: the
 * unnumbered names of one turn (salt.yaml ...), then each turn whose salt-NNNN.yaml DIR
 * holds, in turn order. */
int check_view(struct verify *v, const char *dir);

#endif
