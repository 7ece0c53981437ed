/* inbox.h — orders by mail (`umpire inbox`): each new message of a Maildir is read (mail.h),
 * its order file checked exactly as `umpire check` does (the turn pipeline's load..orders
 * slice), stored as its player's current orders for the open turn when accepted, recorded in
 * the journal's submissions either way, answered through the outbox, and only then moved to
 * the Maildir's cur/: a crash at any point leaves the message in new/, and handling it again
 * gives the same files and no second record. docs/formats.md, "Play by email". */
#ifndef UMPIRE_INBOX_H
#define UMPIRE_INBOX_H

#include <stddef.h>
#include "core/buf.h"
#include "core/fair.h"

struct campaign;

#define INBOX_MAX_MESSAGES 1000 /* messages handled in one run (the rest wait for the next) */
#define INBOX_UNCLAIMED_AFTER \
	3600                         /* seconds another campaign's mail may wait in new/: then
                                    * the campaign that sees it answers with the campaigns here
                                    * and files it */
#define MAIL_HEAD_BYTES (256 * 1024) /* of a message over the limit, read to answer it */
#define INBOX_CHECK_TIMEOUT 120      /* seconds one mail's check may take ($UMPIRE_CHECK_TIMEOUT) */
#define INBOX_FAILED_DIR "umpire-failed" /* in the Maildir: mail whose check failed */

/* What happened to one message. */
enum inbox_verdict {
	INBOX_ACCEPTED,   /* orders stored, acceptance queued */
	INBOX_REFUSED,    /* a reply with every problem queued; nothing else changed */
	INBOX_DUPLICATE,  /* a Message-ID already handled: moved to cur/, nothing else */
	INBOX_FOREIGN,    /* orders for another campaign: left in new/ for its inbox */
	INBOX_UNREADABLE, /* no message, or no sender to answer: moved to cur/, recorded */
	INBOX_AUTOMATIC,  /* automatic, bulk or list mail, or a bounce (RFC 3834): moved to cur/,
	                   * never answered */
	INBOX_FAILED,     /* its check crashed, failed unexpectedly or took too long: answered,
	                   * recorded as refused, moved to INBOX_FAILED_DIR; the next is read */
};

/* One message handled. */
struct inbox_item {
	char *name;                 /* its file name in new/ */
	enum inbox_verdict verdict; /* what happened */
	char *player;               /* ACCEPTED: whose orders; else NULL */
	char *detail;               /* one line: the hash, or why refused */
	int reveal;                 /* the file was a reveal (entropy players), not orders */
};

struct inbox_report {
	int turn;                 /* the open turn */
	struct inbox_item *items; /* in the order handled */
	size_t n_items;
};

/* Handles every message in maildir/new (oldest delivery first, then by name) for campaign
 * c (opened with CAMPAIGN_LOCK | CAMPAIGN_JOURNAL) at time now (UTC seconds: when handled).
 * Accepted files go to .umpire/inbox/turn-NNNN/PLAYER.yaml, replies to .umpire/outbox/new/.
 * Automatic mail (RFC 3834), an empty file and mail already handled are only moved to cur/;
 * mail over MAIL_MAX_BYTES gets a reply saying the limit; after the game's end every file
 * gets "the game is over"; mail for another campaign stays in new/ INBOX_UNCLAIMED_AFTER
 * seconds, then gets one reply listing the campaigns that share the Maildir (each inbox
 * registers its campaign in maildir/umpire-campaigns/) and is filed. Each mail is checked in
 * a child process: one whose check crashes, fails with an internal error or takes longer than
 * INBOX_CHECK_TIMEOUT is answered, recorded and moved to maildir/INBOX_FAILED_DIR/, and the
 * next mail is read (INBOX_FAILED).
 * rep gets what happened (release with inbox_report_release). Returns 0, or -1 when the
 * campaign, the Maildir or a disk failed (messages not yet handled stay in new/). */
int inbox_run(struct campaign *c, const char *maildir, long long now, struct inbox_report *rep);
void inbox_report_release(struct inbox_report *rep);

/* 1 when the game of c is over, with why (a new string) in *why: the campaign is revealed,
 * the rule system ends it (its game_over) before the open turn, or the key chain is used up;
 * 0 while it goes on (*why NULL); -1 when the state cannot be read. */
int inbox_game_over(struct campaign *c, char **why);

/* Where the accepted orders of turn are kept: .umpire/inbox/turn-NNNN (a new string). */
char *inbox_turn_dir(const struct campaign *c, int turn);
/* The open turn: the journal's last turn + 1. Returns 0 / -1. */
int inbox_open_turn(struct campaign *c, int *turn);

struct turn;
/* Adds the open turn's kept orders (each PLAYER.yaml in .umpire/inbox/turn-NNNN, by name) to t, for
 * `close --inbox` and `turn --inbox`. *n gets how many. Returns 0 / -1. */
int inbox_add_to_turn(struct campaign *c, struct turn *t, size_t *n);

/* 1 when the schedule lets turn close without its missing players at now: the deadline and
 * the grace are over and `missing` is no-orders (a campaign without a schedule: never). */
int inbox_missing_allowed(const struct campaign *c, int turn, long long now);

/* One player in the open turn's status. */
struct inbox_player_status {
	const char *player;              /* id (the campaign's string) */
	int due;                         /* must send orders this turn */
	int sent;                        /* has current orders (.umpire/inbox/turn-NNNN) */
	uint8_t sha256[FAIR_HASH_BYTES]; /* sent: the current file's SHA-256 */
	long long sent_at;               /* sent: when the accepted mail arrived; 0 unknown */
	size_t submissions;              /* mails recorded from this player this turn */
};

/* The open turn as `umpire status` shows it. */
struct inbox_status {
	int turn;                            /* the open turn */
	int closed;                          /* it has a close tag */
	long long deadline;                  /* UTC seconds, -1 without a schedule */
	long long grace_end;                 /* deadline + grace, -1 without */
	int game_over;                       /* the game has ended: no turn is open */
	char *over;                          /* game_over: why (inbox_game_over) */
	char *result;                        /* game_over: who won (campaign_victory) */
	char *winner;                        /* game_over: the winner's id; NULL: none or a draw */
	int revealed;                        /* the campaign has its tag `reveal` */
	struct inbox_player_status *players; /* campaign order */
	size_t n_players;
	size_t pending_mail;  /* replies and reports in the outbox not yet sent */
	int reveals;          /* closed under entropy players: the fields below are set */
	size_t n_unrevealed;  /* committed players whose nonce is not in yet */
	char *unrevealed;     /* their ids, ", "-separated ("" when none) */
	long long reveal_end; /* when umpire run stops waiting for them; -1 without a schedule */
};

/* Reads the status of c's open turn (c opened with CAMPAIGN_JOURNAL). Release with
 * inbox_status_release. Returns 0 / -1. */
int inbox_status(struct campaign *c, struct inbox_status *out);
void inbox_status_release(struct inbox_status *s);

#endif
