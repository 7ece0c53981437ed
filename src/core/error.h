/* error.h — core's one error convention, libgit2's: a function returns 0 on success, -1 on
 * failure, or one of a few named negative codes where callers branch on them; the message
 * of the last failure is kept in one error buffer (error_last), set by the function that
 * failed, with the kind of failure. Core never prints and never picks an exit code: only
 * src/cmd/ does both (cmd_error maps a class to a sysexits code). Input errors a player
 * must see all at once are collected in a struct diag instead; the call that collected them
 * fails with class ERROR_INPUT. */
#ifndef UMPIRE_ERROR_H
#define UMPIRE_ERROR_H

/* Return codes. Callers branch on the named ones; every other failure is -1. */
enum error_code {
	ERROR_OK = 0,
	ERROR_FAIL = -1,     /* a failure: error_last() says what */
	ERROR_NOTFOUND = -3, /* the thing asked for does not exist (revision, path, turn) */
	ERROR_EXISTS = -4,   /* the thing to create is there already */
	ERROR_LOCKED = -14,  /* another run holds the campaign */
};

/* What kind of failure: what the user can do about it, and so the exit code. */
enum error_class {
	ERROR_NONE = 0,    /* no error recorded */
	ERROR_INTERNAL,    /* a bug: an impossible state, a rule system that failed */
	ERROR_INPUT,       /* bad input or a failed check: an order file, a tampered history */
	ERROR_MISSING,     /* no such campaign, file, turn or revision */
	ERROR_OS,          /* the operating system or a library failed (I/O, disk full) */
	ERROR_CREATE,      /* cannot create: the target exists or cannot be made */
	ERROR_BUSY,        /* locked by another run, or a remote that did not answer in time */
	ERROR_USAGE,       /* a request that cannot be honoured as asked (options) */
	ERROR_UNAVAILABLE, /* a program umpire needs is not installed (node for time-locks) */
};

struct error {
	enum error_class klass; /* what kind of failure */
	const char *message;    /* one line, lowercase start, no full stop; never NULL */
};

/* Records the failure (replacing any earlier one) and returns -1, so that a failing path
 * reads `return error_set(ERROR_OS, "cannot write '%s': %s", path, strerror(errno));`. */
int error_set(enum error_class klass, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Puts "<prefix>: " before the recorded message, keeping its class, and returns -1: the
 * caller adds what it was doing without masking the lower error. With no error recorded it
 * records the prefix alone as ERROR_INTERNAL. */
int error_prefix(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Keeps the recorded message under another class and returns -1: a caller that knows better
 * what the failure means to the user ("no campaign there" rather than an I/O error). */
int error_reclass(enum error_class klass);
/* The last failure. Never NULL: with nothing recorded, class ERROR_NONE and message "". */
const struct error *error_last(void);
/* Forgets the recorded failure. */
void error_clear(void);

#endif
