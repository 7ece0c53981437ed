/* run.c — `umpire run`: the one command a game master runs from cron. Each step is
 * idempotent, so running it every few minutes is safe: take the new mail, close (or with
 * entropy none resolve) the open turn once every due player has sent or the deadline and
 * grace are over, queue receipts, reports and reminders, publish, send. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "core/beacon.h"
#include "core/campaign.h"
#include "core/schedule.h"
#include "core/close.h"
#include "core/file.h"
#include "core/idle.h"
#include "core/layout.h"
#include "core/spawn.h"
#include "mail/inbox.h"
#include "mail/notify.h"
#include "mail/outbox.h"
#include "core/clock.h"
#include "core/turn.h"
#include "core/banned.h"

extern char **environ;

static int verbose;       /* --verbose: also what the pass waits for */
static int beacon_failed; /* --beacon-fetch could not reach the beacon: exit 75 */
/* The idle mark (core/idle.h): a pass that did or tried anything (busy) writes none; one that
 * did not keeps its arguments, the lines it printed or would with --verbose, and the first
 * time after now when anything can become due (due_at). */
static struct idle_mark idle;
static int busy;
static long long due_at = IDLE_NEVER;

static const char run_help[] =
	"usage: umpire run DIR --maildir PATH [--beacon-command CMD | --beacon-fetch [--beacon-url URL]]\n"
	"                  [--verbose]\n\n"
	"One pass of a game by mail for the campaign in DIR, safe to run from cron every few\n"
	"minutes (every step does only what is not done yet):\n"
	"  1. inbox: the new mail in the Maildir PATH (umpire inbox)\n"
	"  2. when every due player has sent, or the deadline and grace are over (schedule:\n"
	"     missing: no-orders): entropy none resolves the turn from the kept orders; entropy\n"
	"     beacon or players closes it (umpire close --inbox) and waits for the randomness;\n"
	"     once the beacon round the close named is out, with --beacon-command, runs\n"
	"     'CMD ROUND' (sh -c), takes the round's value from its first output line and its\n"
	"     signature from the second, and resolves the turn (as umpire turn DIR --beacon VALUE\n"
	"     --beacon-signature SIG); with --beacon-fetch, fetches the round\n"
	"     from the beacon itself (drand's HTTP API at the campaign beacon's URL, or URL: as\n"
	"     umpire turn DIR --beacon-fetch) and journals its signature too; without either,\n"
	"     the umpire resolves the turn by hand; entropy players: once every committed\n"
	"     player's nonce is in (reveal files by mail, or umpire reveal), or schedule.reveal\n"
	"     after the close (the missing ones' commitments standing in), resolves the turn\n"
	"  3. mail: the receipts of a closed turn, the reports of the last turn, reminders to\n"
	"     the missing once the deadline is schedule.remind away\n"
	"  4. publish: when publish.auto is true, main and every tag to publish.remote\n"
	"  5. send: the outbox over SMTP when a server is set, or to the sendmail program\n"
	"     with mail.transport: sendmail (umpire send)\n"
	"  6. maintenance, between turns: once 50 turns were played since the last, git's loose\n"
	"     objects into one pack (no turn packs; umpire publish does it too)\n"
	"Once the game is over (the rule system ends it, or after 'umpire reveal'), run takes no\n"
	"more orders (each gets a reply saying so), mails every player once that the game is\n"
	"over and how to verify it, and still sends.\n"
	"A pass that does nothing prints nothing; each line says what this pass did (a message\n"
	"refused for good by the server: on stderr, once). --verbose also says what it waits\n"
	"for. A pass that did nothing leaves .umpire/run-idle: the next one is answered from it\n"
	"without reading the campaign until new mail, the next time something is due, another\n"
	"command or a hand edit changes the campaign, or other arguments. Exit 0, or 75 when\n"
	"mail could not go or --beacon-fetch could not reach the beacon (all else done: the\n"
	"next pass tries again).\n"
	"The clock is $SOURCE_DATE_EPOCH when set, else the system's; it decides only when a\n"
	"turn may close, never how it resolves.\n";

/* Prints a line of what the pass waits for (always, or with --verbose only) and keeps it for
 * the mark, which the front prints from. */
__attribute__((format(printf, 2, 3))) static void wait_line(int always, const char *fmt, ...)
{
	struct buf line = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(&line, fmt, ap);
	va_end(ap);
	if (always || verbose)
		printf("%s\n", buf_str(&line));
	if (idle_add_line(&idle, always, buf_str(&line)) < 0)
		busy = 1; /* a line the mark cannot hold: no mark */
	buf_release(&line);
}

/* t is a time when something may become due: the mark holds until the first after now. */
static void due(long long now, long long t)
{
	if (t > now && (due_at == IDLE_NEVER || t < due_at))
		due_at = t;
}

/* Step 1. EXIT_OK or the exit code. */
static int run_inbox(struct campaign *c, const char *maildir, long long now)
{
	struct inbox_report rep;
	size_t counts[7] = { 0 };
	/* the journal's soundness before a mail is journaled; an idle pass writes nothing */
	int mail = idle_mail_waiting(maildir);
	busy |= mail;
	if (mail && campaign_check_sound(c) < 0)
		return cmd_error("umpire run");
	int rc = inbox_run(c, maildir, now, &rep);
	for (size_t i = 0; i < rep.n_items; i++)
		counts[rep.items[i].verdict]++;
	busy |= rep.n_items > 0;
	if (rep.n_items == 0) /* the line --verbose prints, kept for the front */
		wait_line(0,
			"inbox: turn %d: 0 accepted, 0 refused, 0 duplicate, 0 for other campaigns, 0 unreadable, 0 automatic (not answered)",
			rep.turn);
	/* Mail left for another campaign is no news on every pass. */
	else if (rep.n_items > counts[INBOX_FOREIGN] || verbose)
		printf("inbox: turn %d: %zu accepted, %zu refused, %zu duplicate, %zu for other campaigns, %zu unreadable, %zu automatic (not answered)\n",
			rep.turn, counts[INBOX_ACCEPTED], counts[INBOX_REFUSED],
			counts[INBOX_DUPLICATE], counts[INBOX_FOREIGN], counts[INBOX_UNREADABLE],
			counts[INBOX_AUTOMATIC]);
	if (counts[INBOX_FAILED])
		printf("inbox: turn %d: %zu set aside in the Maildir's umpire-failed/ (their check failed)\n",
			rep.turn, counts[INBOX_FAILED]);
	inbox_report_release(&rep);
	return rc < 0 ? cmd_error("umpire run: inbox") : EXIT_OK;
}

/* 1 when the open turn may close: every due player has sent, or the schedule lets it go
 * without the missing (*allow_missing then set). Under entropy players, a player who is not
 * due may contribute until the deadline: before it, the turn waits for him too. */
static int ready(const struct campaign *c, const struct inbox_status *s, long long now,
	int *allow_missing)
{
	size_t missing = 0, due = 0, quiet = 0;
	for (size_t i = 0; i < s->n_players; i++) {
		due += s->players[i].due;
		missing += s->players[i].due && !s->players[i].sent;
		quiet += !s->players[i].due && !s->players[i].sent;
	}
	long long dl = pbem_deadline(&c->pbem, s->turn);
	if (quiet && c->entropy == CAMPAIGN_ENTROPY_PLAYERS && dl >= 0 && now < dl)
		return 0;
	/* The umpire ends the game with this turn (umpire end): it closes without the missing. */
	*allow_missing = missing > 0 &&
			 (inbox_missing_allowed(c, s->turn, now) || schedule_end(c, s->turn));
	/* schedule.close deadline: the orders in stay replaceable until the deadline. */
	if (missing == 0 && dl >= 0 && c->pbem.schedule.close == PBEM_CLOSE_DEADLINE && now < dl)
		return 0;
	return !s->game_over && due > 0 && (missing == 0 || *allow_missing);
}

/* Runs `sh -c 'CMD "$1"' sh ROUND` and reads its output (at most 1100 bytes): the round's
 * value on the first line (at most 1024 bytes), its signature on the second (none leaves
 * signature empty: the turn then refuses the value if the beacon signs). A command silent
 * for $UMPIRE_BEACON_COMMAND_TIMEOUT seconds (default 60) is stopped and reaped, as every
 * child umpire starts (core/spawn.h). 0, or -1 when it cannot run, fails, stalls or prints
 * nothing (told on stderr). */
static int beacon_value(const char *cmd, long long round, struct buf *value, struct buf *signature)
{
	char r[32], buf[1100];
	snprintf(r, sizeof(r), "%lld", round);
	char *script = xasprintf("%s \"$1\"", cmd);
	char *argv[] = { "sh", "-c", script, "sh", r, NULL };
	posix_spawn_file_actions_t fa;
	int fds[2], status = -1;
	pid_t pid;
	size_t n = 0;
	ssize_t got;

	if (spawn_pipe(fds) < 0) {
		free(script);
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_addclose(&fa, fds[0]);
	/* Its own process group: a command that stalls is stopped with whatever it started. */
	posix_spawnattr_t attr;
	posix_spawnattr_init(&attr);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
	posix_spawnattr_setpgroup(&attr, 0);
	int rc = posix_spawn(&pid, "/bin/sh", &fa, &attr, argv, environ);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	int timeout = spawn_timeout("UMPIRE_BEACON_COMMAND_TIMEOUT", 60), stalled = 0;
	while (rc == 0 && n < sizeof(buf) - 1) {
		struct pollfd p = { fds[0], POLLIN, 0 };
		int ready = poll(&p, 1, timeout * 1000);
		if (ready == 0) {
			stalled = 1;
			break;
		}
		if (ready < 0 && errno == EINTR)
			continue;
		got = ready < 0 ? -1 : read(fds[0], buf + n, sizeof(buf) - 1 - n);
		if (got == 0)
			break;
		if (got > 0)
			n += (size_t)got;
		else if (errno != EINTR)
			break;
	}
	close(fds[0]);
	if (rc == 0 && stalled) {
		(void)kill(-pid, SIGTERM);
		spawn_stop(pid);
		(void)kill(-pid, SIGKILL);
		fprintf(stderr,
			"umpire run: the beacon command gave no answer in %d seconds for round %lld: stopped\n",
			timeout, round);
		free(script);
		return -1;
	}
	if (rc == 0)
		status = spawn_wait(pid, timeout);
	free(script);
	buf[n] = '\0';
	char *v = buf;
	size_t vlen = strcspn(v, "\r\n");
	char *sig = v + vlen + strspn(v + vlen, "\r\n");
	sig[strcspn(sig, "\r\n")] = '\0';
	v[vlen] = '\0';
	if (rc != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0 || !v[0] || vlen > 1024) {
		fprintf(stderr, "umpire run: the beacon command gave no value for round %lld\n",
			round);
		return -1;
	}
	buf_puts(value, v);
	buf_puts(signature, sig);
	return 0;
}

/* Where run takes the beacon's value from (--beacon-command, --beacon-fetch). */
struct beacon_how {
	const char *cmd; /* --beacon-command CMD, or NULL */
	int fetch;       /* --beacon-fetch */
	const char *url; /* --beacon-url, or NULL: the campaign beacon's */
};

/* The value (and with a fetch the signature) of round: 0, or 1 when none yet (said). */
static int run_beacon_value(struct campaign *c, const struct beacon_how *how, int turn,
	long long round, long long now, struct buf *value, struct buf *signature)
{
	struct beacon_round fetched;
	int fetch_turn;

	if (how->cmd && beacon_value(how->cmd, round, value, signature) == 0)
		return 0;
	busy = 1; /* the round is out: a pass asks for it until it has it */
	if (how->cmd) {
		if (verbose)
			printf("turn %d: closed; no value yet for beacon round %lld\n", turn,
				round);
		return 1;
	}
	int rc = cmd_fetch_beacon(c, how->url, now, &fetch_turn, &fetched);
	if (rc < 0) { /* not fatal to the pass: told, the rest done, exit 75, tried next run */
		fprintf(stderr, "umpire run: turn %d: beacon round %lld not taken: %s\n", turn,
			round, cmd_message());
		beacon_failed = 1;
	}
	if (rc != 0)
		return 1;
	buf_puts(value, fetched.randomness);
	buf_puts(signature, fetched.signature);
	printf("turn %d: beacon round %lld fetched: randomness %s\n", turn, round,
		fetched.randomness);
	beacon_round_release(&fetched);
	return 0;
}

/* A closed turn with entropy beacon: resolved once its round is out and the command or the
 * fetch gives the round's value (*acted then set). EXIT_OK (also when still waiting) or the
 * exit code. */
static int run_beacon_turn(struct campaign *c, int turn, long long now,
	const struct beacon_how *how, int *acted)
{
	struct close_record r;
	char commit[41];
	struct buf value = BUF_INIT, signature = BUF_INIT;
	int code = EXIT_OK;

	if (turn_read_close(c, turn, &r, commit, NULL) < 0)
		return cmd_error("umpire run");
	due(now, r.round_at);
	if (now < r.round_at || (!how->cmd && !how->fetch)) {
		wait_line(0, "turn %d: closed; waiting for beacon round %lld%s", turn, r.round,
			how->cmd || how->fetch ?
				"" :
				" (umpire turn DIR --beacon VALUE, or --beacon-command or --beacon-fetch)");
	} else if (run_beacon_value(c, how, turn, r.round, now, &value, &signature) == 0) {
		struct turn t;
		*acted = 1;
		turn_init(&t, c, TURN_LIVE, 0, NULL, NULL, NULL);
		t.when = now;
		turn_set_beacon(&t, buf_str(&value), NULL);
		turn_set_beacon_signature(&t, signature.len ? buf_str(&signature) : NULL);
		if (turn_run(&t, "recover", "publish") < 0)
			code = cmd_turn_error(&t);
		else
			printf("turn %d: %s\n", turn, t.out.summary ? t.out.summary : "done");
		turn_release(&t);
	}
	close_release(&r);
	buf_release(&value);
	buf_release(&signature);
	return code;
}

/* A closed turn with entropy players: resolved once every committed player's nonce is in
 * (by mail or umpire reveal), or, with a schedule, once schedule.reveal has passed since the
 * close, the missing ones' commitments standing in (*acted then set). EXIT_OK (also when
 * waiting) or the code. */
static int run_players_turn(struct campaign *c, int turn, long long now, int *acted)
{
	struct close_record r;
	struct buf who = BUF_INIT;
	char commit[41], until[32];
	int code = EXIT_OK;

	if (turn_read_close(c, turn, &r, commit, NULL) < 0)
		return cmd_error("umpire run");
	size_t missing = turn_reveals_missing(c, &r, &who);
	long long end = c->pbem.schedule.set ? r.closed_at + c->pbem.schedule.reveal : -1;
	due(now, end);
	if (missing && (end < 0 || now < end)) {
		if (end >= 0)
			pbem_format_utc(until, sizeof(until), end);
		wait_line(0, "turn %d: closed; waiting for the nonces of %s (%s)", turn,
			buf_str(&who),
			end >= 0 ? until : "no schedule: umpire turn DIR --allow-missing to go on");
	} else {
		struct turn t;
		*acted = 1;
		turn_init(&t, c, TURN_LIVE, missing ? TURN_ALLOW_MISSING : 0, NULL, NULL, NULL);
		t.when = now;
		if (turn_run(&t, "recover", "publish") < 0)
			code = cmd_turn_error(&t);
		else
			printf("turn %d: %s%s%s\n", turn, t.out.summary ? t.out.summary : "done",
				missing ? "; no reveal from " : "", missing ? buf_str(&who) : "");
		turn_release(&t);
	}
	close_release(&r);
	buf_release(&who);
	return code;
}

/* Step 2: close or resolve the open turn from the kept orders. EXIT_OK or the exit code;
 * *acted set when it ran the turn pipeline (the status s no longer holds). */
static int run_close_or_turn(struct campaign *c, const struct inbox_status *s, long long now,
	const struct beacon_how *how, int *acted)
{
	int allow_missing, closing = c->entropy != CAMPAIGN_ENTROPY_NONE;
	size_t n;

	if (s->game_over) {
		wait_line(0, "turn %d: the game is over (%s)", s->turn, s->over);
		return EXIT_OK;
	}
	if (s->closed && c->entropy == CAMPAIGN_ENTROPY_BEACON)
		return run_beacon_turn(c, s->turn, now, how, acted);
	if (s->closed)
		return run_players_turn(c, s->turn, now, acted);
	long long until, dl = pbem_deadline(&c->pbem, s->turn);
	/* The times ready() and run_mail's reminders look at: the deadline, its grace, the
	 * reminder's time (each moved by the overrides, pauses included). */
	if (dl >= 0) {
		due(now, dl);
		due(now, dl + c->pbem.schedule.grace);
		if (c->pbem.schedule.remind >= 0)
			due(now, dl - c->pbem.schedule.remind);
	}
	if (schedule_paused(c, now, &until)) {
		char when[32];
		due(now, until);
		pbem_format_utc(when, sizeof when, until);
		wait_line(1, "turn %d: paused until %s", s->turn, when);
		return EXIT_OK;
	}
	if (!ready(c, s, now, &allow_missing)) {
		wait_line(0, "turn %d: waiting for orders", s->turn);
		return EXIT_OK;
	}
	struct turn t;
	*acted = 1;
	turn_init(&t, c, TURN_LIVE,
		(closing ? TURN_CLOSING : 0) | (allow_missing ? TURN_ALLOW_MISSING : 0), NULL, NULL,
		NULL);
	t.when = now;
	int rc = inbox_add_to_turn(c, &t, &n), code = EXIT_OK;
	if (rc == 0)
		rc = turn_run(&t, "recover", closing ? "close" : "publish");
	cmd_print_notes(&t.notes);
	if (rc < 0)
		code = cmd_turn_error(&t);
	else if (closing)
		printf("turn %d: closed with %zu %s%s\n", s->turn, n,
			cmd_plural(n, "order file", "order files"),
			allow_missing ? ", the missing as 'no orders'" : "");
	else
		printf("turn %d: %s\n", s->turn, t.out.summary ? t.out.summary : "done");
	turn_release(&t);
	return code;
}

/* Prints what a notify step queued: the outbox's growth (a message queued again, or sent
 * already, is no news). */
static void said(const struct campaign *c, size_t before, const char *what, int turn)
{
	size_t now = outbox_pending(c);
	busy |= now > before;
	if (now > before)
		printf("mail: %s%s%.0d queued for %zu player%s\n", what, turn ? " " : "", turn,
			now - before, now - before == 1 ? "" : "s");
}

/* Step 3, on the status as step 2 left it (inbox_status). EXIT_OK or the exit code. */
static int run_mail(struct campaign *c, long long now, const struct inbox_status *status)
{
	const struct inbox_status s = *status;
	size_t n = 0, before;
	int rc = 0;

	before = outbox_pending(c);
	if (s.turn > 1 && notify_reports(c, s.turn - 1, now, &n) == 0)
		said(c, before, "the reports of turn", s.turn - 1);
	/* Before turn 1 is played: each player's briefing, his side and his first order file
	 * (issue 37; outbox_queue sends each once). */
	before = outbox_pending(c);
	if (s.turn == 1 && !s.game_over && notify_briefings(c, now, &n) == 0)
		said(c, before, "the briefings", 0);
	before = outbox_pending(c);
	rc = s.closed && !s.game_over ? notify_receipts(c, s.turn, now, &n) : 0;
	if (s.closed && rc == 0)
		said(c, before, "the receipts of turn", s.turn);
	long long dl = pbem_deadline(&c->pbem, s.turn);
	long long until;
	if (rc == 0 && !s.closed && !s.game_over && dl >= 0 && c->pbem.schedule.remind >= 0 &&
		!schedule_paused(c, now, &until) && now >= dl - c->pbem.schedule.remind) {
		before = outbox_pending(c);
		rc = notify_reminders(c, s.turn, now, &n);
		if (rc == 0)
			said(c, before, "reminders for turn", s.turn);
	}
	/* The end: once for good (a sealed campaign: once revealed, so the mail names it). */
	if (rc == 0 && s.game_over && (c->visibility != CAMPAIGN_SEALED || s.revealed)) {
		before = outbox_pending(c);
		rc = notify_game_end(c, s.over, s.result, now, &n);
		if (rc == 0)
			said(c, before, "the game's end", 0);
	}
	return rc < 0 ? cmd_error("umpire run: mail") : EXIT_OK;
}

/* What was last pushed to url: "URL HEAD TAGS" in .umpire/published, so an idle pass pushes
 * (and says) nothing. A new string. */
static char *publish_mark(struct campaign *c, const char *url)
{
	char head[41] = "none";
	char **tags = NULL;
	int n = repo_tags(c->repo, "", &tags);
	if (repo_commit_id(c->repo, "HEAD", head) < 0)
		error_clear();
	if (n >= 0)
		repo_names_free(tags);
	return xasprintf("%s %s %d\n", url, head, n);
}

/* Steps 4 and 5. EXIT_OK or the exit code. */
static int run_publish_send(struct campaign *c, long long now)
{
	size_t n_tags;
	if (c->pbem.publish.autopush && c->pbem.publish.remote) {
		char *mark = publish_mark(c, c->pbem.publish.remote);
		char *path = xasprintf("%s/.umpire/published", c->dir);
		char *dir = xasprintf("%s/.umpire", c->dir);
		struct buf last = BUF_INIT;
		int same = file_read(path, 4096, &last) == 0 && strcmp(buf_str(&last), mark) == 0;
		error_clear();
		busy |= !same;
		int rc = same ? 0 : repo_push_all(c->repo, c->pbem.publish.remote, &n_tags);
		if (!same && rc == 0) {
			printf("publish: main and %zu %s to %s\n", n_tags,
				cmd_plural(n_tags, "tag", "tags"), c->pbem.publish.remote);
			if (file_write_durable(dir, "published", mark, strlen(mark)) < 0)
				error_clear(); /* only the next pass pushes again */
		}
		buf_release(&last);
		free(mark);
		free(path);
		free(dir);
		if (rc < 0)
			return cmd_error("umpire run: publish");
	}
	struct smtp_settings s;
	struct outbox_report rep;
	if (outbox_pending(c) == 0)
		return EXIT_OK;
	busy = 1; /* mail to send, or waiting for a server: each pass tries (or says so) */
	if (c->pbem.mail.transport == PBEM_TRANSPORT_SMTP && !c->pbem.mail.smtp &&
		!getenv("UMPIRE_SMTP_URL")) {
		if (verbose)
			printf("send: no SMTP server set: %zu %s in the outbox\n",
				outbox_pending(c),
				cmd_plural(outbox_pending(c), "message waits", "messages wait"));
		return EXIT_OK;
	}
	int code = cmd_smtp_settings(c, &s);
	if (code != EXIT_OK)
		return code;
	if (outbox_send(c, &s, now, &rep) < 0)
		code = cmd_error("umpire run: send");
	printf("send: %zu sent, %zu left for the next run%s%.0zu%s\n",
		rep.n_items - rep.n_failed - rep.n_moved, rep.n_failed, rep.n_moved ? ", " : "",
		rep.n_moved, rep.n_moved ? " refused for good" : "");
	for (size_t i = 0; i < rep.n_items; i++)
		if (!rep.items[i].sent)
			fprintf(stderr, "umpire run: %s %s: %s\n", rep.items[i].name,
				rep.items[i].failed ?
					"refused for good, moved to .umpire/outbox/failed (umpire outbox)" :
					"not sent",
				rep.items[i].reason ? rep.items[i].reason : "?");
	if (code == EXIT_OK && rep.n_failed)
		code = EXIT_TEMPFAIL;
	outbox_report_release(&rep);
	return code;
}

/* Step 6, between turns: the maintenance no turn does (turn_maintain). A failure is said
 * and left to the next pass: the campaign is as valid as before. */
static void run_maintain(struct campaign *c)
{
	int n = turn_maintain(c);
	busy |= n != 0;
	if (n < 0)
		fprintf(stderr, "umpire run: maintenance (left for the next pass): %s\n",
			error_last()->message);
	else if (n > 0 && verbose)
		printf("maintenance: %d git objects packed\n", n);
	error_clear();
}

/* What an idle pass's decision rests on besides the Maildir's new/ and the clock: the front
 * (src/front.c) runs the full pass once any of these is not as the mark says. Paths relative
 * to the campaign; NNNN is the open turn. */
static const char *const idle_watch[] = {
	/* the settings: read from HEAD, but a hand edit is the umpire's news to the full pass */
	"campaign.yaml",
	/* the history: the state (the open turn, game over), the close and reveal tags, the
	 * branch publish pushes, the turns since maintenance last packed */
	".git/HEAD",
	".git/" LAYOUT_BRANCH,
	".git/packed-refs",
	".git/refs/tags",
	/* the journal (the open turn, the inbox's record), taken with SQLite's files closed */
	".umpire/journal.sqlite",
	".umpire/journal.sqlite-wal",
	".umpire/journal.sqlite-shm",
	/* the players' addresses; the overrides not yet committed (they move deadlines) */
	".umpire/" LAYOUT_ADDRESSES,
	".umpire/" SCHEDULE_PENDING,
	/* what publish pushed last; the turn maintenance packed at */
	".umpire/published",
	".umpire/packed",
	/* the outbox: a message waiting is sent by every pass; sent/, failed/ and dropped/ are
	 * how each notify step knows it queued its mail once */
	".umpire/outbox",
	".umpire/outbox/new",
	".umpire/outbox/sent",
	".umpire/outbox/failed",
	".umpire/outbox/dropped",
	/* the open turn's orders kept from mail, its close's files, its nonces (entropy
	 * players), and the folders they are made in */
	".umpire/inbox",
	".umpire/inbox/" LAYOUT_TAG_PREFIX "NNNN",
	".umpire/closed",
	".umpire/closed/" LAYOUT_TAG_PREFIX "NNNN",
	".umpire/reveals",
	".umpire/reveals/" LAYOUT_TAG_PREFIX "NNNN",
};

/* Writes .umpire/run-idle for the pass that did nothing: the journal closed first (SQLite's
 * -wal and -shm go), the writer lock still held, so nothing changes between what the pass
 * read and the stat taken. A cache: written by rename, not synced (file_write_atomic; the
 * front takes nothing but a whole mark, its "end" line last); a failure is only a full next
 * pass. */
static void write_idle_mark(struct campaign *c, int turn)
{
	char *udir = xasprintf("%s/.umpire", c->dir), *text = NULL;
	int dfd = open(c->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), ok = dfd >= 0;
	struct stat st;
	size_t len = 0;

	campaign_close_journal(c);
	idle.until = due_at;
	/* .git as a file (a linked work tree) would leave the refs unwatched */
	ok = ok && fstatat(dfd, ".git", &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
	for (size_t i = 0; ok && i < sizeof(idle_watch) / sizeof(idle_watch[0]); i++) {
		struct buf path = BUF_INIT;
		const char *nnnn = strstr(idle_watch[i], "NNNN");
		if (nnnn)
			buf_printf(&path, "%.*s%04d", (int)(nnnn - idle_watch[i]), idle_watch[i],
				turn);
		else
			buf_puts(&path, idle_watch[i]);
		ok = idle_add_stat(&idle, dfd, buf_str(&path)) == 0;
		buf_release(&path);
	}
	if (ok && (text = idle_format(&idle, &len)))
		(void)file_write_atomic(udir, IDLE_MARK, text, len);
	error_clear(); /* no mark: the next pass is a full one */
	if (dfd >= 0)
		close(dfd);
	free(text);
	free(udir);
}

int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "maildir", required_argument, NULL, 'm' },
		{ "beacon-command", required_argument, NULL, 'b' },
		{ "beacon-fetch", no_argument, NULL, 'f' },
		{ "beacon-url", required_argument, NULL, 'U' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *maildir = NULL;
	struct beacon_how how = { NULL, 0, NULL };
	int ch;

	/* The arguments as given (getopt_long reorders argv): the front compares them. */
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], "--verbose") != 0 && idle_add_arg(&idle, argv[i]) < 0)
			busy = 1;

	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (ch == 'h') {
			fputs(run_help, stdout);
			return EXIT_OK;
		}
		if (ch == 'v') {
			verbose = 1;
			continue;
		}
		if (ch == 'b' || ch == 'f' || ch == 'U') {
			how.cmd = ch == 'b' ? optarg : how.cmd;
			how.fetch |= ch == 'f';
			how.url = ch == 'U' ? optarg : how.url;
			continue;
		}
		if (ch != 'm')
			return cmd_usage_see("run");
		maildir = optarg;
	}
	static const char *const operands[] = { "DIR (the campaign folder)" };
	if (cmd_operands("run", argc - optind, argv + optind, operands, 1, 1) != EXIT_OK)
		return EXIT_USAGE;
	if (!maildir)
		return cmd_usage("run",
			"missing --maildir PATH (the Maildir the orders arrive in)");
	if (how.cmd && how.fetch)
		return cmd_usage("run", "--beacon-command or --beacon-fetch, not both");
	if (how.url && !how.fetch)
		return cmd_usage("run", "--beacon-url goes with --beacon-fetch");
	struct campaign *c = NULL;
	if (campaign_open(&c, argv[optind],
		    CAMPAIGN_LOCK | CAMPAIGN_JOURNAL | CAMPAIGN_SOUND_LATER) < 0)
		return cmd_error("umpire");
	long long now = clock_now();
	struct inbox_status s = { 0 };
	int acted = 0;
	int code = run_inbox(c, maildir, now);
	if (code == EXIT_OK && inbox_status(c, &s) < 0)
		code = cmd_error("umpire run: status");
	if (code == EXIT_OK)
		code = run_close_or_turn(c, &s, now, &how, &acted);
	/* The status once more only when step 2 changed the campaign (reading it was most of
	 * an idle pass: issue 38). */
	if (code == EXIT_OK && acted) {
		inbox_status_release(&s);
		if (inbox_status(c, &s) < 0)
			code = cmd_error("umpire run: status");
	}
	if (code == EXIT_OK)
		code = run_mail(c, now, &s);
	int turn = s.turn;
	inbox_status_release(&s);
	if (code == EXIT_OK)
		code = run_publish_send(c, now);
	if (code == EXIT_OK && beacon_failed)
		code = EXIT_TEMPFAIL;
	run_maintain(c);
	if (code == EXIT_OK && !busy && !acted && !beacon_failed)
		write_idle_mark(c, turn);
	idle_mark_release(&idle);
	campaign_close(c);
	return code;
}
