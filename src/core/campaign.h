/* campaign.h — an open campaign: its campaign.yaml, rule system and options, git repository,
 * journal and lock. The game-agnostic handle every command works through. */
#ifndef UMPIRE_CAMPAIGN_H
#define UMPIRE_CAMPAIGN_H

#include <stddef.h>
#include <stdint.h>
#include "core/buf.h"
#include "core/diag.h"
#include "core/node.h"
#include "core/repo.h"
#include "core/journal.h"
#include "rules/rules.h"

/* sysexits(3) codes, named here so every command uses the same ones. */
enum exit_code {
	EXIT_OK = 0,
	EXIT_USAGE = 64,       /* EX_USAGE */
	EXIT_DATAERR = 65,     /* EX_DATAERR: bad input, failed replay */
	EXIT_NOINPUT = 66,     /* EX_NOINPUT: no such campaign or file */
	EXIT_SOFTWARE = 70,    /* EX_SOFTWARE: internal error */
	EXIT_CANTCREAT = 73,   /* EX_CANTCREAT */
	EXIT_IOERR = 74,       /* EX_IOERR */
	EXIT_TEMPFAIL = 75,    /* EX_TEMPFAIL: campaign locked */
};

#define UMPIRE_PLAYER "umpire"          /* the umpire's own order files */
#define ORDER_FILE_MAX_BYTES (64 * 1024)
#define CAMPAIGN_MAX_PLAYERS 16

enum campaign_open_flags {
	CAMPAIGN_LOCK = 1 << 0,      /* take the exclusive lock (.umpire/lock): turn, init */
	CAMPAIGN_JOURNAL = 1 << 1,   /* open .umpire/journal.sqlite (must exist) */
	CAMPAIGN_JOURNAL_IF_ANY = 1 << 2, /* open it when present (a clone has none) */
};

struct campaign {
	char *dir;                   /* the campaign directory (work tree) */
	char *id;                    /* campaign id */
	char *title;                 /* may be "" */
	char *rules_name;            /* `rules:` */
	char **players;              /* player ids, in campaign.yaml order */
	size_t n_players;
	const struct rule_system *rules;
	void *options;               /* rules->options_parse */
	uint8_t commitment[32];      /* fairness.commitment */
	uint32_t chain_length;       /* fairness.chain_length */
	int fair;                    /* 0 when set up from a --secret-file */
	char *beacon;                /* fairness.beacon: which public randomness is mixed in; NULL none */
	struct rules_campaign rc;    /* the view handed to the rule system */
	struct repo *repo;           /* always open */
	struct journal *journal;     /* NULL unless opened */
	int lock_fd;                 /* -1 unless locked */
};

/* Opens the campaign in dir. On failure prints one line to stderr and returns the exit code
 * to use (66 no campaign, 75 locked, 65 bad campaign.yaml, 70/74 otherwise); 0 on success. */
int campaign_open(struct campaign **out, const char *dir, unsigned flags);
void campaign_close(struct campaign *c);

/* Parses campaign.yaml bytes into c's fields (id … fairness), reporting into d. Used by
 * campaign_open and by replay on historical versions. Returns 0 / -1. */
int campaign_parse(struct campaign *c, const char *file, const struct buf *bytes, struct diag *d);

/* Loads state.yaml as of rev ("HEAD", "turn-0003"): *turn gets its `turn`, *state the rule
 * system's state (free with c->rules->state_free). Returns 0 / -1 (message on stderr). */
int campaign_load_state(struct campaign *c, const char *rev, int *turn, void **state);

/* Emits the canonical state.yaml bytes for state after `turn` onto out. */
int campaign_emit_state(const struct campaign *c, int turn, const void *state, struct buf *out);

/* Reads the 32-byte secret from .umpire/secret. Returns 0, or -1 with a message on stderr. */
int campaign_read_secret(const struct campaign *c, uint8_t secret[32]);

/* 1 if id is a player of the campaign. */
int campaign_has_player(const struct campaign *c, const char *id);

/* Formats "turn-0003" / "orders/turn-0003" style names. */
void campaign_turn_tag(char out[16], int turn);

#endif
