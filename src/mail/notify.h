/* notify.h — the mail umpire writes on its own, queued in the outbox (outbox.h) under names
 * that say what and for whom, so queueing again is harmless and nothing is sent twice: a
 * closed turn's receipts, a resolved turn's reports, reminders before a deadline.
 * docs/formats.md, "Play by email". */
#ifndef UMPIRE_NOTIFY_H
#define UMPIRE_NOTIFY_H

#include <stddef.h>
#include <stdint.h>

struct campaign;

/* Queues to every player with an address whom the close names (a file from him, or none) the
 * receipt (receipt.h) of the close of turn (receipt-NNNN-
 * PLAYER), read back from tag close-NNNN. *n gets how many were queued. Returns 0,
 * ERROR_NOTFOUND when the turn is not closed, -1. */
int notify_receipts(struct campaign *c, int turn, long long now, size_t *n);

/* Queues player's reveal receipt of turn (reveal-receipt-NNNN-PLAYER; receipt.h), his nonce
 * taken: the witness that he revealed. Returns 0, 1 when he has no address, -1. */
int notify_reveal_receipt(struct campaign *c, int turn, const char *player, const uint8_t nonce[32],
	long long now);

/* Queues to every player with an address his report of turn (report-NNNN-PLAYER), read
 * from tag turn-NNNN: the report as the body and as an attachment. Under entropy players a
 * player not due on turn + 1 of a game that goes on also gets his contribution template for
 * it (contribution-NNNN.yaml, NNNN = turn + 1) attached, and a paragraph saying so after the
 * report in the body; the report itself is not changed. Returns 0, ERROR_NOTFOUND when the
 * turn was not processed, -1. */
int notify_reports(struct campaign *c, int turn, long long now, size_t *n);

/* Queues to every player with an address his turn-0 briefing (briefing-0000-PLAYER): his
 * view of the table before turn 1 and the head of his first order file, as the body and as
 * briefing.md, with his map (briefing.svg) when the rule system draws one; read from tag
 * turn-0000 (open) or his outbox folder (sealed, .umpire/outbox/PLAYER/briefing/). A
 * campaign set up before briefings has none: nothing queued. Returns 0 / -1. */
int notify_briefings(struct campaign *c, long long now, size_t *n);

/* Queues a reminder (remind-NNNN-PLAYER) to every player due on turn who has not sent
 * orders by mail, with the deadline; under entropy players also to every player not due who
 * has sent no contribution, with his contribution template in the body and attached
 * (contribution-NNNN.yaml). Nothing once the turn is closed or the game over. 0 / -1. */
int notify_reminders(struct campaign *c, int turn, long long now, size_t *n);

/* The address umpire's mail of campaign c comes from: mail.from, else umpire@localhost (a
 * static string or c's). */
const char *notify_from(const struct campaign *c);

/* The Message-ID (without <>) of umpire's message `what` of campaign c, into out:
 * umpire.WHAT.CAMPAIGN.COMMITMENT12@DOMAIN (the first 12 hex digits of the campaign's
 * commitment, so a later campaign of the same id has other ids; DOMAIN: mail.from's). */
void notify_message_id(char *out, size_t size, const struct campaign *c, const char *what);

/* Queues to every player with an address the mail that says the game of c is over (why), who
 * won (result: inbox_status's line), how its outcome is published (the last turn's tag; a
 * sealed campaign's tag `reveal`) and how to verify it (end-PLAYER), once per player.
 * Returns 0 / -1. */
int notify_game_end(struct campaign *c, const char *why, const char *result, long long now,
	size_t *n);

/* Queues to every player with an address the announcement of the umpire's override index k
 * of c->pbem (core/schedule.h): what changed, why, the open turn's deadline now, and that the
 * close of its turn commits it; outbox name override-K-NNNN-PLAYER. *n counts them. 0 / -1. */
int notify_override(struct campaign *c, size_t k, long long now, size_t *n);

/* Queues to player i's new player (a stand-in from turn) his side's briefing and its last
 * report (turn - 1's), under names of their own (standin-NNNN-...). *n counts them. 0 / -1. */
int notify_standin(struct campaign *c, size_t i, int turn, long long now, size_t *n);

#endif
