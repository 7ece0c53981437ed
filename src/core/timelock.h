/* timelock.h — time-locked orders (issue 36; docs/fairness.md, "Time-locked orders"): files
 * encrypted with drand's tlock to the beacon round a turn's close names, so nobody, the umpire
 * included, reads them before that round is out. umpire writes no cryptography: it spawns
 * umpire-tlock (node, on drand's tlock-js and typage) through spawn.h, as it does the BLS
 * helper, and keeps its own part to the rounds, the files' names and what the pipeline does
 * with the plaintext.
 *
 * Where the tool is (timelock_tool_path): $UMPIRE_TLOCK when set; else the build tree
 * (build/web/umpire-tlock.mjs, beside build/VARIANT/ where umpire runs, or one folder up for
 * a unit test); else ../share/umpire/web/umpire-tlock.mjs from the running umpire (make
 * install). node is looked for on $PATH. */
#ifndef UMPIRE_TIMELOCK_H
#define UMPIRE_TIMELOCK_H

#include <stddef.h>
#include "core/buf.h"

struct campaign;
struct turn;
struct order_file;

#define TIMELOCK_TIMEOUT 120                         /* seconds the tool may take for one file */
#define TIMELOCK_IDENTITY "timelock-identity"        /* in .umpire/: the umpire's age identity */
#define TIMELOCK_REVEALED "reveal/timelock-identity" /* the identity, committed at the reveal */
#define TIMELOCK_SUFFIX ".age"    /* what `umpire seal` adds to an order file's name */
#define TIMELOCK_DIR "timelocked" /* the close commits timelocked/turn-NNNN/PLAYER.age */

/* R(turn): the round time-locked orders for turn (>= 1) are encrypted to, and exactly the one
 * the turn's close names: the first round of the campaign's chain out at or after
 * deadline(turn) + grace + CLOSE_WITNESS_WINDOW + beacon_delay (integer arithmetic; the
 * deadline from pbem_deadline, so a schedule's changes flow through). -1 when the campaign has
 * no schedule or no beacon. */
long long campaign_turn_round(const struct campaign *c, int turn);

/* When round is not R(turn) but was, before a schedule change (an extension, a pause or a
 * resume of turn or an earlier one, core/schedule.h) moved it: the time (UTC seconds) of the
 * latest such change; else -1. A file sealed to it was sealed before that change. */
long long timelock_former_round(const struct campaign *c, int turn, long long round);

/* For a campaign with orders timelocked, one line appended to b: "orders: time-locked to
 * round R (out at UTC)" for turn, and with markdown nonzero (a report's template) how to seal
 * and send the file; nothing for plain orders. The report names R(turn) as the schedule stood
 * when it was written (the overrides of earlier turns: a report re-rendered by verify must
 * say what it said); the other lines name R(turn) as it stands. */
void timelock_note(struct buf *b, const struct campaign *c, int turn, int markdown);

/* The path of umpire-tlock.mjs: a new string, or NULL with ERROR_UNAVAILABLE naming every place
 * looked at. */
char *timelock_tool_path(void);

/* What `umpire-tlock inspect` says of a file: *round its round, chain its chain hash (64 hex
 * digits). 0; -1 with ERROR_INPUT and the tool's reason when it is not a time-locked file;
 * ERROR_UNAVAILABLE without node or the tool; ERROR_OS when the tool fails. */
int timelock_inspect(const void *bytes, size_t len, long long *round, char chain[65]);

/* Encrypts plain (len bytes) to round of c's chain, first to recipient (age1…) when not
 * NULL; the armored file appended to out. 0 / -1 (as timelock_inspect). */
int timelock_seal(const struct campaign *c, long long round, const char *recipient,
	const void *plain, size_t len, struct buf *out);

/* Opens the time-locked bytes with round's signature (hex, already checked against the
 * chain's key), and the inner layer with the identity file when identity is not NULL; the
 * plaintext appended to out. 0; -1 with ERROR_INPUT and the tool's reason when it does not
 * open; other classes as timelock_inspect. */
int timelock_open(const struct campaign *c, long long round, const char *signature,
	const char *identity, const void *bytes, size_t len, struct buf *out);

/* Opens the time-locked bytes' outer layer alone with round's signature (hex, already checked)
 * and checks that it holds an armored age file to exactly one X25519 recipient: what a sealed
 * campaign's file is before the reveal (docs/fairness.md, "Time-locked orders"). 0; -1 with
 * ERROR_INPUT and the reason when it does not open or holds something else; other classes as
 * timelock_inspect. */
int timelock_check_inner(const struct campaign *c, long long round, const char *signature,
	const void *bytes, size_t len);

/* A new age X25519 identity: the `AGE-SECRET-KEY-1…` line into identity (wipe and free it),
 * the `age1…` recipient into recipient (free it). 0 / -1. */
int timelock_keygen(char **identity, char **recipient);

/* 1 when s is an age X25519 recipient as campaign.yaml may hold one (age1 and 58 lower-case
 * bech32 characters). */
int timelock_recipient_ok(const char *s);

/* The player a time-locked file is from, by its name: the base name without ".age" and then
 * without ".yaml" (north.yaml.age, north.age, orders/turn-0001/north.yaml: north). A new
 * string. */
char *timelock_player_of(const char *path);

/* The pipeline's `orders` step for one time-locked file f of a turn: checks with inspect that
 * it is locked to R(turn) of the campaign's chain and takes its player from its name
 * (timelock_player_of; a due player of the campaign, once); problems into t->diag. Its bytes
 * stay the ciphertext: they are what the close hashes and commits. At a close (not a check:
 * the inbox refuses it), a file locked to a round R(turn) was before a schedule change
 * (timelock_former_round) is taken too, with f->timelock_failed saying so: it counts as no
 * orders. 0, or -1 when the tool cannot run (ERROR_UNAVAILABLE without node, ERROR_OS):
 * never for a bad file. */
int timelock_take(struct turn *t, struct order_file *f);

/* After the round's signature is checked: opens each time-locked file of t (not the umpire's
 * rulings) and parses the plaintext as an order file; one that does not open, or opens to
 * something other than an order file of its player for the turn, gets no orders and the
 * reason in f->timelock_failed (resolve journals EVENTS_VOID_FILE, events.h). 0, or -1 when the
 * tool cannot run at all (never for a bad file). */
int timelock_open_files(struct turn *t);

#endif
