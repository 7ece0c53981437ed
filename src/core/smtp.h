/* smtp.h — sending one message over SMTP through libcurl (no SMTP by hand). The only file
 * that includes <curl/curl.h>. */
#ifndef UMPIRE_SMTP_H
#define UMPIRE_SMTP_H

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

#endif
