/* net.h — libcurl's two uses: sending one message over SMTP (no SMTP by hand) and one HTTP(S)
 * GET (the beacon's round, beacon.h). net.c is the only file that includes <curl/curl.h>. */
#ifndef UMPIRE_NET_H
#define UMPIRE_NET_H

#include <stddef.h>

/* Where and how to send. Nothing here is kept in the campaign but the URL and user: the
 * password comes from the environment or a netrc file (src/cmd/send.c). */
struct smtp_settings {
	const char *url;      /* smtp://HOST:PORT (STARTTLS unless starttls is 0) or smtps:// */
	const char *user;     /* login, or NULL: no authentication (unless netrc has it) */
	const char *password; /* with user; may be NULL */
	const char *netrc;    /* a netrc file with the login for the host, or NULL */
	int starttls;         /* 1: smtp:// must upgrade with STARTTLS; 0: plain */
	long timeout;         /* seconds for the whole exchange */
	const char *sendmail; /* mail.transport sendmail: this program instead (sendmail.h); the
	                       * fields above then unused */
};

/* Sends message (len bytes, an RFC 5322 message with CRLF line ends) from `from` to `to`.
 * Returns 0, or -1 with the server's or libcurl's reason (class ERROR_OS). */
int smtp_send(const struct smtp_settings *s, const char *from, const char *to, const void *message,
	size_t len);

struct buf;

/* GETs url (http:// or https://, no redirects) into out (appended), at most max bytes, in at
 * most timeout seconds. *status gets the HTTP status (0 when none came). Returns 0 for a 2xx
 * answer, -1 (class ERROR_OS: libcurl's reason, or the status; ERROR_MISSING for 404) for
 * anything else. */
int http_get(const char *url, size_t max, long timeout, struct buf *out, long *status);

#endif
