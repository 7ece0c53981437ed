/* cmd.h — one function per command (src/cmd/<name>.c); main.c dispatches through a static
 * table. Each returns a sysexits code and never calls exit(). argv[0] is the command name. */
#ifndef UMPIRE_CMD_H
#define UMPIRE_CMD_H

#include <stdio.h>
#include "core/diag.h"

struct turn;

/* sysexits(3) codes: only src/cmd/ picks them (core reports classes, error.h). */
enum exit_code {
	EXIT_OK = 0,
	EXIT_USAGE = 64,       /* EX_USAGE */
	EXIT_DATAERR = 65,     /* EX_DATAERR: bad input, failed replay */
	EXIT_NOINPUT = 66,     /* EX_NOINPUT: no such campaign or file */
	EXIT_UNAVAILABLE = 69, /* EX_UNAVAILABLE: a program umpire needs is missing */
	EXIT_SOFTWARE = 70,    /* EX_SOFTWARE: internal error */
	EXIT_CANTCREAT = 73,   /* EX_CANTCREAT */
	EXIT_IOERR = 74,       /* EX_IOERR */
	EXIT_TEMPFAIL = 75,    /* EX_TEMPFAIL: campaign locked */
};

int cmd_init(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_seal(int argc, char **argv);
int cmd_turn(int argc, char **argv);
int cmd_close(int argc, char **argv);
int cmd_reveal(int argc, char **argv);
int cmd_nonce(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_log(int argc, char **argv);
int cmd_state(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_audit(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_inbox(int argc, char **argv);
int cmd_send(int argc, char **argv);
int cmd_outbox(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_publish(int argc, char **argv);
int cmd_remind(int argc, char **argv);
int cmd_players(int argc, char **argv);
int cmd_pause(int argc, char **argv);
/* log_umpire.c: `umpire log DIR --umpire [--turn N] [--json]`. An exit code. */
int cmd_log_umpire(const char *dir, int turn, int json);
int cmd_resume(int argc, char **argv);
int cmd_end(int argc, char **argv);
struct campaign;
struct override;
/* pause.c: the checks before an override (closed turns; a schedule when needs_schedule) and
 * its record and announcement (o taken over). EXIT_OK or an exit code, said on stderr. */
int cmd_override_ready(const struct campaign *c, const char *who, int needs_schedule);
int cmd_override_record(struct campaign *c, struct override *o, const char *who);
int cmd_run(int argc, char **argv);
int cmd_site(int argc, char **argv);

/* Parses argv for a command whose only option is --help. Returns 0 to go on, -1 when help
 * was printed (exit 0), or EXIT_USAGE after a usage error (getopt said what is wrong; then
 * "see 'umpire help NAME'", NAME from help's "usage: umpire NAME" line). */
int cmd_options_help_only(int argc, char **argv, const char *help);
/* A usage error of command cmd ("check"): "umpire CMD: WHAT" (fmt, printf-style), one line,
 * then "see 'umpire help CMD'" on stderr, never the whole help page. Returns EXIT_USAGE. */
int cmd_usage(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The second line alone, after getopt has said what is wrong; EXIT_USAGE. */
int cmd_usage_see(const char *cmd);
/* The n operands args[0..n-1] against what cmd takes, min to max of them (max -1: any
 * number), names[i] saying the i-th ("DIR (the campaign folder)"; names has max entries,
 * or min when max is -1). EXIT_OK, or EXIT_USAGE after saying (cmd_usage) what is missing
 * or the first argument too many. */
int cmd_operands(const char *cmd, int n, char **args, const char *const *names, int min, int max);

/* For a command that re-resolves turn after turn (replay, verify): keeps freed heap memory
 * in the process instead of handing it back to the kernel after each turn and faulting it in
 * again for the next (glibc's trim and mmap thresholds raised). Changes no output. */
void cmd_keep_heap(void);

/* one when n is 1, else many: "1 order file", "2 order files", "0 order files". */
const char *cmd_plural(size_t n, const char *one, const char *many);
/* The exit code for core's last failure (error_last()'s class). */
int cmd_exit_code(void);
/* Oversize and irregular input is refused before anything else looks at it (issue 25): each
 * of paths[0..n-1] must be a regular file of at most max bytes. Prints "PATH:1:1: error: WHAT
 * file is ..." on stderr for each that is not. EXIT_OK, or the exit code of the first that
 * failed (65 too large or not a regular file, 66 cannot open). */
int cmd_check_input_files(const char *const *paths, size_t n, size_t max, const char *what);
/* Prints core's last failure as "who: message" on stderr (who: "umpire", "replay") and
 * returns its exit code. */
int cmd_error(const char *who);
/* error_last()'s message escaped for the terminal (escape_terminal: it may quote a path, a
 * file's text or a clone's), its line breaks kept. The string is valid until the next call. */
const char *cmd_message(void);
/* Prints why turn_run failed on t: the order files' diagnostics when the `orders` step
 * found problems, else core's last failure; returns the exit code. */
int cmd_turn_error(const struct turn *t);
/* Prints each line of notes (a turn's: an authority that did not time-stamp the close) on
 * stderr as "umpire: note: LINE", escaped for the terminal (it may quote a server's words). */
void cmd_print_notes(const struct buf *notes);

struct campaign;
struct smtp_settings;
/* The SMTP settings of `umpire send` from c's mail: and the environment (UMPIRE_SMTP_URL,
 * _USER, _PASSWORD, _NETRC, refused unless 0600); EXIT_OK or an exit code (printed). The
 * strings point into c and the environment. */
int cmd_smtp_settings(const struct campaign *c, struct smtp_settings *s);

/* With publish.auto and publish.remote in c's campaign.yaml, pushes every tag and main there
 * (umpire publish), telling so on stderr; EXIT_OK (also when not set) or the exit code. */
int cmd_publish_auto(struct campaign *c);

struct beacon_round;
/* The beacon round the close of the campaign's open turn named, fetched (core/beacon.h) from
 * url (a template, or a drand chain's base URL) or, when url is NULL, from the URL in the
 * campaign's beacon source; *turn gets the turn. At time now a round not yet out is not
 * fetched. Returns 0 with out filled; 1 when the round is not out yet (by the clock, or the
 * beacon answered 404; said on stdout); -1 with core's error set. */
int cmd_fetch_beacon(struct campaign *c, const char *url, long long now, int *turn,
	struct beacon_round *out);

/* Parses a --turn value (0..999999) or prints a usage error; returns 0 / -1. */
int cmd_parse_turn(const char *s, int *out);

#endif
