/* sendmail.h — handing one message to a local mail program in the role of sendmail (Postfix's,
 * exim's, msmtp's or nullmailer's `sendmail`), the alternative to SMTP (`mail.transport:
 * sendmail`). The program is run directly, never through a shell. */
#ifndef UMPIRE_SENDMAIL_H
#define UMPIRE_SENDMAIL_H

#include <stddef.h>

#define SENDMAIL_DEFAULT "/usr/sbin/sendmail" /* mail.sendmail when not set */
#define SENDMAIL_TIMEOUT 60 /* seconds the program may stall reading or take to end */

/* Runs `program -oi -f FROM -- TO` with message (len bytes, RFC 5322, CRLF or LF line ends)
 * on its standard input, the line ends turned into LF as a local mail program expects. The
 * envelope is the one SMTP would use (from, to), not the headers (`-t`), so both transports
 * deliver to the same address. Sent means the program exited 0: it took the message for
 * delivery. A program that stops reading for SENDMAIL_TIMEOUT seconds ($UMPIRE_SENDMAIL_TIMEOUT
 * when set), or has not ended that long after the message, is stopped (SIGTERM, then
 * SIGKILL) and reaped: class ERROR_BUSY. Returns 0, or -1 (class ERROR_OS) when it cannot run,
 * is killed or exits non-zero (its exit code in the message: 75, EX_TEMPFAIL, means try again
 * later; 64, 65, 67 and 68, a bad address or message, give class ERROR_INPUT: it never will). */
int sendmail_send(const char *program, const char *from, const char *to, const void *message,
	size_t len);

#endif
