/* pbem.h — a campaign's play-by-email settings, read from campaign.yaml (docs/formats.md,
 * "Play by email"): each player's addresses and SSH key, the schedule (deadlines, grace,
 * what a missing player gets), where the campaign is published and how mail is sent. The
 * clock meets these settings only in the mail commands (inbox, status), never in a turn's
 * resolution. */
#ifndef UMPIRE_PBEM_H
#define UMPIRE_PBEM_H

#include <stddef.h>
#include "core/diag.h"
#include "core/node.h"
#include "core/buf.h"

#define PBEM_MAX_EMAILS 4      /* addresses of one player */
#define PBEM_ADDRESS_MAX 254   /* bytes of one address (RFC 5321's path limit) */
#define PBEM_SSH_KEY_MAX 16384 /* bytes of one player's SSH public key line */

struct campaign;
struct override;

/* How a player is reached: `players[].email` and `players[].ssh_key`. */
struct pbem_contact {
	char *emails[PBEM_MAX_EMAILS]; /* the addresses orders may come from, lower case */
	size_t n_emails;               /* 0: the player takes no orders by mail */
	char *ssh_key;                 /* "ssh-ed25519 AAAA... comment", or NULL */
};

/* What a due player without orders at the deadline gets (`schedule.missing`). */
enum pbem_missing {
	PBEM_MISSING_NO_ORDERS, /* the turn closes without him: journaled as 'no orders' */
	PBEM_MISSING_HOLD,      /* the turn waits for him: it closes only once all have sent */
};
extern const char *const pbem_missing_names[];

/* When a turn with all due players' orders in closes (`schedule.close`). */
enum pbem_close {
	PBEM_CLOSE_ALL_SENT, /* on the first pass once every due player has sent (the default) */
	PBEM_CLOSE_DEADLINE, /* at the deadline: until then a later valid file replaces the last */
};
extern const char *const pbem_close_names[];

/* What a missed turn plays (`schedule.missed`; docs/formats.md "Play by email"). */
enum pbem_missed {
	PBEM_MISSED_STANDING, /* no orders: the side's standing orders (the default) */
	PBEM_MISSED_HOLD,     /* the rule system's hold orders (rules.h hold_orders) */
};
extern const char *const pbem_missed_names[];

/* `schedule:` — deadline of turn N = first_deadline + (N - 1) * every. */
struct pbem_schedule {
	int set;                   /* 0: no schedule (no deadlines) */
	long long first_deadline;  /* turn 1's deadline, UTC seconds */
	long long every;           /* seconds between two turns' deadlines */
	long long grace;           /* seconds after a deadline a turn still waits for orders */
	long long remind;          /* `umpire run` reminds the missing this long before; -1 never */
	long long reveal;          /* entropy players: reveals awaited this long after a close
	                            * (default 1d); then `umpire run` resolves without the rest */
	enum pbem_missing missing; /* what a missing player gets */
	enum pbem_close close;     /* when a turn whose due players have all sent closes */
	long long extensions;      /* seconds of extension each player may ask by mail (0) */
	enum pbem_missed missed;   /* what a missed turn plays */
	int civil_disorder;        /* misses in a row that put a side in civil disorder; 0 never */
};

/* `publish:` — where `umpire publish` pushes main and the tags. */
struct pbem_publish {
	char *remote; /* a path or URL libgit2 can push to; NULL: none configured */
	int autopush; /* `auto`: turn and close publish on their own */
	char *pages;  /* `pages`: the https URL the campaign's pages are served at, umpire's
		       * schemas/ beside them (the order template's $schema); NULL: none */
};

/* How `umpire send` reaches the players (`mail:`). */
enum pbem_tls {
	PBEM_TLS_STARTTLS, /* smtp:// with STARTTLS required (the default) */
	PBEM_TLS_NONE,     /* plain SMTP: only for a relay on the same host */
};
extern const char *const pbem_tls_names[];
/* How `umpire send` hands a message on (`mail.transport`). */
enum pbem_transport {
	PBEM_TRANSPORT_SMTP,     /* libcurl's SMTP to mail.smtp (the default) */
	PBEM_TRANSPORT_SENDMAIL, /* the local program mail.sendmail, `-oi -f FROM -- TO` */
};
extern const char *const pbem_transport_names[];
/* Where a reply to a player's mail goes (`mail.reply_to`). */
enum pbem_reply_to {
	PBEM_REPLY_REGISTERED, /* his registered address: the From when it is one, else his first
	                        * (a signed mail from elsewhere); a stranger's From (the default) */
	PBEM_REPLY_SENDER,     /* the From of the mail, whatever it is */
};
extern const char *const pbem_reply_to_names[];
struct pbem_mail {
	char *from; /* the umpire's address: replies come from it; NULL: mail not set up */
	enum pbem_transport transport;
	char *sendmail; /* mail.sendmail: the program's absolute path; NULL: /usr/sbin/sendmail */
	char *smtp;     /* smtp://host:port or smtps://host:port; NULL: none */
	char *user;     /* SMTP login, or NULL (the password never is here) */
	enum pbem_tls tls;
	int require_signature; /* orders by mail must be signed (ssh-keygen -Y sign) */
	enum pbem_reply_to reply_to;
};

/* Everything above, as campaign_parse keeps it in struct campaign. */
struct pbem {
	struct pbem_contact *contacts; /* one per player, in campaign order */
	size_t n_contacts;
	struct pbem_schedule schedule;
	struct pbem_publish publish;
	struct pbem_mail mail;
	/* the umpire's overrides so far, in the order made (core/schedule.h; schedule_load) */
	struct override *overrides;
	size_t n_overrides;
};

/* Reads the players' `email`/`ssh_key`, `schedule`, `publish` and `mail` of campaign.yaml's
 * root into p (release with pbem_release; p is cleared first). players is the `players`
 * sequence, already checked by campaign_parse_players. Problems go to d at the nodes.
 * Returns 0 / -1. */
int pbem_parse(struct pbem *p, const struct node *root, const struct node *players, struct diag *d);
void pbem_release(struct pbem *p);
/* Reads the players' `email` of the sequence players into p->contacts (allocated here, one per
 * item; p must have none yet), checking each address; problems go to d at the nodes. */
void pbem_parse_contacts(struct pbem *p, const struct node *players, struct diag *d);

/* Reads the umpire's private addresses file (`.umpire/addresses.yaml`, docs/formats.md
 * "Play by email"): `addresses:` maps a player id to an address, a list of them, or [] (no
 * mail). Each player it names gets exactly those addresses, replacing any campaign.yaml gave
 * (a campaign made before the file existed); the others keep theirs. players holds the
 * campaign's p->n_contacts ids in order; file names bytes in diagnostics. Problems go to d.
 * Returns 0 / -1. */
int pbem_parse_addresses(struct pbem *p, const char *const *players, const char *file,
	const struct buf *bytes, struct diag *d);
/* The first line of .umpire/addresses.yaml. */
#define PBEM_ADDRESSES_HEADER \
	"# the players' mail addresses: private to the umpire, never committed (docs/formats.md)\n"
/* Makes addresses[0..n-1] (n <= PBEM_MAX_EMAILS; 0: no mail) the addresses of player (an index
 * of p->contacts), checked and kept lower case. Returns 0, or -1 (ERROR_INPUT: a bad address,
 * too many) leaving p as it was. */
int pbem_set_addresses(struct pbem *p, size_t player, const char *const *addresses, size_t n);
/* Appends to out the whole addresses file for p: every player (ids in players, in order) with
 * his addresses: one as a scalar, several as a list, none as []. Returns 0 / -1. */
int pbem_emit_addresses(const struct pbem *p, const char *const *players, struct buf *out);

/* The deadline of turn (>= 1), UTC seconds; -1 when the campaign has no schedule: the
 * schedule's first_deadline + (turn - 1) * every, moved by every extension, pause and resume
 * made while that turn or an earlier one was open (core/schedule.h). */
long long pbem_deadline(const struct pbem *p, int turn);

/* The index of the player one of whose addresses is address (compared without regard to
 * case), or -1. */
int pbem_player_of(const struct pbem *p, const char *address);

/* Parses "2026-12-06T18:00:00Z" (UTC, seconds optional) into *out, seconds since the epoch.
 * Returns 0 / -1. */
int pbem_parse_utc(const char *s, long long *out);
/* Formats seconds since the epoch as "2026-12-06T18:00:00Z" into out (21 bytes at least). */
void pbem_format_utc(char *out, size_t size, long long t);
/* Parses a duration "90", "90s", "45m", "12h", "7d" into seconds. Returns 0 / -1. */
int pbem_parse_duration(const char *s, long long *out);

#endif
