/* mail.h — reading players' mail and writing umpire's, through GMime 3 only (no MIME by hand):
 * the sender, the Message-ID and the order file of a delivered message (an attachment or the
 * body, converted to UTF-8), and whole RFC 5322 messages for the outbox. The only file that
 * includes <gmime/gmime.h>. Knows no game: an order file is text that starts at a line
 * `---` or `campaign:`. */
#ifndef UMPIRE_MAIL_H
#define UMPIRE_MAIL_H

#include <stddef.h>
#include "core/buf.h"

#define MAIL_MAX_BYTES (4 * 1024 * 1024) /* one delivered message */
#define MAIL_MAX_PARTS 64                /* MIME parts looked at in one message */

/* What a delivered message holds, as far as the inbox cares. */
struct mail_in {
	char *from;       /* the From address, lower case; NULL when it has none */
	char *message_id; /* without <>, or NULL */
	char *subject;    /* UTF-8, or "" */
	char *orders;     /* the order file's bytes, UTF-8, NUL-terminated; NULL when none */
	size_t orders_len;
	char *orders_name;  /* the attachment's file name, or "message body" */
	size_t orders_line; /* orders in the body: the body's line they start at (1-based); 0 */
	char *problem;      /* why no order file could be taken, or NULL: one line for the reply */
	char *signature;    /* an attached FILE.sig (ssh-keygen -Y sign), NUL-terminated, or NULL */
	size_t signature_len;
	char *command;   /* a body without orders: its first line that is not blank, trimmed
	                  * (at most 200 bytes; `extend 24h`: inbox.c, extend.c), or NULL */
	char *automatic; /* why no program may answer it (RFC 3834: automatic, bulk or list mail,
	                  * a bounce), or NULL */
};

/* Parses a delivered message (len bytes, at most MAIL_MAX_BYTES) into out (release with
 * mail_in_release). Finding no orders is no failure: out->problem says why (HTML only, an
 * unknown charset, two attachments, none found). The order file is a .yaml/.yml attachment
 * (its bytes exactly, converted to UTF-8 when another charset is declared), else the first
 * text/plain part from its first line `---` or `campaign:` up to a signature line "-- ".
 * An attachment named *.sig is the order file's SSH signature (kept as sent; with orders
 * in the body it is a problem: a signature signs a file). A format=flowed body (RFC 3676)
 * is unflowed first, and blank lines before the signature separator are dropped.
 * out->automatic says when the message is one no program answers (RFC 3834).
 * Returns 0, or -1 when the bytes are no message at all (error_last()). */
int mail_parse(struct mail_in *out, const void *bytes, size_t len);
void mail_in_release(struct mail_in *m);

#define MAIL_MAX_ATTACHMENTS 6

/* A text file attached to a message. */
struct mail_attachment {
	const char *name; /* its file name */
	const void *data; /* UTF-8 text */
	size_t len;
};

/* A message to send. */
struct mail_out {
	const char *from;        /* the umpire's address */
	const char *to;          /* the recipient's */
	const char *subject;     /* UTF-8 */
	const char *in_reply_to; /* Message-ID (without <>) answered, or NULL */
	const char *references;  /* the thread's first Message-ID (without <>), or NULL */
	int auto_reply;          /* a reply to a player's mail (Auto-Submitted: auto-replied);
	                          * 0: mail umpire writes on its own (auto-generated) */
	const char *message_id;  /* this message's id, without <> */
	long long date;          /* UTC seconds */
	const char *body;        /* UTF-8 text */
	struct mail_attachment attachments[MAIL_MAX_ATTACHMENTS]; /* text files attached */
	size_t n_attachments;
};

/* Renders m as an RFC 5322 message (MIME, 7-bit clean, CRLF line ends) onto out, with
 * `Auto-Submitted:` (auto-replied or auto-generated) and `Precedence: bulk` (RFC 3834), and
 * `References:` of the thread's first message and the one answered. 0 / -1. */
int mail_build(struct buf *out, const struct mail_out *m);

/* Sets the Date of the message in message (made by mail_build) to date (UTC seconds): the
 * time it is sent, not queued. 0, or -1 (ERROR_INPUT: no message). */
int mail_set_date(struct buf *message, long long date);

/* The envelope of a message made by mail_build: its From and To addresses (new strings).
 * Returns 0 / -1. */
int mail_envelope(const void *bytes, size_t len, char **from, char **to);

/* A mail as a player saved it (.eml): when his own mail server received it (the topmost
 * Received: header, the RFC 5322 date after its last ';'), its To address, and its text: the
 * first .yaml attachment, else the first text/plain part (transfer encoding undone, UTF-8). */
struct mail_saved {
	int has_received;      /* a Received: header is there */
	long long received_at; /* its date, UTC seconds; -1 when none can be read */
	char *to;              /* lower case, or NULL */
	char *text;            /* NUL-terminated */
	size_t text_len;
};
/* Parses a saved mail (at most MAIL_MAX_BYTES) into out (release with mail_saved_release).
 * Returns 0, or -1 when it is no mail or has no text (error_last()). */
int mail_saved_parse(struct mail_saved *out, const void *bytes, size_t len);
void mail_saved_release(struct mail_saved *m);

#endif
