/* net.h — libcurl's uses: sending one message over SMTP (no SMTP by hand), one HTTP(S) GET
 * (the beacon's round, beacon.h) and one HTTP(S) POST (a time-stamp request, tstamp.h).
 * net.c is the only file that includes <curl/curl.h>. */
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

/* Sends message (len bytes, an RFC 5322 message with CRLF line ends) from `from` to `to`,
 * greeting the server (EHLO) with the domain of `from` (smtp_url_with_ehlo), not the host
 * name. Returns 0, or -1 with the server's or libcurl's reason: class ERROR_INPUT when the
 * server refused for good (a 5xx answer, or an address that cannot go into SMTP), ERROR_BUSY
 * when the exchange took longer than s->timeout (a server that stalls), ERROR_OS when trying
 * again later may work. */
int smtp_send(const struct smtp_settings *s, const char *from, const char *to, const void *message,
	size_t len);

/* url with the EHLO name libcurl takes from its path (smtp://HOST:PORT/DOMAIN): the domain
 * of from, unless url has a path already. A new string. */
char *smtp_url_with_ehlo(const char *url, const char *from);
/* 1 if url's host is the loopback (127.0.0.0/8, ::1, localhost): a relay on this machine,
 * which plain SMTP reaches without crossing a network. */
int smtp_url_loopback(const char *url);

struct buf;

/* GETs url (http:// or https://, no redirects) into out (appended), at most max bytes, in at
 * most timeout seconds. *status gets the HTTP status (0 when none came). Returns 0 for a 2xx
 * answer, -1 (class ERROR_OS: libcurl's reason, or the status; ERROR_MISSING for 404) for
 * anything else. */
int http_get(const char *url, size_t max, long timeout, struct buf *out, long *status);
/* POSTs body (len bytes, Content-Type content_type) to url (http:// or https://, no
 * redirects) and appends the answer to out: at most max bytes, in at most timeout seconds
 * (connecting included); the answer's Content-Type must be want_type (NULL: any). *status
 * as for http_get. Returns 0 for a 2xx answer of that type, -1 (class ERROR_OS: libcurl's
 * reason, the status or the type) for anything else. */
int http_post(const char *url, const char *content_type, const void *body, size_t len,
	const char *want_type, size_t max, long timeout, struct buf *out, long *status);

#endif
