/* front.c — the `umpire` program users and cron start: linked against the C library alone, it
 * answers an idle `umpire run` pass from its mark (.umpire/run-idle, core/idle.h) and hands
 * every other command to umpire-core (execv, same arguments and environment). It exists
 * because mapping libgit2 and OpenSSL alone costs more than an idle pass may (issue 38). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/idle.h"
#include "core/banned.h"

#define EX_UNAVAILABLE 69

/* Where umpire-core is looked for, relative to this program's folder: the build tree, then
 * the installed layout (as umpire-bls is found: core/bls.c). */
static const char *const core_rel[] = { "umpire-core", "../umpire-core",
	"../libexec/umpire/umpire-core" };

/* The arguments of `umpire run` the front understands; any other makes it hand over. */
struct run_args {
	const char *dir;     /* the campaign folder */
	const char *maildir; /* --maildir */
	int verbose;         /* --verbose */
};

/* 1 when arg is --NAME with a value (in arg after '=', or the next argument: *i moves), 0
 * when it is not, -1 when it is of a form the front leaves to the core. */
static int option_value(const char *arg, const char *name, int argc, char *const argv[], int *i,
	const char **value)
{
	size_t n = strlen(name);
	if (strncmp(arg, name, n) != 0)
		return 0;
	if (arg[n] == '=') {
		*value = arg + n + 1;
		return 1;
	}
	if (arg[n] != '\0' || *i + 1 >= argc)
		return 0;
	*value = argv[++*i];
	/* "--maildir --verbose" is a Maildir named so: the mark, which leaves every --verbose
	 * out of its arguments, cannot tell it, so the core answers */
	return strcmp(*value, "--verbose") == 0 ? -1 : 1;
}

/* Reads run's arguments as cmd/run.c's getopt_long would, when they are of the plain forms:
 * 0, or -1 (anything else: --help, "--", an abbreviation, two folders) to let the core say. */
static int parse_run(int argc, char *const argv[], struct run_args *a)
{
	const char *unused;

	memset(a, 0, sizeof(*a));
	for (int i = 0; i < argc; i++) {
		const char *arg = argv[i];
		int got = 0;
		if (strcmp(arg, "--verbose") == 0)
			a->verbose = 1;
		else if ((got = option_value(arg, "--maildir", argc, argv, &i, &a->maildir)) ||
			 (got = option_value(arg, "--beacon-command", argc, argv, &i, &unused)) ||
			 (got = option_value(arg, "--beacon-url", argc, argv, &i, &unused)) ||
			 strcmp(arg, "--beacon-fetch") == 0) {
			if (got < 0)
				return -1;
		} else if (arg[0] == '-' || a->dir)
			return -1;
		else
			a->dir = arg;
	}
	return a->dir && a->maildir && a->dir[0] && a->maildir[0] ? 0 : -1;
}

/* Reads the mark of the campaign under dfd: a regular file .umpire/run-idle, no link on the
 * way, at most IDLE_MARK_MAX bytes. 0, or -1 (none, or any doubt). */
static int read_mark(int dfd, struct idle_mark *m)
{
	int ufd = openat(dfd, ".umpire", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int fd = ufd < 0 ? -1 :
			   openat(ufd, IDLE_MARK, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	char *text = NULL;
	int rc = -1;

	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
		st.st_size <= IDLE_MARK_MAX && (text = malloc((size_t)st.st_size + 1))) {
		size_t got = 0;
		ssize_t r = 1;
		while (got <= (size_t)st.st_size && r > 0) {
			r = read(fd, text + got, (size_t)st.st_size + 1 - got);
			got += r > 0 ? (size_t)r : 0;
		}
		if (r == 0 && got == (size_t)st.st_size)
			rc = idle_parse(text, got, m);
	}
	free(text);
	if (fd >= 0)
		close(fd);
	if (ufd >= 0)
		close(ufd);
	return rc;
}

/* An idle pass answered from the mark: 0 (the lines printed), or -1 for the full pass. */
static int serve_idle(int argc, char *const argv[])
{
	struct run_args a;
	struct idle_mark m = { 0 };

	/* POSIXLY_CORRECT: getopt_long stops at the folder, so the core reads these otherwise */
	if (getenv("POSIXLY_CORRECT") || parse_run(argc, argv, &a) < 0)
		return -1;
	int dfd = open(a.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -1;
	int rc = read_mark(dfd, &m);
	if (rc == 0 && (!idle_same_args(&m, argc, argv) ||
			       (m.until != IDLE_NEVER && clock_now() >= m.until) ||
			       idle_mail_waiting(a.maildir) || !idle_unchanged(&m, dfd)))
		rc = -1;
	close(dfd);
	for (size_t i = 0; rc == 0 && i < m.n_lines; i++)
		if (m.lines[i].always || a.verbose)
			printf("%s\n", m.lines[i].text);
	if (rc == 0 && fflush(stdout) != 0)
		rc = -1; /* the core says what went wrong with its output */
	idle_mark_release(&m);
	return rc;
}

/* Starts umpire-core with our arguments; returns only when it cannot (said on stderr). */
static int exec_core(char *argv[])
{
	char exe[PATH_MAX], path[PATH_MAX + 64], looked[3 * (PATH_MAX + 64)] = "";
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash = len > 0 ? (exe[len] = '\0', strrchr(exe, '/')) : NULL;

	if (!slash) {
		fprintf(stderr, "umpire: cannot find umpire-core: /proc/self/exe cannot be read\n");
		return EX_UNAVAILABLE;
	}
	slash[1] = '\0';
	for (size_t i = 0; i < sizeof(core_rel) / sizeof(core_rel[0]); i++) {
		struct stat st;
		snprintf(path, sizeof path, "%s%s", exe, core_rel[i]);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0) {
			execv(path, argv);
			fprintf(stderr, "umpire: cannot start '%s': %s\n", path, strerror(errno));
			return EX_UNAVAILABLE;
		}
		size_t used = strlen(looked);
		snprintf(looked + used, sizeof looked - used, "%s%s", used ? ", " : "", path);
	}
	fprintf(stderr,
		"umpire: the umpire program umpire-core is missing (looked for %s; 'make' builds it next to umpire, 'make install' installs it in libexec/umpire/)\n",
		looked);
	return EX_UNAVAILABLE;
}

int main(int argc, char *argv[])
{
	if (argc > 2 && strcmp(argv[1], "run") == 0 && serve_idle(argc - 2, argv + 2) == 0)
		return 0;
	return exec_core(argv);
}
