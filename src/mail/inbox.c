/* inbox.c — orders by mail (inbox.h): a Maildir's new messages checked as `umpire check`
 * does, the accepted ones kept as the players' current orders, every one journaled and
 * answered through the outbox before it leaves new/. Order of the durable steps, so a crash
 * anywhere is finished by running again: the order file, the reply, the journal row, then
 * the move to cur/ (a message whose Message-ID the journal holds is only moved). Under entropy
 * players, a mail whose file has a `nonce:` after the close is a player's reveal: checked as
 * `umpire reveal` checks it and kept the same way, through the same steps. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mail/inbox.h"
#include "core/timelock.h"
#include "mail/extend.h"
#include "core/end.h"
#include "core/campaign.h"
#include "core/close.h"
#include "core/durable.h"
#include "core/file.h"
#include "core/layout.h"
#include "core/receipt.h"
#include "core/spawn.h"
#include "mail/mail.h"
#include "mail/notify.h"
#include "mail/outbox.h"
#include "mail/sshsig.h"
#include "core/turn.h"
#include "core/banned.h"

char *inbox_turn_dir(const struct campaign *c, int turn)
{
	return turn_private_dir(c, "inbox", turn);
}

int inbox_open_turn(struct campaign *c, int *turn)
{
	int last;
	if (journal_last_turn(c->journal, &last) < 0)
		return -1;
	*turn = last + 1;
	return 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A message file in new/ and its delivery time. */
struct pending {
	char *name;
	long long mtime;
};

static int cmp_pending(const void *a, const void *b)
{
	const struct pending *x = a, *y = b;
	if (x->mtime != y->mtime)
		return x->mtime < y->mtime ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The regular files of maildir/new, oldest first (ties by name), at most
 * INBOX_MAX_MESSAGES. Returns the count, or -1. */
static long list_new(const char *maildir, struct pending **out)
{
	char *dir = xasprintf("%s/cur", maildir);
	/* cur/ a link: refused before a message is handled, not after */
	int cur = file_open_dir(dir, 0);
	if (cur < 0 && errno == ELOOP) {
		free(dir);
		return -1;
	}
	if (cur >= 0)
		close(cur);
	free(dir);
	dir = xasprintf("%s/new", maildir);
	DIR *d = file_opendir(dir);
	struct dirent *e;
	size_t n = 0;
	int link = 0;

	*out = NULL;
	if (!d && errno == ELOOP) {
		free(dir);
		return -1;
	}
	if (!d) {
		error_set(ERROR_MISSING, "cannot open Maildir '%s': %s", dir, strerror(errno));
		free(dir);
		return -1;
	}
	while (!link && (e = readdir(d)) && n < INBOX_MAX_MESSAGES) {
		struct stat st;
		/* A link is never read nor moved: refused by name (file.h). */
		if (e->d_name[0] == '.' ||
			fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		if (S_ISLNK(st.st_mode)) {
			error_set(ERROR_INPUT,
				"'%s/%s' is a symbolic link: umpire never follows a link inside a campaign or a Maildir (replace it with the file itself)",
				dir, e->d_name);
			link = 1;
		}
		if (!S_ISREG(st.st_mode))
			continue;
		*out = xrealloc(*out, (n + 1) * sizeof(**out));
		(*out)[n].name = xstrdup(e->d_name);
		(*out)[n].mtime = (long long)st.st_mtim.tv_sec;
		n++;
	}
	closedir(d);
	free(dir);
	if (link) {
		for (size_t i = 0; i < n; i++)
			free((*out)[i].name);
		free(*out);
		*out = NULL;
		return -1;
	}
	if (n)
		qsort(*out, n, sizeof(**out), cmp_pending);
	return (long)n;
}

/* Moves maildir/new/name to maildir/cur/name:2,S (seen), durably. 0 / -1. */
static int move_to_cur(const char *maildir, const char *name)
{
	char *from = xasprintf("%s/new/%s", maildir, name);
	char *to = xasprintf("%s/cur/%s%s", maildir, name, strchr(name, ':') ? "" : ":2,S");
	int rc = file_rename_durable(from, to);

	free(from);
	free(to);
	return rc;
}

/* Moves maildir/new/name to maildir/INBOX_FAILED_DIR/name, durably: a mail whose checking
 * failed, kept for the umpire out of the queue. 0 / -1. */
static int move_aside(const char *maildir, const char *name)
{
	char *dir = xasprintf("%s/" INBOX_FAILED_DIR, maildir);
	char *from = xasprintf("%s/new/%s", maildir, name);
	char *to = xasprintf("%s/%s", dir, name);
	int rc = file_mkdir_p(dir, 0700);

	if (rc == 0)
		rc = file_rename_durable(from, to);
	free(dir);
	free(from);
	free(to);
	return rc;
}

/* inbox_game_over with the state after turn last (HEAD's), which the caller keeps. */
static int game_over_of(struct campaign *c, int last, const void *state, char **why)
{
	char tag[LAYOUT_TAG_MAX];
	const char *rule_why = NULL;

	*why = NULL;
	if (repo_has(c->repo, LAYOUT_REVEAL_TAG)) {
		*why = xstrdup("the campaign is revealed (tag 'reveal')");
		return 1;
	}
	layout_close_tag(tag, last + 1);
	struct buf ended = BUF_INIT;
	if (end_of_turn(c, last, &ended, NULL, NULL))
		*why = buf_detach(&ended); /* a concession or the umpire's end (core/end.h) */
	else if (!repo_has(c->repo, tag) && c->rules->game_over &&
		 c->rules->game_over(&c->rc, state, last + 1, &rule_why))
		*why = xstrdup(rule_why ? rule_why : "the rule system says so");
	else if ((uint32_t)(last + 1) > c->chain_length)
		*why = xasprintf("turn %d is beyond the key chain", last + 1);
	return *why != NULL;
}

int inbox_game_over(struct campaign *c, char **why)
{
	void *state = NULL;
	int last;

	*why = NULL;
	if (repo_has(c->repo, LAYOUT_REVEAL_TAG)) {
		*why = xstrdup("the campaign is revealed (tag 'reveal')");
		return 1;
	}
	if (campaign_load_state(c, "HEAD", &last, &state) < 0)
		return -1;
	int rc = game_over_of(c, last, state, why);
	c->rules->state_free(state);
	return rc;
}

/* campaign_victory of state as new strings: the line into *result, the winner's id (or
 * NULL) into *winner. */
static void victory_strings(struct campaign *c, int last, const void *state, char **result,
	char **winner)
{
	struct buf line = BUF_INIT;
	const char *w = NULL;

	if (!end_of_turn(c, last, NULL, &line, &w))
		campaign_victory(c, state, &w, &line);
	*winner = w ? xstrdup(w) : NULL;
	*result = buf_detach(&line);
}

/* The campaigns that take mail from maildir: one empty file per id in
 * maildir/umpire-campaigns/ (Maildir readers ignore it), each added by its own inbox. */
static void register_campaign(const struct campaign *c, const char *maildir)
{
	char *dir = xasprintf("%s/umpire-campaigns", maildir);
	struct stat st;
	char *path = xasprintf("%s/%s", dir, c->id);
	if (lstat(path, &st) != 0 && file_mkdir_p(dir, 0700) == 0)
		file_write_durable(dir, c->id, "", 0);
	error_clear();
	free(path);
	free(dir);
}

/* The ids registered in maildir/umpire-campaigns, ", "-separated and sorted, onto out. */
static void registered_campaigns(const char *maildir, struct buf *out)
{
	char *dir = xasprintf("%s/umpire-campaigns", maildir);
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL;
	size_t n = 0;
	while (d && (e = readdir(d)) && n < 100) {
		if (e->d_name[0] == '.')
			continue;
		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n++] = xstrdup(e->d_name);
	}
	if (d)
		closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), cmp_name);
	for (size_t i = 0; i < n; i++) {
		buf_printf(out, "%s%s", i ? ", " : "", v[i]);
		free(v[i]);
	}
	free(v);
	free(dir);
}

/* One message being handled. */
struct intake {
	struct campaign *c;
	const char *maildir;
	int turn;         /* the open turn */
	int closed;       /* it has a close tag: no more orders */
	const char *over; /* the game is over: why; NULL while it goes on */
	long long now;    /* handled at */
	struct mail_in m;
	struct buf raw; /* the message as delivered */
	uint8_t mail_sha256[FAIR_HASH_BYTES];
	char *message_id;  /* m.message_id or "sha256:HEX" */
	long long arrived; /* the file's mtime */
	int player;        /* the sender's player index, -1 */
	int signed_by_key; /* the orders carry a good signature by the player's ssh_key */
	struct buf why;    /* refused: every problem, for the reply */
	uint8_t sha256[FAIR_HASH_BYTES]; /* the order file's (a reveal: the reveal file's) */
	int is_reveal;                   /* the file is a reveal (it has `nonce:`) */
	int contribution;                /* a player not due: his entropy: alone */
	uint8_t nonce[FAIR_HASH_BYTES];  /* a reveal accepted: its nonce */
	struct node *yaml;               /* the order text as parsed once for peek, or NULL */
	int yaml_read;                   /* peek parsed it already */
	int extension;                   /* an `extend DURATION` mail (extend.c), no orders */
	struct buf granted;              /* an extension granted: what moved */
};

/* The scalar under the top-level key of the order text (a new string), or NULL: when the
 * text does not parse, the check that follows tells the player why. The text is parsed on
 * the first call only (in->yaml). */
static char *peek(struct intake *in, const char *key)
{
	if (!in->yaml_read && in->m.orders) {
		struct diag d;
		struct node_limits lim = { .max_bytes = ORDER_FILE_MAX_BYTES,
			.max_nodes = ORDER_FILE_MAX_NODES };
		diag_init(&d);
		/* in->yaml stays NULL when the text does not parse */
		(void)node_parse(&in->yaml, "orders", in->m.orders, in->m.orders_len, &lim, &d);
		diag_release(&d);
		in->yaml_read = 1;
	}
	const struct node *n = in->yaml ? node_get(in->yaml, key) : NULL;
	return n && n->kind == NODE_SCALAR ? xstrdup(n->scalar) : NULL;
}

/* 1 when the orders name another campaign than in's. */
static int other_campaign(struct intake *in)
{
	char *id = peek(in, "campaign");
	int other = id && strcmp(id, in->c->id) != 0;
	free(id);
	return other;
}

/* Signed orders: the file's player must have an ssh_key, and ssh-keygen must find the
 * signature good for it; then he is the sender, whatever the From address. 0 good (in->player
 * set), 1 refused (in->why), -1 ssh-keygen cannot run. */
static int check_signature(struct intake *in)
{
	struct campaign *c = in->c;
	char *who = peek(in, "player");
	int idx = -1, rc;

	for (size_t i = 0; who && i < c->n_players; i++)
		if (strcmp(c->players[i], who) == 0)
			idx = (int)i;
	if (idx < 0 || !c->pbem.contacts[idx].ssh_key) {
		buf_printf(&in->why,
			"the orders are signed, but player '%s' has no ssh_key in campaign.yaml to check them with\n",
			who ? who : "?");
		free(who);
		return 1;
	}
	char *tmp = xasprintf("%s/.umpire/tmp", c->dir);
	struct buf why = BUF_INIT;
	rc = sshsig_verify(tmp, c->pbem.contacts[idx].ssh_key, who, in->m.orders, in->m.orders_len,
		in->m.signature, in->m.signature_len, &why);
	if (rc == 0)
		buf_printf(&in->why,
			"the signature is not a good signature of this file by player '%s' (ssh-keygen -Y verify: %s)\n",
			who, buf_str(&why));
	if (rc == 1) {
		in->player = idx;
		in->signed_by_key = 1;
	}
	free(tmp);
	free(who);
	buf_release(&why);
	return rc == 1 ? 0 : rc == 0 ? 1 : -1;
}

/* The problems of orders taken from a mail's body, with the line numbers of the body as
 * the player sees it: the same check run again on the orders behind as many empty lines as
 * the body had before them (YAML reads them as nothing), so no message is rewritten. */
static void body_diagnostics(const struct intake *in, struct buf *out)
{
	struct buf padded = BUF_INIT;
	struct turn t;
	for (size_t i = 1; i < in->m.orders_line; i++)
		buf_puts(&padded, "\n");
	buf_append(&padded, in->m.orders, in->m.orders_len);
	turn_init(&t, in->c, TURN_LIVE, TURN_CHECK_ONLY, NULL, NULL, NULL);
	turn_add_order_bytes(&t, in->m.orders_name, padded.data, padded.len);
	if (turn_run(&t, "load", "orders") < 0 && diag_count(&t.diag))
		diag_format(&t.diag, out, 0);
	else
		buf_puts(out, "the orders in the body are refused\n");
	error_clear();
	turn_release(&t);
	buf_release(&padded);
}

/* Checks the order file as `umpire check` does; 0 accepted (file's player is the sender's),
 * 1 refused (in->why says why), -1 failure of the campaign itself. */
static int check_orders(struct intake *in)
{
	struct turn t;
	int rc;

	turn_init(&t, in->c, TURN_LIVE, TURN_CHECK_ONLY, NULL, NULL, NULL);
	/* Time-locked: nothing inside says who sent it; the sender's address does. */
	char *tl_name = in->c->orders_timelocked ?
				xasprintf("%s.yaml" TIMELOCK_SUFFIX, in->c->players[in->player]) :
				NULL;
	turn_add_order_bytes(&t, tl_name ? tl_name : in->m.orders_name, in->m.orders,
		in->m.orders_len);
	free(tl_name);
	rc = turn_run(&t, "load", "orders");
	if (rc < 0 && t.failed_step && strcmp(t.failed_step, "orders") == 0 &&
		diag_count(&t.diag)) {
		if (in->m.orders_line > 1)
			body_diagnostics(in, &in->why);
		else
			diag_format(&t.diag, &in->why, 0);
		rc = 1;
	} else if (rc < 0) {
		error_prefix("checking '%s'", in->m.orders_name);
	} else if (t.in.n_files != 1 || !t.in.files[0].player) {
		rc = error_set(ERROR_INTERNAL, "internal error: a checked file has no player");
	} else if (strcmp(t.in.files[0].player, in->c->players[in->player]) != 0) {
		buf_printf(&in->why,
			"the orders are for player '%s', but they come from the address of player '%s'\n",
			t.in.files[0].player, in->c->players[in->player]);
		rc = 1;
	} else if (t.in.turn != in->turn) {
		buf_printf(&in->why, "the orders are for turn %d; turn %d is open\n", t.in.turn,
			in->turn);
		rc = 1;
	} else {
		memcpy(in->sha256, t.in.files[0].sha256, FAIR_HASH_BYTES);
		in->contribution = t.in.files[0].contribution;
		rc = 0;
	}
	turn_release(&t);
	return rc;
}

/* A reveal after the close (entropy players): the file parsed as `umpire reveal` parses it,
 * its player the sender's, its nonce the one his orders committed to. 0 accepted (in->nonce),
 * 1 refused (in->why), -1 failure. */
static int judge_reveal(struct intake *in)
{
	struct campaign *c = in->c;
	struct close_record r;
	struct diag d;
	struct buf bytes = BUF_INIT, why = BUF_INIT;
	char commit[41], *player = NULL;
	int rc = 1;

	fair_sha256(in->sha256, in->m.orders, in->m.orders_len);
	if (c->entropy != CAMPAIGN_ENTROPY_PLAYERS || !in->closed) {
		buf_printf(&in->why,
			"the file has a nonce, but campaign '%s' takes reveals only after a close under entropy players (turn %d is %s, entropy %s)\n",
			c->id, in->turn, in->closed ? "closed" : "open",
			campaign_entropy_names[c->entropy]);
		return 1;
	}
	if (turn_read_close(c, in->turn, &r, commit, NULL) < 0)
		return -1;
	diag_init(&d);
	buf_append(&bytes, in->m.orders, in->m.orders_len);
	if (close_reveal_file_parse(in->m.orders_name, &bytes, c->id, in->turn, &player, in->nonce,
		    &d) < 0)
		diag_format(&d, &in->why, 0);
	else if (strcmp(player, c->players[in->player]) != 0)
		buf_printf(&in->why,
			"the reveal is for player '%s', but it comes from the address of player '%s'\n",
			player, c->players[in->player]);
	else if (close_reveal_check(&r, player, in->nonce, &why) != 0)
		buf_printf(&in->why, "%s\n", buf_str(&why));
	else
		rc = 0;
	free(player);
	diag_release(&d);
	buf_release(&bytes);
	buf_release(&why);
	close_release(&r);
	return rc;
}

/* 1 when the mail's file is a reveal: a top-level `nonce:` (order files have none). */
static int reveal_file(struct intake *in)
{
	char *nonce = peek(in, "nonce");
	in->is_reveal = nonce != NULL;
	free(nonce);
	return in->is_reveal;
}

/* Decides: 0 accepted, 1 refused (in->why), -1 failure. */
static int judge(struct intake *in)
{
	const struct campaign *c = in->c;

	if (in->m.problem) {
		buf_printf(&in->why, "%s\n", in->m.problem);
		return 1;
	}
	if (in->m.signature) {
		int rc = check_signature(in);
		if (rc != 0)
			return rc;
	} else if (in->player < 0) {
		buf_printf(&in->why,
			"%s is not the address of a player of campaign '%s' (orders are taken only from the addresses the umpire has for the players, or signed)\n",
			in->m.from, c->id);
		return 1;
	} else if (c->pbem.mail.require_signature) {
		buf_printf(&in->why,
			"campaign '%s' takes signed orders only: sign the file (ssh-keygen -Y sign -f KEY -n " SSHSIG_NAMESPACE
			" FILE) and attach FILE and FILE.sig\n",
			c->id);
		return 1;
	}
	if (in->over) {
		buf_printf(&in->why,
			"the game of campaign '%s' is over (%s): it takes no more orders; its last report and 'umpire verify' on a clone of the campaign tell the rest\n",
			c->id, in->over);
		return 1;
	}
	if (reveal_file(in))
		return judge_reveal(in);
	char *t = peek(in, "turn"), *end = NULL;
	long ft = t ? strtol(t, &end, 10) : 0;
	int file_turn = t && end && !*end && *t && ft > 0 && ft < 100000 ? (int)ft : 0;
	free(t);
	if (file_turn > in->turn || (in->closed && file_turn == in->turn + 1)) {
		buf_printf(&in->why,
			"these are orders for turn %d, which is not open yet: turn %d is %s (send them after turn %d's report, if you are due on turn %d)\n",
			file_turn, in->turn, in->closed ? "closed" : "open", file_turn - 1,
			file_turn);
		return 1;
	}
	if (in->closed) {
		buf_printf(&in->why,
			"turn %d of campaign '%s' is closed: its orders are fixed, and these came too late (turn %d's report will say whether you are due on turn %d)\n",
			in->turn, c->id, in->turn, in->turn + 1);
		return 1;
	}
	if (file_turn && file_turn < in->turn) {
		buf_printf(&in->why, "this is turn %d's file; turn %d is open\n", file_turn,
			in->turn);
		return 1;
	}
	return check_orders(in);
}

/* What the checking child hands back (judge_apart): the fields judge sets, then why's text
 * and, when judge failed, the error's message. */
struct verdict_wire {
	int32_t rc, player, signed_by_key, is_reveal, contribution, klass;
	uint32_t why_len, err_len;
	uint8_t sha256[FAIR_HASH_BYTES], nonce[FAIR_HASH_BYTES];
};

/* The checking child: judge, its result on fd, _exit (never exit: the parent's stdio buffers
 * and atexit handlers are the parent's). $UMPIRE_TEST_CHECK_CRASH is the test hook: a file
 * holding its text crashes the check (SIGSEGV), as a checker bug would, or with
 * $UMPIRE_TEST_CHECK_HANG set never ends. */
static void judge_child(struct intake *in, int fd)
{
	const char *bomb = getenv("UMPIRE_TEST_CHECK_CRASH");
	if (bomb && *bomb && in->m.orders && strstr(in->m.orders, bomb)) {
		if (getenv("UMPIRE_TEST_CHECK_HANG")) /* ... or never ends, as a loop would */
			for (;;)
				pause();
		raise(SIGSEGV);
	}
	int rc = judge(in);
	const char *err = rc < 0 ? error_last()->message : "";
	struct verdict_wire w = { .rc = rc,
		.player = in->player,
		.signed_by_key = in->signed_by_key,
		.is_reveal = in->is_reveal,
		.contribution = in->contribution,
		.klass = (int32_t)error_last()->klass,
		.why_len = (uint32_t)in->why.len,
		.err_len = (uint32_t)strlen(err) };
	memcpy(w.sha256, in->sha256, sizeof(w.sha256));
	memcpy(w.nonce, in->nonce, sizeof(w.nonce));
	int bad = spawn_write_all(fd, (const char *)&w, sizeof(w), 0, 0) < 0 ||
		  spawn_write_all(fd, in->why.data ? in->why.data : "", in->why.len, 0, 0) < 0 ||
		  spawn_write_all(fd, err, w.err_len, 0, 0) < 0;
	_exit(bad ? 70 : 0);
}

/* Everything the child wrote on fd until it closed it (at most max bytes, each wait at most
 * limit seconds) into out. 0, or -1 when it stalled or said too much. */
static int read_child(int fd, int limit, size_t max, struct buf *out)
{
	char chunk[4096];
	for (;;) {
		struct pollfd p = { fd, POLLIN, 0 };
		int ready = poll(&p, 1, limit * 1000);
		if (ready < 0 && errno == EINTR)
			continue;
		if (ready <= 0)
			return -1;
		ssize_t got = read(fd, chunk, sizeof(chunk));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return got == 0 ? 0 : -1;
		if (out->len + (size_t)got > max)
			return -1;
		buf_append(out, chunk, (size_t)got);
	}
}

/* judge run in a child process, so a checker that crashes, fails unexpectedly or never ends
 * costs this one mail, never the queue: 0 accepted, 1 refused (in->why), 2 the check failed
 * (in->why says how, for the reply: the mail is then set aside), -1 failure of the campaign
 * or the machine (the run stops; the mail stays in new/). */
static int judge_apart(struct intake *in)
{
	int fds[2], status = 0;
	int limit = spawn_timeout("UMPIRE_CHECK_TIMEOUT", INBOX_CHECK_TIMEOUT);
	struct buf got = BUF_INIT;
	struct verdict_wire w;

	if (spawn_pipe(fds) < 0)
		return error_set(ERROR_OS, "inbox: cannot make a pipe: %s", strerror(errno));
	fflush(NULL); /* nothing buffered is written twice */
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return error_set(ERROR_OS, "inbox: cannot fork to check a mail: %s",
			strerror(errno));
	}
	if (pid == 0) {
		close(fds[0]);
		judge_child(in, fds[1]);
	}
	close(fds[1]);
	int read_ok = read_child(fds[0], limit, sizeof(w) + 2 * MAIL_MAX_BYTES, &got) == 0;
	close(fds[0]);
	if (!read_ok)
		spawn_stop(pid);
	else if ((status = spawn_wait(pid, limit)) < 0)
		read_ok = 0;
	memset(&w, 0, sizeof(w));
	if (got.len >= sizeof(w))
		memcpy(&w, got.data, sizeof(w));
	int whole = read_ok && WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
		    got.len == sizeof(w) + (size_t)w.why_len + w.err_len && w.rc >= -1 && w.rc <= 1;
	int rc;
	if (whole && (w.rc >= 0 || (w.klass != ERROR_INTERNAL && w.klass != ERROR_INPUT))) {
		in->player = w.player;
		in->signed_by_key = w.signed_by_key;
		in->is_reveal = w.is_reveal;
		in->contribution = w.contribution;
		memcpy(in->sha256, w.sha256, sizeof(w.sha256));
		memcpy(in->nonce, w.nonce, sizeof(w.nonce));
		buf_append(&in->why, got.data + sizeof(w), w.why_len);
		rc = w.rc < 0 ? error_set((enum error_class)w.klass, "%.*s", (int)w.err_len,
					got.data + sizeof(w) + w.why_len) :
				w.rc;
	} else {
		char how[160];
		if (whole)
			snprintf(how, sizeof(how), "%.*s", (int)w.err_len,
				got.data + sizeof(w) + w.why_len);
		else if (!read_ok)
			snprintf(how, sizeof(how), "it took longer than %d seconds", limit);
		else if (WIFSIGNALED(status))
			snprintf(how, sizeof(how), "the checker crashed (signal %d)",
				WTERMSIG(status));
		else
			snprintf(how, sizeof(how), "the checker ended unexpectedly");
		buf_clear(&in->why);
		buf_printf(&in->why,
			"umpire could not check this mail: %s. The mail is set aside for the umpire, who is told; a corrected file may be sent again\n",
			how);
		rc = 2;
	}
	buf_release(&got);
	return rc;
}

/* The reply's text: the acceptance (the file's hash) or every problem. */
static void reply_body(struct buf *b, const struct intake *in, int accepted)
{
	const struct campaign *c = in->c;
	char when[32], deadline[32];
	long long dl = pbem_deadline(&c->pbem, in->turn);

	pbem_format_utc(when, sizeof(when), in->arrived);
	if (dl >= 0)
		pbem_format_utc(deadline, sizeof(deadline), dl);
	if (in->extension) {
		buf_printf(b, "Your mail of %s to campaign '%s' asked for more time:\n\n%s\n", when,
			c->id, accepted ? buf_str(&in->granted) : buf_str(&in->why));
		buf_puts(b, accepted ? "\nEvery player is told; the turn's close commits it.\n" :
				       "\nNothing was changed.\n");
		return;
	}
	if (accepted && in->is_reveal) {
		buf_printf(b,
			"Your nonce is in (received %s): its SHA-256 is the entropy your orders for\n"
			"turn %d committed to. The turn is resolved once every reveal is in, or when\n"
			"the time for reveals is over. This mail is your reveal receipt: keep it as it\n"
			"came (.eml); 'umpire verify DIR --receipt FILE' fails should the turn journal\n"
			"\"no reveal from %s\".\n\n",
			when, in->turn, c->players[in->player]);
		receipt_reveal(b, c->id, in->turn, c->players[in->player], in->nonce);
		return;
	}
	if (accepted && in->contribution) {
		/* entropy players, a player not due (docs/fairness.md, "Contributions") */
		buf_printf(b,
			"Your entropy for turn %d is accepted: you are not due, so your file gives no\n"
			"orders, but its entropy: joins the turn's randomness (a later valid file\n"
			"replaces it until the close). After the close, your receipt comes in a mail\n"
			"of its own; then send your reveal file (nonce: ...).\n",
			in->turn);
	} else if (accepted) {
		buf_printf(b,
			"Your orders are accepted: they are your orders for turn %d until the turn\n"
			"closes; a later valid file replaces them until then.\n",
			in->turn);
		if (dl >= 0 && c->pbem.schedule.close == PBEM_CLOSE_DEADLINE)
			buf_printf(b, "The turn closes at its deadline, %s.\n", deadline);
		else /* it may close in the very pass that took this file: no "next pass" */
			buf_printf(b,
				"The turn closes once every due player's orders are in%s%s%s; your\n"
				"receipt of the close then comes in a mail of its own.\n",
				dl >= 0 ? ", or at the deadline (" : "", dl >= 0 ? deadline : "",
				dl >= 0 ? ") and its grace" : "");
	}
	if (accepted) {
		buf_puts(b, "\n");
		buf_printf(b, "campaign: %s\nturn: %d\nplayer: %s\nfile: %s\n", c->id, in->turn,
			c->players[in->player], in->m.orders_name);
		/* sealed: the salt and the commitment the close will hold, named as on the
		 * receipt (without the secret, the raw hash alone) */
		uint8_t salt[FAIR_HASH_BYTES], commitment[FAIR_HASH_BYTES];
		int sealed = c->visibility == CAMPAIGN_SEALED &&
			     receipt_sealed_hashes(in->c, in->turn, c->players[in->player],
				     in->m.orders, in->m.orders_len, salt, commitment) == 0;
		error_clear();
		receipt_hash_lines(b, in->sha256, sealed ? salt : NULL, sealed ? commitment : NULL);
		buf_printf(b, "received: %s\n", when);
		timelock_note(b, c, in->turn, 0);
		if (in->signed_by_key)
			buf_printf(b, "signature: good (ssh_key of %s)\n", c->players[in->player]);
	} else {
		buf_printf(b,
			"Your mail of %s to campaign '%s' was not taken as %s for turn %d:\n\n",
			when, c->id, in->is_reveal ? "a reveal" : "orders", in->turn);
		buf_append(b, in->why.data, in->why.len);
		buf_puts(b, "\nNothing was changed: fix the file and send it again.\n");
	}
	if (dl >= 0)
		buf_printf(b, "deadline: %s\n", deadline);
}

/* Queues the reply to the sender (there is one: in->m.from is set). 0 / -1. */
static int queue_reply(const struct intake *in, int accepted)
{
	const struct campaign *c = in->c;
	char hex[65], id[200], name[64];
	struct buf body = BUF_INIT, msg = BUF_INIT;
	const char *from = notify_from(c);
	int rc;

	hex_encode(hex, in->mail_sha256, FAIR_HASH_BYTES);
	/* Named by delivery time first, so replies go out in the order the mail came. */
	snprintf(name, sizeof(name), "reply-%010lld-%.24s", in->arrived, hex);
	char what[40];
	snprintf(what, sizeof(what), "reply.%.24s", hex);
	notify_message_id(id, sizeof(id), c, what);
	/* A player's reply goes to his registered address, not to whatever From a signed
	 * mail came from; a stranger's to his From. */
	const char *to = in->m.from;
	if (in->player >= 0 && c->pbem.mail.reply_to == PBEM_REPLY_REGISTERED &&
		c->pbem.contacts[in->player].n_emails &&
		pbem_player_of(&c->pbem, in->m.from) != in->player)
		to = c->pbem.contacts[in->player].emails[0];
	reply_body(&body, in, accepted);
	char *subject = xasprintf("[%s] turn %d: %s %s", c->id, in->turn,
		in->extension ? "extension" :
		in->is_reveal ? "reveal" :
				"orders",
		accepted ? (in->extension ? "granted" : "accepted") : "refused");
	struct mail_out out = {
		.from = from,
		.to = to,
		.subject = subject,
		.in_reply_to = in->m.message_id,
		.auto_reply = 1,
		.message_id = id,
		.date = in->now,
		.body = buf_str(&body),
	};
	rc = mail_build(&msg, &out);
	if (rc == 0)
		rc = outbox_queue(c, name, &msg);
	free(subject);
	buf_release(&body);
	buf_release(&msg);
	return rc;
}

/* Stores an accepted file as the player's current orders. 0 / -1. */
static int store_orders(const struct intake *in)
{
	char *dir = inbox_turn_dir(in->c, in->turn);
	char *name = xasprintf("%s.yaml", in->c->players[in->player]);
	int rc = file_write_durable(dir, name, in->m.orders, in->m.orders_len);
	free(dir);
	free(name);
	return rc;
}

static int record(struct intake *in, int accepted, int has_file)
{
	const char *nl = in->why.data ? strchr(in->why.data, '\n') : NULL;
	/* An accepted reveal says so: '' is an accepted order file (status reads it). */
	char *reason = accepted ? xstrdup(in->is_reveal ? "reveal" : "") :
				  xasprintf("%.*s", nl ? (int)(nl - in->why.data) : 200,
					  in->why.data ? in->why.data : "no sender");
	struct journal_submission s = {
		.turn = in->turn,
		.player = in->player >= 0 ? in->c->players[in->player] : NULL,
		.sender = in->m.from ? in->m.from : "",
		.message_id = in->message_id,
		.has_file = has_file,
		.arrived_at = in->arrived,
		.handled_at = in->now,
		.accepted = accepted,
		.reason = reason,
	};
	memcpy(s.mail_sha256, in->mail_sha256, FAIR_HASH_BYTES);
	memcpy(s.sha256, in->sha256, FAIR_HASH_BYTES);
	int rc = journal_add_submission(in->c->journal, &s);
	free(reason);
	return rc;
}

static void item_add(struct inbox_report *rep, const char *name, enum inbox_verdict v,
	const char *player, char *detail)
{
	rep->items = xrealloc(rep->items, (rep->n_items + 1) * sizeof(*rep->items));
	rep->items[rep->n_items++] = (struct inbox_item){ xstrdup(name), v,
		player ? xstrdup(player) : NULL, detail, 0 };
}

/* The first MAIL_HEAD_BYTES of a message larger than MAIL_MAX_BYTES into out (its headers,
 * enough to answer it); *size gets its whole size. 0 / -1. */
static int read_head(const char *path, struct buf *out, long long *size)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		return error_set(ERROR_INPUT, "cannot read '%s'", path);
	}
	char *head = xmalloc(MAIL_HEAD_BYTES);
	ssize_t n = read(fd, head, MAIL_HEAD_BYTES);
	close(fd);
	out->len = 0;
	if (n > 0)
		buf_append(out, head, (size_t)n);
	free(head);
	*size = (long long)st.st_size;
	return n > 0 ? 0 : error_set(ERROR_INPUT, "cannot read '%s'", path);
}

/* Reads the message and decides nothing yet: duplicates and other campaigns' mail are told
 * apart here. Returns the verdict for those, -2 to go on, -1 failure. */
static int intake_read(struct intake *in, const char *path)
{
	char hex[65];
	int seen;

	long long size = 0;
	if (file_read(path, MAIL_MAX_BYTES, &in->raw) < 0) {
		if (error_last()->klass != ERROR_INPUT || read_head(path, &in->raw, &size) < 0)
			return error_last()->klass == ERROR_INPUT ? INBOX_UNREADABLE : -1;
	}
	fair_sha256(in->mail_sha256, in->raw.data, in->raw.len);
	hex_encode(hex, in->mail_sha256, FAIR_HASH_BYTES);
	if (in->raw.len == 0) /* an empty file: filed quietly */
		return INBOX_UNREADABLE;
	if (mail_parse(&in->m, in->raw.data, in->raw.len) < 0) /* or GMime cannot be loaded */
		return error_last()->klass == ERROR_INPUT ? INBOX_UNREADABLE : -1;
	if (size) { /* only its head was read: the answer is the limit */
		free(in->m.orders);
		in->m.orders = NULL;
		free(in->m.problem);
		in->m.problem = xasprintf(
			"the mail is %lld KiB; umpire takes mail of at most %d KiB (send the order file alone, as text)",
			size / 1024, MAIL_MAX_BYTES / 1024);
	}
	if (in->m.automatic) /* RFC 3834: never answered, whoever it seems to come from */
		return INBOX_AUTOMATIC;
	in->message_id = in->m.message_id ? xstrdup(in->m.message_id) : xasprintf("sha256:%s", hex);
	if (journal_submission_seen(in->c->journal, in->message_id, &seen) < 0)
		return -1;
	if (seen)
		return INBOX_DUPLICATE;
	if (other_campaign(in))
		return INBOX_FOREIGN;
	if (!in->m.from)
		return INBOX_UNREADABLE;
	in->player = pbem_player_of(&in->c->pbem, in->m.from);
	return -2;
}

/* Handles maildir/new/name. 0 / -1 (the message stays in new/). */
static int handle(struct intake *in, const char *maildir, const char *name,
	struct inbox_report *rep)
{
	char *path = xasprintf("%s/new/%s", maildir, name);
	char hex[65];
	int rc = intake_read(in, path), v;

	free(path);
	if (rc == -1)
		return -1;
	if (rc == INBOX_FOREIGN && in->now - in->arrived < INBOX_UNCLAIMED_AFTER) {
		item_add(rep, name, INBOX_FOREIGN, NULL,
			xstrdup("orders for another campaign: left in new/"));
		return 0;
	}
	if (rc == INBOX_DUPLICATE || rc == INBOX_UNREADABLE || rc == INBOX_AUTOMATIC) {
		if (move_to_cur(maildir, name) < 0)
			return -1;
		item_add(rep, name, rc, NULL,
			xstrdup(rc == INBOX_DUPLICATE ?
					"already handled (same Message-ID)" :
				rc == INBOX_AUTOMATIC ?
					in->m.automatic :
					"not a message with a sender: nobody to answer"));
		return 0;
	}
	if (rc == INBOX_FOREIGN) { /* no campaign here took it in time: one answer, filed */
		struct buf ids = BUF_INIT;
		char *named = peek(in, "campaign");
		registered_campaigns(maildir, &ids);
		buf_printf(&in->why,
			"no campaign '%s' takes orders at this address; the campaigns here are: %s (fix the line 'campaign:' and send the file again)\n",
			named ? named : "?", buf_str(&ids));
		free(named);
		buf_release(&ids);
		v = 1;
	} else if ((v = extend_request(in->c, in->player, in->m.orders ? NULL : in->m.command,
			    in->now, &in->why, &in->granted)) != EXTEND_NOT) {
		in->extension = 1; /* granted or refused: no orders either way */
	} else {
		v = judge_apart(in);
	}
	if (v < 0)
		return -1;
	if (in->extension && v == 0)
		buf_printf(&in->why, "extension granted: %s\n", buf_str(&in->granted));
	if (v == 0 && !in->extension &&
		(in->is_reveal ? turn_keep_reveal(in->c, in->turn, in->c->players[in->player],
					 in->nonce) :
				 store_orders(in)) < 0)
		return -1;
	durable_point("inbox orders");
	if (queue_reply(in, v == 0) < 0)
		return -1;
	durable_point("inbox reply");
	if (record(in, v == 0 && !in->extension, v == 0 && !in->extension) < 0)
		return -1;
	durable_point("inbox journal");
	if ((v == 2 ? move_aside(maildir, name) : move_to_cur(maildir, name)) < 0)
		return -1;
	hex_encode(hex, in->sha256, FAIR_HASH_BYTES);
	const char *nl = strchr(buf_str(&in->why), '\n');
	if (v == 2)
		fprintf(stderr, "umpire inbox: %s/" INBOX_FAILED_DIR "/%s: %.*s\n", maildir, name,
			nl ? (int)(nl - in->why.data) : 300, buf_str(&in->why));
	item_add(rep, name,
		v == 0 ? INBOX_ACCEPTED :
		v == 2 ? INBOX_FAILED :
			 INBOX_REFUSED,
		v == 0 ? in->c->players[in->player] : NULL,
		v != 0 ? xasprintf("%.*s", nl ? (int)(nl - in->why.data) : 300, buf_str(&in->why)) :
		in->extension ? xasprintf("extension granted: %s", buf_str(&in->granted)) :
		in->is_reveal ? xstrdup("the nonce matches the close") :
				xasprintf("orders_sha256 %s", hex));
	rep->items[rep->n_items - 1].reveal = in->is_reveal;
	return 0;
}

int inbox_run(struct campaign *c, const char *maildir, long long now, struct inbox_report *rep)
{
	struct pending *p = NULL;
	char tag[LAYOUT_TAG_MAX];
	int rc = 0;

	memset(rep, 0, sizeof(*rep));
	if (inbox_open_turn(c, &rep->turn) < 0)
		return -1;
	file_guard(maildir); /* nothing in the Maildir is reached through a link */
	long n = list_new(maildir, &p);
	if (n < 0)
		return -1;
	layout_close_tag(tag, rep->turn);
	int closed = repo_has(c->repo, tag);
	char *over = NULL;
	if (n > 0 && inbox_game_over(c, &over) < 0) {
		for (long i = 0; i < n; i++)
			free(p[i].name);
		free(p);
		return -1;
	}
	register_campaign(c, maildir);
	for (long i = 0; i < n && rc == 0; i++) {
		struct stat st;
		char *path = xasprintf("%s/new/%s", maildir, p[i].name);
		struct intake in = { .c = c,
			.maildir = maildir,
			.turn = rep->turn,
			.closed = closed,
			.over = over,
			.now = now,
			.arrived = p[i].mtime,
			.player = -1 };
		/* Delivered while this run listed: the newest time is the file's. */
		if (stat(path, &st) == 0)
			in.arrived = (long long)st.st_mtim.tv_sec;
		free(path);
		rc = handle(&in, maildir, p[i].name, rep);
		mail_in_release(&in.m);
		node_free(in.yaml);
		buf_release(&in.raw);
		buf_release(&in.why);
		buf_release(&in.granted);
		free(in.message_id);
	}
	for (long i = 0; i < n; i++)
		free(p[i].name);
	free(p);
	free(over);
	return rc;
}

void inbox_report_release(struct inbox_report *rep)
{
	for (size_t i = 0; i < rep->n_items; i++) {
		free(rep->items[i].name);
		free(rep->items[i].player);
		free(rep->items[i].detail);
	}
	free(rep->items);
	memset(rep, 0, sizeof(*rep));
}

/* The latest accepted submission of player in v, or NULL. */
static const struct journal_submission *last_accepted(const struct journal_submission *v, size_t n,
	const char *player)
{
	const struct journal_submission *last = NULL;
	for (size_t i = 0; i < n; i++)
		if (v[i].accepted && !v[i].reason[0] && v[i].player &&
			strcmp(v[i].player, player) == 0)
			last = &v[i];
	return last;
}

/* Who is due, who has sent (the file kept, its hash, when it came). 0 / -1. */
static int players_status(struct campaign *c, struct inbox_status *out, const void *state)
{
	struct journal_submission *subs = NULL;
	size_t n_subs;
	char *dir = inbox_turn_dir(c, out->turn);

	if (journal_submissions(c->journal, out->turn, &subs, &n_subs) < 0) {
		free(dir);
		return -1;
	}
	out->players = xcalloc(c->n_players + 1, sizeof(*out->players));
	out->n_players = c->n_players;
	for (size_t i = 0; i < c->n_players; i++) {
		struct inbox_player_status *p = &out->players[i];
		struct buf bytes = BUF_INIT;
		char *path = xasprintf("%s/%s.yaml", dir, c->players[i]);
		p->player = c->players[i];
		p->due = !out->game_over &&
			 c->rules->player_due(&c->rc, state, out->turn, c->players[i]);
		if (file_read(path, ORDER_FILE_MAX_BYTES, &bytes) == 0) {
			p->sent = 1;
			fair_sha256(p->sha256, bytes.data, bytes.len);
			const struct journal_submission *s = last_accepted(subs, n_subs, p->player);
			p->sent_at = s ? s->arrived_at : 0;
		}
		for (size_t k = 0; k < n_subs; k++)
			p->submissions += subs[k].player && strcmp(subs[k].player, p->player) == 0;
		buf_release(&bytes);
		free(path);
	}
	error_clear();
	journal_submissions_free(subs, n_subs);
	free(dir);
	return 0;
}

/* Closed under entropy players: whose nonce is still missing, and until when run waits. */
static int reveals_status(struct campaign *c, struct inbox_status *out)
{
	struct close_record r;
	struct buf who = BUF_INIT;
	char commit[41];

	if (turn_read_close(c, out->turn, &r, commit, NULL) < 0)
		return -1;
	out->reveals = 1;
	out->n_unrevealed = turn_reveals_missing(c, &r, &who);
	out->unrevealed = xstrdup(buf_str(&who));
	if (c->pbem.schedule.set)
		out->reveal_end = r.closed_at + c->pbem.schedule.reveal;
	close_release(&r);
	buf_release(&who);
	return 0;
}

int inbox_status(struct campaign *c, struct inbox_status *out)
{
	char tag[LAYOUT_TAG_MAX];
	void *state = NULL;
	int last;

	memset(out, 0, sizeof(*out));
	if (campaign_load_state(c, "HEAD", &last, &state) < 0)
		return -1;
	out->turn = last + 1;
	layout_close_tag(tag, out->turn);
	out->closed = repo_has(c->repo, tag);
	char *over = NULL;
	game_over_of(c, last, state, &over);
	out->game_over = over != NULL;
	out->over = over;
	if (out->game_over)
		victory_strings(c, last, state, &out->result, &out->winner);
	out->revealed = repo_has(c->repo, LAYOUT_REVEAL_TAG);
	out->deadline = pbem_deadline(&c->pbem, out->turn);
	out->grace_end = out->deadline < 0 ? -1 : out->deadline + c->pbem.schedule.grace;
	out->pending_mail = outbox_pending(c);
	out->reveal_end = -1;
	int rc = players_status(c, out, state);
	if (rc == 0 && out->closed && c->entropy == CAMPAIGN_ENTROPY_PLAYERS)
		rc = reveals_status(c, out);
	c->rules->state_free(state);
	return rc;
}

void inbox_status_release(struct inbox_status *s)
{
	free(s->players);
	free(s->unrevealed);
	free(s->over);
	free(s->result);
	free(s->winner);
	memset(s, 0, sizeof(*s));
}

int inbox_add_to_turn(struct campaign *c, struct turn *t, size_t *n)
{
	int turn;
	struct dirent *e;
	char **names = NULL;

	*n = 0;
	if (inbox_open_turn(c, &turn) < 0)
		return -1;
	char *dir = inbox_turn_dir(c, turn);
	DIR *d = file_opendir(dir);
	if (!d && errno == ELOOP) {
		free(dir);
		return -1;
	}
	while (d && (e = readdir(d)) && *n < CAMPAIGN_MAX_PLAYERS) {
		size_t len = strlen(e->d_name);
		if (e->d_name[0] == '.' || len < 6 || strcmp(e->d_name + len - 5, ".yaml") != 0)
			continue;
		names = xrealloc(names, (*n + 1) * sizeof(*names));
		names[(*n)++] = xstrdup(e->d_name);
	}
	if (d)
		closedir(d);
	if (*n)
		qsort(names, *n, sizeof(*names), cmp_name);
	for (size_t i = 0; i < *n; i++) {
		char *path = xasprintf("%s/%s", dir, names[i]);
		turn_add_order_file(t, path);
		free(path);
		free(names[i]);
	}
	free(names);
	free(dir);
	return 0;
}

int inbox_missing_allowed(const struct campaign *c, int turn, long long now)
{
	long long dl = pbem_deadline(&c->pbem, turn);
	return dl >= 0 && c->pbem.schedule.missing == PBEM_MISSING_NO_ORDERS &&
	       now >= dl + c->pbem.schedule.grace;
}
