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
	char *orders_name; /* the attachment's file name, or "message body" */
	char *problem;     /* why no order file could be taken, or NULL: one line for the reply */
	char *signature;   /* an attached FILE.sig (ssh-keygen -Y sign), NUL-terminated, or NULL */
	size_t signature_len;
};

/* Parses a delivered message (len bytes, at most MAIL_MAX_BYTES) into out (release with
 * mail_in_release). Finding no orders is no failure: out->problem says why (HTML only, an
 * unknown charset, two attachments, none found). The order file is a .yaml/.yml attachment
 * (its bytes exactly, converted to UTF-8 when another charset is declared), else the first
 * text/plain part from its first line `---` or `campaign:` up to a signature line "-- ".
 * An attachment named *.sig is the order file's SSH signature (kept as sent; with orders
 * in the body it is a problem: a signature signs a file).
 * Returns 0, or -1 when the bytes are no message at all (error_last()). */
int mail_parse(struct mail_in *out, const void *bytes, size_t len);
void mail_in_release(struct mail_in *m);

#define MAIL_MAX_ATTACHMENTS 5

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
	const char *message_id;  /* this message's id, without <> */
	long long date;          /* UTC seconds */
	const char *body;        /* UTF-8 text */
	struct mail_attachment attachments[MAIL_MAX_ATTACHMENTS]; /* text files attached */
	size_t n_attachments;
};

/* Renders m as an RFC 5322 message (MIME, 7-bit clean, CRLF line ends) onto out. 0 / -1. */
int mail_build(struct buf *out, const struct mail_out *m);

/* The envelope of a message made by mail_build: its From and To addresses (new strings).
 * Returns 0 / -1. */
int mail_envelope(const void *bytes, size_t len, char **from, char **to);

#endif
