/* timelock.c — time-locked orders (timelock.h): R(turn), the umpire-tlock tool spawned for
 * inspect, seal, open and keygen, and the pipeline's two steps on time-locked files. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <jansson.h>

#include "core/beacon.h"
#include "core/campaign.h"
#include "core/close.h"
#include "core/error.h"
#include "core/fair.h"
#include "core/file.h"
#include "core/layout.h"
#include "core/orders.h"
#include "core/repo.h"
#include "core/schedule.h"
#include "core/spawn.h"
#include "core/timelock.h"
#include "core/turn.h"
#include "core/banned.h"

#define TIMELOCK_OUT_MAX (2 * ORDER_FILE_MAX_BYTES + 65536) /* an armored file of a max file */

/* The round a close at deadline names for time-locked orders; -1 without one. */
static long long round_of_deadline(const struct campaign *c, long long deadline)
{
	if (deadline < 0 || c->entropy != CAMPAIGN_ENTROPY_BEACON || c->beacon_period < 1)
		return -1;
	return close_first_round(c,
		deadline + c->pbem.schedule.grace + CLOSE_WITNESS_WINDOW + c->beacon_delay);
}

long long campaign_turn_round(const struct campaign *c, int turn)
{
	return round_of_deadline(c, pbem_deadline(&c->pbem, turn));
}

long long timelock_former_round(const struct campaign *c, int turn, long long round)
{
	long long now = campaign_turn_round(c, turn);

	for (size_t i = c->pbem.n_overrides; round != now && i-- > 0;) {
		const struct override *o = &c->pbem.overrides[i];
		if (o->turn > turn || override_is_seat_or_end(o->kind))
			continue;
		if (round_of_deadline(c, schedule_deadline_before(c, i, turn)) == round)
			return o->at;
	}
	return -1;
}

/* R(turn) as the schedule stood when turn opened: the overrides of earlier turns only (those
 * of turn are made while it is open, after the report that names its round). */
static long long round_at_open(const struct campaign *c, int turn)
{
	long long d = pbem_deadline(&c->pbem, turn);

	for (size_t i = 0; d >= 0 && i < c->pbem.n_overrides; i++)
		if (c->pbem.overrides[i].turn == turn)
			d -= c->pbem.overrides[i].shift;
	return round_of_deadline(c, d);
}

void timelock_note(struct buf *b, const struct campaign *c, int turn, int markdown)
{
	long long r = !c->orders_timelocked ? -1 :
		      markdown              ? round_at_open(c, turn) :
					      campaign_turn_round(c, turn);
	char at[32];

	if (r < 1)
		return;
	pbem_format_utc(at, sizeof at, close_round_at(c, r));
	if (markdown)
		buf_printf(b,
			"\norders: time-locked to round %lld (out at %s): seal the file with `umpire seal ORDERS --campaign CLONE` (to that round%s) and send ORDERS.age; nobody, the umpire included, can read it before the round.\n",
			r, at, c->timelock_recipient ? " and the umpire's key" : "");
	else
		buf_printf(b, "orders: time-locked to round %lld (out at %s)\n", r, at);
}

char *timelock_tool_path(void)
{
	static const char *const rel[] = { "../web/umpire-tlock.mjs", "../../web/umpire-tlock.mjs",
		"../share/umpire/web/umpire-tlock.mjs" };
	const char *env = getenv("UMPIRE_TLOCK");
	struct buf looked = BUF_INIT;

	if (env && env[0]) {
		if (file_is_kind(env, FILE_KIND_FILE))
			return xstrdup(env);
		error_set(ERROR_UNAVAILABLE,
			"time-locked orders: the tool $UMPIRE_TLOCK '%s' is not a file", env);
		return NULL;
	}
	char *p = file_beside_binary(rel, sizeof(rel) / sizeof(rel[0]), FILE_KIND_FILE, &looked);
	if (!p)
		error_set(ERROR_UNAVAILABLE,
			"time-locked orders need umpire-tlock.mjs, which is missing (looked for %s; 'make web' builds it, 'make install' installs it, or set UMPIRE_TLOCK)",
			looked.len ? buf_str(&looked) : "$UMPIRE_TLOCK");
	buf_release(&looked);
	return p;
}

/* node on $PATH: a new string, or NULL with ERROR_UNAVAILABLE naming the package. */
static char *node_path(void)
{
	const char *path = getenv("PATH");
	const char *p = path && *path ? path : "/usr/bin:/bin";

	while (*p) {
		size_t n = strcspn(p, ":");
		char *cand = xasprintf("%.*s/node", (int)n, p);
		if (n && file_is_kind(cand, FILE_KIND_PROGRAM))
			return cand;
		free(cand);
		p += n + (p[n] == ':');
	}
	error_set(ERROR_UNAVAILABLE,
		"time-locked orders need node, which is not on $PATH (the Debian package nodejs: apt-get install nodejs)");
	return NULL;
}

/* The tool's first line of stderr, for a message. */
static const char *first_line(struct buf *err)
{
	char *s = (char *)buf_str(err);
	s[strcspn(s, "\n")] = '\0';
	return s[0] ? s : "no reason given";
}

/* Runs `node umpire-tlock.mjs args...` with in on its input, its output into out. 0; -1 with
 * ERROR_INPUT (exit 65: the reason), ERROR_UNAVAILABLE or ERROR_OS. */
static int run_tool(const char *const *args, const void *in, size_t len, struct buf *out)
{
	char *node = node_path(), *tool = node ? timelock_tool_path() : NULL;
	const char *argv[16];
	struct buf err = BUF_INIT;
	size_t n = 0;
	int rc = -1;

	if (!tool)
		goto done;
	argv[n++] = node;
	argv[n++] = tool;
	for (size_t i = 0; args[i] && n < 15; i++)
		argv[n++] = args[i];
	argv[n] = NULL;
	int st = spawn_capture(node, (char *const *)argv, in, len, out, &err, TIMELOCK_OUT_MAX,
		spawn_timeout("UMPIRE_TLOCK_TIMEOUT", TIMELOCK_TIMEOUT));
	if (st < 0)
		error_set(ERROR_OS, "umpire-tlock %s: %s", args[0], strerror(errno));
	else if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		rc = 0;
	else if (WIFEXITED(st) && WEXITSTATUS(st) == 65)
		error_set(ERROR_INPUT, "%s", first_line(&err));
	else
		error_set(ERROR_OS, "umpire-tlock %s failed (%s %d): %s", args[0],
			WIFEXITED(st) ? "exit" : "signal",
			WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), first_line(&err));
done:
	buf_release(&err);
	free(node);
	free(tool);
	return rc;
}

int timelock_inspect(const void *bytes, size_t len, long long *round, char chain[65])
{
	static const char *const args[] = { "inspect", "-", NULL };
	struct buf out = BUF_INIT;
	char hash[80];
	int rc = run_tool(args, bytes, len, &out);

	if (rc == 0 && (sscanf(buf_str(&out), "round %lld chain %70s", round, hash) != 2 ||
			       strlen(hash) != 64 || *round < 1))
		rc = error_set(ERROR_OS,
			"umpire-tlock inspect: an answer not 'round R / chain HASH'");
	if (rc == 0)
		memcpy(chain, hash, 65);
	buf_release(&out);
	return rc;
}

/* c's chain in drand's /info shape, in a new private temporary file: its path (unlink and
 * free it), or NULL with ERROR_OS. */
static char *chain_info_file(const struct campaign *c)
{
	const struct beacon_chain *known = c->beacon_chain ? beacon_chain_find(c->beacon_chain) :
							     NULL;
	const char *tmp = getenv("TMPDIR");
	char *path = xasprintf("%s/umpire-chain-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	json_t *info = json_pack("{s:s, s:I, s:I, s:s, s:s, s:{s:s}}", "public_key",
		c->beacon_key ? c->beacon_key : "", "period", (json_int_t)c->beacon_period,
		"genesis_time", (json_int_t)c->beacon_genesis, "hash",
		c->beacon_chain ? c->beacon_chain : "", "schemeID", BEACON_SCHEME, "metadata",
		"beaconID", known && known->demo ? "umpire-demo" : "quicknet");
	char *text = info ? json_dumps(info, JSON_SORT_KEYS) : NULL;
	int fd = text ? mkstemp(path) : -1;
	int ok = fd >= 0 && spawn_write_all(fd, text, strlen(text), 0, 0) == 0;

	if (fd >= 0 && close(fd) < 0)
		ok = 0;
	if (!ok) {
		error_set(ERROR_OS, "cannot write the chain's info for umpire-tlock: %s",
			strerror(errno));
		if (fd >= 0)
			unlink(path);
		free(path);
		path = NULL;
	}
	free(text);
	json_decref(info);
	return path;
}

int timelock_seal(const struct campaign *c, long long round, const char *recipient,
	const void *plain, size_t len, struct buf *out)
{
	char *info = chain_info_file(c);
	char r[32];

	if (!info)
		return -1;
	snprintf(r, sizeof r, "%lld", round);
	const char *args[] = { "seal", "--round", r, "--chain-info", info,
		recipient ? "--recipient" : NULL, recipient, NULL };
	int rc = run_tool(args, plain, len, out);
	unlink(info);
	free(info);
	return rc;
}

int timelock_open(const struct campaign *c, long long round, const char *signature,
	const char *identity, const void *bytes, size_t len, struct buf *out)
{
	char *info = chain_info_file(c);
	char r[32];

	if (!info)
		return -1;
	snprintf(r, sizeof r, "%lld", round);
	const char *args[] = { "open", "--round", r, "--signature", signature, "--chain-info", info,
		identity ? "--identity" : NULL, identity, NULL };
	int rc = run_tool(args, bytes, len, out);
	unlink(info);
	free(info);
	return rc;
}

int timelock_check_inner(const struct campaign *c, long long round, const char *signature,
	const void *bytes, size_t len)
{
	char *info = chain_info_file(c);
	struct buf out = BUF_INIT;
	char r[32];

	if (!info)
		return -1;
	snprintf(r, sizeof r, "%lld", round);
	const char *args[] = { "inner", "--round", r, "--signature", signature, "--chain-info",
		info, NULL };
	int rc = run_tool(args, bytes, len, &out);
	if (rc == 0 && strcmp(buf_str(&out), "inner: age X25519\n") != 0)
		rc = error_set(ERROR_OS, "umpire-tlock inner: an answer not 'inner: age X25519'");
	unlink(info);
	free(info);
	buf_release(&out);
	return rc;
}

int timelock_recipient_ok(const char *s)
{
	static const char bech32[] = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
	if (strncmp(s, "age1", 4) != 0 || strlen(s) != 62)
		return 0;
	for (const char *p = s + 4; *p; p++)
		if (!strchr(bech32, *p))
			return 0;
	return 1;
}

int timelock_keygen(char **identity, char **recipient)
{
	static const char *const args[] = { "keygen", NULL };
	struct buf out = BUF_INIT;
	int rc = run_tool(args, "", 0, &out);
	const char *s = buf_str(&out), *pub = strstr(s, "# public key: ");

	*identity = *recipient = NULL;
	if (rc == 0 && (strncmp(s, "AGE-SECRET-KEY-1", 16) != 0 || !pub))
		rc = error_set(ERROR_OS, "umpire-tlock keygen: an answer not in age's format");
	if (rc == 0) {
		*identity = xasprintf("%.*s", (int)strcspn(s, "\n"), s);
		pub += strlen("# public key: ");
		*recipient = xasprintf("%.*s", (int)strcspn(pub, "\n"), pub);
		if (!timelock_recipient_ok(*recipient))
			rc = error_set(ERROR_OS,
				"umpire-tlock keygen: '%s' is not an age recipient", *recipient);
	}
	fair_wipe(out.data, out.len);
	buf_release(&out);
	return rc;
}

char *timelock_player_of(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t n = strlen(base);

	if (n > 4 && strcmp(base + n - 4, TIMELOCK_SUFFIX) == 0)
		n -= 4;
	if (n > 5 && strncmp(base + n - 5, ".yaml", 5) == 0)
		n -= 5;
	return xasprintf("%.*s", (int)n, base);
}

int timelock_take(struct turn *t, struct order_file *f)
{
	const struct campaign *c = t->c;
	long long want = campaign_turn_round(c, t->in.turn), round, changed = -1;
	char chain[65];
	char *player = timelock_player_of(f->path);

	if (timelock_inspect(f->bytes, f->len, &round, chain) < 0) {
		if (error_last()->klass != ERROR_INPUT) {
			free(player);
			return -1;
		}
		diag_add(&t->diag, f->path, 1, 1,
			"not a time-locked order file: %s (campaign '%s' takes orders time-locked to round %lld: umpire seal ORDERS --campaign CLONE)",
			error_last()->message, c->id, want);
		error_clear();
		goto done;
	}
	/* A file accepted before a schedule change moved R(turn) is still the player's at the
	 * close: fixed, committed, and counted as no orders (docs/fairness.md, "Schedule
	 * changes after a player sealed"). A file sealed to it now is refused. */
	if (round != want && !(t->flags & TURN_CHECK_ONLY))
		changed = timelock_former_round(c, t->in.turn, round);
	if (strcmp(chain, c->beacon_chain) != 0) {
		diag_add(&t->diag, f->path, 1, 1,
			"time-locked to chain %s (campaign '%s' takes orders time-locked to round %lld of chain %s)",
			chain, c->id, want, c->beacon_chain);
	} else if (round != want && changed < 0) {
		diag_add(&t->diag, f->path, 1, 1,
			"time-locked to round %lld (turn %d's orders are time-locked to round %lld%s)",
			round, t->in.turn, want,
			timelock_former_round(c, t->in.turn, round) >= 0 ?
				": the schedule changed after that round was named" :
				"");
	} else if (!campaign_has_player(c, player) ||
		   !c->rules->player_due(&c->rc, t->state, t->in.turn, player)) {
		diag_add(&t->diag, f->path, 1, 1,
			"a time-locked order file is named after its player: '%s' is not a player due on turn %d (PLAYER.yaml.age expected)",
			player, t->in.turn);
	} else if (turn_find_file(&t->in, player)) {
		diag_add(&t->diag, f->path, 1, 1, "a second order file for player '%s'", player);
	} else {
		if (changed >= 0)
			f->timelock_failed = xasprintf(
				"%s's time-locked file is sealed to round %lld, which turn %d's close named until the schedule changed at %lld; it names round %lld",
				player, round, t->in.turn, changed, want);
		f->player = player;
		player = NULL;
	}
done:
	free(player);
	return 0;
}

/* Opens f and parses the plaintext as player's order file; 0, 1 when it gives no orders
 * (f->timelock_failed says why), -1 when the tool cannot run. */
static int open_one(struct turn *t, struct order_file *f, const char *identity)
{
	struct buf plain = BUF_INIT;
	struct order_file g;
	struct diag d;
	int rc = 0;

	diag_init(&d);
	memset(&g, 0, sizeof g);
	if (timelock_open(t->c, t->close.round, t->in.beacon_signature, identity, f->bytes, f->len,
		    &plain) < 0) {
		if (error_last()->klass != ERROR_INPUT) {
			rc = -1;
			goto done;
		}
		f->timelock_failed = xasprintf("%s's time-locked file does not open: %s", f->player,
			error_last()->message);
		error_clear();
		rc = 1;
		goto done;
	}
	/* Named the same wherever the file is read (inbox, closed, committed): the reason is
	 * journaled, and a re-run must give the same words. */
	g.path = xasprintf("%s.yaml", f->player);
	g.len = plain.len;
	g.bytes = xmalloc(plain.len ? plain.len : 1);
	memcpy(g.bytes, plain.data ? plain.data : "", plain.len);
	/* f's player is set already: the file parsed must not find itself a second time. */
	char *player = f->player;
	f->player = NULL;
	orders_parse_file(t, &g, &d);
	f->player = player;
	if (diag_count(&d) || !g.player || strcmp(g.player, player) != 0) {
		struct buf why = BUF_INIT;
		if (diag_count(&d))
			diag_format(&d, &why, DIAG_BRIEF);
		else
			buf_printf(&why, "the orders are for player '%s'",
				g.player ? g.player : "?");
		while (why.len && why.data[why.len - 1] == '\n')
			why.data[--why.len] = '\0';
		for (size_t i = 0; i < why.len; i++)
			if (why.data[i] == '\n')
				why.data[i] = ' ';
		f->timelock_failed = xasprintf(
			"%s's time-locked file opens to no order file of %s for turn %d: %s",
			player, player, t->in.turn, buf_str(&why));
		buf_release(&why);
		rc = 1;
		goto done;
	}
	f->orders = g.orders;
	g.orders = NULL;
	f->has_entropy = g.has_entropy;
	memcpy(f->entropy, g.entropy, FAIR_HASH_BYTES);
done:
	order_file_release(&g, t->c);
	buf_release(&plain);
	diag_release(&d);
	return rc;
}

/* A clone after the reveal: the identity the reveal committed, in a new private temporary
 * file (its path; unlink and free it), or NULL when there is none. */
static char *revealed_identity(struct campaign *c)
{
	struct buf b = BUF_INIT;
	const char *tmp = getenv("TMPDIR");
	char *path = NULL;

	if (repo_read(c->repo, LAYOUT_REVEAL_TAG, TIMELOCK_REVEALED, &b) == 0) {
		path = xasprintf("%s/umpire-identity-XXXXXX", tmp && *tmp ? tmp : "/tmp");
		int fd = mkstemp(path); /* 0600 */
		if (fd < 0 || spawn_write_all(fd, b.data ? b.data : "", b.len, 0, 0) < 0) {
			if (fd >= 0)
				unlink(path);
			free(path);
			path = NULL;
		}
		if (fd >= 0)
			close(fd);
	}
	error_clear();
	fair_wipe(b.data, b.len);
	buf_release(&b);
	return path;
}

int timelock_open_files(struct turn *t)
{
	char *identity = NULL;
	int rc = 0, temp = 0;

	if (!t->c->orders_timelocked)
		return 0;
	if (!t->in.beacon_signature)
		return error_set(ERROR_INPUT,
			"turn %d: time-locked orders open with beacon round %lld's signature, which is not given",
			t->in.turn, t->close.round);
	if (t->c->visibility == CAMPAIGN_SEALED) {
		identity = xasprintf("%s/.umpire/" TIMELOCK_IDENTITY, t->c->dir);
		if (!file_is_kind(identity, FILE_KIND_FILE)) {
			free(identity);
			identity = revealed_identity(t->c);
			temp = identity != NULL;
		}
	}
	for (size_t i = 0; rc >= 0 && i < t->in.n_files; i++) {
		struct order_file *f = &t->in.files[i];
		if (!f->is_rulings && !f->orders && !f->timelock_failed)
			rc = open_one(t, f, identity);
	}
	if (temp)
		unlink(identity);
	free(identity);
	return rc < 0 ? -1 : 0;
}
