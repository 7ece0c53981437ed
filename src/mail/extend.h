/* extend.h — a player's extension asked by mail: `extend 24h` alone in the body of a mail
 * from one of his addresses (docs/formats.md "Umpire's overrides"), granted within his budget
 * (schedule.extensions) as an override on the record (core/schedule.h). */
#ifndef UMPIRE_EXTEND_H
#define UMPIRE_EXTEND_H

#include "core/buf.h"

struct campaign;

enum extend_answer {
	EXTEND_NOT = -2,    /* the command is no `extend DURATION`: the mail is read as orders */
	EXTEND_GRANTED = 0, /* recorded and announced to every player */
	EXTEND_REFUSED = 1, /* why says so, one line per problem */
};

/* Handles command (the mail's first line, mail_in.command) from player (an index of
 * c->players, or -1 for a stranger) at now: when it is `extend DURATION`, records the
 * extension (schedule_add) for the first turn not closed, queues its announcement to every
 * player and writes into granted one line saying what moved. Returns an enum extend_answer,
 * or -1 (error_last()). */
int extend_request(struct campaign *c, int player, const char *command, long long now,
	struct buf *why, struct buf *granted);

#endif
