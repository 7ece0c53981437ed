/* idle.h — the mark of an idle `umpire run` pass, .umpire/run-idle (issue 38: the idle pass
 * under 10 ms CPU). A full pass that did nothing, and can do nothing before new mail or a
 * known time, writes it; the front program (src/front.c) reads it and answers the next pass
 * itself when nothing it lists has changed, without starting umpire-core (libgit2, OpenSSL,
 * SQLite, the campaign's state). This module uses the C library alone: the front links it.
 *
 * The mark, one record a line, each field separated by one space (paths and arguments in
 * lowercase hex, so any byte is safe):
 *   umpire run-idle 1                the format
 *   arg HEX                          each argument after `run` but --verbose, in order
 *   until T | until never            UTC seconds before which nothing can become due
 *   stat HEXPATH DEV INO SIZE MTIME CTIME | stat HEXPATH absent
 *                                    a file or folder (relative to the campaign) as it was;
 *                                    times in nanoseconds
 *   say 0|1 TEXT                     a line the pass prints: 1 always, 0 with --verbose only
 *   end                              the last line */
#ifndef UMPIRE_IDLE_H
#define UMPIRE_IDLE_H

#include <stddef.h>

#define IDLE_MARK "run-idle"      /* its name under .umpire/ */
#define IDLE_MARK_MAX (64 * 1024) /* bytes: a larger file is no mark */
#define IDLE_MAX_ITEMS 256        /* arguments, stat entries, lines: each at most so many */
#define IDLE_NEVER (-1LL)         /* until: no time makes anything due */

/* What one file or folder was (fstatat without following a link). */
struct idle_stat {
	char *path;             /* relative to the campaign folder; owned */
	int absent;             /* 1: there was none (then the numbers are 0) */
	unsigned long long dev; /* st_dev */
	unsigned long long ino; /* st_ino */
	long long size;         /* st_size, bytes */
	long long mtime;        /* st_mtim, ns */
	long long ctime;        /* st_ctim, ns */
};

#define IDLE_STAT_TEXT_MAX 128 /* room for idle_stat_text's longest text and its NUL */

/* What path under the folder dirfd is now (fstatat, no link followed): 0 with st's numbers
 * and absent filled (ENOENT or ENOTDIR: absent, the numbers 0; st->path untouched), or -1
 * when stat fails otherwise (errno set). */
int idle_stat_take(int dirfd, const char *path, struct idle_stat *st);

/* st's facts as a stat record holds them after its path, "DEV INO SIZE MTIME CTIME" (times
 * in ns) or "absent", into out: equal texts are equal facts, so a mark of other files (the
 * journal's, .umpire/checked: core/campaign.c) compares them as text. */
void idle_stat_text(char out[IDLE_STAT_TEXT_MAX], const struct idle_stat *st);

/* A line the pass printed (or would with --verbose). */
struct idle_line {
	int always; /* 1: printed without --verbose too */
	char *text; /* no newline, no control character; owned */
};

/* A mark, read or to write. Every array and string is owned (idle_mark_release). */
struct idle_mark {
	char **args; /* the pass's arguments after `run`, --verbose left out */
	size_t n_args;
	long long until;         /* UTC seconds, or IDLE_NEVER */
	struct idle_stat *stats; /* what the pass's decision depended on */
	size_t n_stats;
	struct idle_line *lines; /* in the order printed */
	size_t n_lines;
};

/* Frees everything m owns and zeroes it. */
void idle_mark_release(struct idle_mark *m);

/* Appends to m: an argument (a copy), a stat entry of path under the folder dirfd (taken now;
 * ENOENT is "absent"), a line (a copy; text must hold no byte below 0x20). Each returns 0, or
 * -1 when it cannot (no memory, a stat failing otherwise, a line with a control character,
 * more than IDLE_MAX_ITEMS): the caller then writes no mark. */
int idle_add_arg(struct idle_mark *m, const char *arg);
int idle_add_stat(struct idle_mark *m, int dirfd, const char *path);
int idle_add_line(struct idle_mark *m, int always, const char *text);

/* The mark's text: a new string of *len bytes (the caller frees it), or NULL (no memory, or
 * over IDLE_MARK_MAX). */
char *idle_format(const struct idle_mark *m, size_t *len);

/* Parses the len bytes of text (a mark as idle_format writes it) into out, exactly: any
 * other byte, a missing or repeated record, a number out of range is a failure. 0, or -1
 * (out then empty). */
int idle_parse(const char *text, size_t len, struct idle_mark *out);

/* 1 when every stat entry of m is as the file or folder under dirfd is now, else 0. */
int idle_unchanged(const struct idle_mark *m, int dirfd);

/* 1 when the argc arguments argv, --verbose left out, are m's, else 0. */
int idle_same_args(const struct idle_mark *m, int argc, char *const argv[]);

/* 1 when the Maildir's new/ holds a mail (a name not starting with '.') or cannot be read
 * (the full pass then says why), 0 when it holds none. */
int idle_mail_waiting(const char *maildir);

#endif
