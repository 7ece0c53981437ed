/* campaign.c — opening a campaign: reading campaign.yaml and state.yaml from the committed
 * history (never from a possibly edited work tree), taking the lock, opening the journal,
 * reading the umpire's secret. */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/beacon.h"
#include "core/campaign.h"
#include "core/timelock.h"
#include "core/schedule.h"
#include "core/fair.h"
#include "core/file.h"
#include "core/idle.h"
#include "core/layout.h"
#include "core/banned.h"

static const char *const campaign_keys[] = {
	"id",
	"title",
	"rules",
	"rules_revision",
	"players",
	"options",
	"fairness",
	"schedule",
	"publish",
	"mail",
	"visibility",
	"orders",
	"timelock",
	NULL,
};
static const char *const player_keys[] = { "id", "name", "email", "ssh_key", NULL };
static const char *const fairness_keys[] = { "commitment", "chain_length", "fair", "entropy",
	"beacon", "beacon_genesis", "beacon_period", "beacon_delay", "beacon_chain",
	"beacon_scheme", "beacon_public_key", "beacon_demo", "timestamps", "warning", NULL };

const char *const campaign_entropy_names[] = { "none", "beacon", "players", NULL };

const char *const campaign_visibility_names[] = { "open", "sealed", NULL };

int campaign_visibility_parse(const char *name)
{
	for (int i = 0; campaign_visibility_names[i]; i++)
		if (strcmp(campaign_visibility_names[i], name) == 0)
			return i;
	return -1;
}

/* `visibility:`; a campaign.yaml without it predates sealed turns: open. */
static void parse_visibility(struct campaign *c, const struct node *root, struct diag *d)
{
	const struct node *n = node_get(root, "visibility");
	const char *s;

	c->visibility = CAMPAIGN_OPEN;
	if (n && node_want_str(n, "visibility", 20, &s, d) == 0) {
		int v = campaign_visibility_parse(s);
		if (v < 0)
			node_error(d, n, "unknown visibility '%s' (open or sealed expected)", s);
		else
			c->visibility = v;
	}
}

/* `orders:` (plain, the default, or timelocked) and `timelock: { recipient }`: a time-locked
 * campaign needs a schedule and a signed beacon (campaign_turn_round), and a sealed one the
 * umpire's recipient (docs/formats.md). */
static void parse_orders(struct campaign *c, const struct node *root, struct diag *d)
{
	const struct node *n = node_get(root, "orders"), *tl = node_get(root, "timelock");
	const char *s;

	if (n && node_want_str(n, "orders", 20, &s, d) == 0) {
		if (strcmp(s, "timelocked") == 0)
			c->orders_timelocked = 1;
		else if (strcmp(s, "plain") != 0)
			node_error(d, n, "unknown orders '%s' (plain or timelocked expected)", s);
	}
	if (tl) {
		static const char *const keys[] = { "recipient", NULL };
		const struct node *r = NULL;
		if (node_check_map(tl, "timelock", keys, d) == 0)
			r = node_need(tl, "recipient", d);
		if (r && node_want_str(r, "recipient", 100, &s, d) == 0) {
			if (!timelock_recipient_ok(s))
				node_error(d, r,
					"recipient is not an age X25519 recipient (age1 and 58 characters expected)");
			else
				c->timelock_recipient = xstrdup(s);
		}
	}
	if (!c->orders_timelocked || !n)
		return;
	if (!c->pbem.schedule.set)
		node_error(d, n,
			"orders timelocked needs a schedule (its rounds come from the deadlines)");
	if (c->entropy != CAMPAIGN_ENTROPY_BEACON || !c->beacon_key)
		node_error(d, n,
			"orders timelocked needs a signed beacon (fairness.beacon_chain and beacon_public_key: drand quicknet or the demo beacon)");
	if (c->visibility == CAMPAIGN_SEALED && !c->timelock_recipient)
		node_error(d, n,
			"a sealed campaign with orders timelocked needs timelock.recipient (the umpire's age1...)");
}

int campaign_entropy_parse(const char *name)
{
	for (int i = 0; campaign_entropy_names[i]; i++)
		if (strcmp(campaign_entropy_names[i], name) == 0)
			return i;
	return -1;
}

/* The signing chain of a beacon (docs/fairness.md, "The beacon's signature"): beacon_chain,
 * beacon_scheme and beacon_public_key together, and beacon_demo, checked by
 * beacon_chain_check (a known chain's hash takes its key only). A campaign.yaml set up before
 * these keys whose beacon is drand quicknet's default takes quicknet's; any other beacon
 * without them is unsigned (its values are checked by hand). */
static void parse_beacon_chain(struct campaign *c, const struct node *fairness, struct diag *d)
{
	const struct node *key = node_get(fairness, "beacon_public_key");
	const struct node *n;
	const char *s[3] = { NULL, NULL, NULL };
	static const char *const names[3] = { "beacon_chain", "beacon_scheme",
		"beacon_public_key" };
	int demo = 0;

	if ((n = node_get(fairness, "beacon_demo")))
		node_want_bool(n, "beacon_demo", &demo, d);
	if (!key && !node_get(fairness, "beacon_chain") && !node_get(fairness, "beacon_scheme")) {
		if (demo)
			node_error(d, n, "beacon_demo without the demo beacon's chain and key");
		if (c->beacon && strcmp(c->beacon, CAMPAIGN_DRAND_QUICKNET) == 0) {
			c->beacon_chain = xstrdup(beacon_quicknet.hash);
			c->beacon_key = xstrdup(beacon_quicknet.public_key);
		}
		return;
	}
	for (int i = 0; i < 3; i++) {
		n = node_need(fairness, names[i], d);
		if (n && node_want_str(n, names[i], 200, &s[i], d) < 0)
			return;
	}
	if (!s[0] || !s[1] || !s[2])
		return;
	if (beacon_chain_check(s[0], s[1], s[2], demo) < 0) {
		node_error(d, key, "%s", error_last()->message);
		return;
	}
	c->beacon_chain = xstrdup(s[0]);
	c->beacon_key = xstrdup(s[2]);
	c->beacon_demo = demo;
}

/* fairness.entropy and the beacon's source, genesis, period and delay. A campaign.yaml
 * without `entropy` predates closed turns: it is `none`, and one naming a beacon then is
 * refused (its turns were never closed). */
static void parse_entropy(struct campaign *c, const struct node *fairness, struct diag *d)
{
	const struct node *n = node_get(fairness, "entropy");
	const char *s;
	long long v;

	c->entropy = CAMPAIGN_ENTROPY_NONE;
	if (n && node_want_str(n, "entropy", 20, &s, d) == 0) {
		int e = campaign_entropy_parse(s);
		if (e < 0)
			node_error(d, n, "unknown entropy '%s' (none, beacon or players expected)",
				s);
		else
			c->entropy = e;
	}
	n = node_get(fairness, "beacon");
	if (n && node_want_str(n, "beacon", 200, &s, d) == 0 && strcmp(s, "none") != 0)
		c->beacon = xstrdup(s);
	if (c->beacon && c->entropy != CAMPAIGN_ENTROPY_BEACON)
		node_error(d, n,
			"a beacon is named but entropy is not beacon (entropy: beacon, or beacon: none)");
	if (c->entropy != CAMPAIGN_ENTROPY_BEACON)
		return;
	if (!c->beacon)
		node_error(d, node_get(fairness, "entropy"),
			"entropy is beacon but no beacon is named (fairness.beacon: its source)");
	struct {
		const char *key;
		long long *to, min;
	} nums[] = {
		{ "beacon_genesis", &c->beacon_genesis, 0 },
		{ "beacon_period", &c->beacon_period, 1 },
		{ "beacon_delay", &c->beacon_delay, 0 },
	};
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
		n = node_need(fairness, nums[i].key, d);
		if (n && node_want_int(n, nums[i].key, nums[i].min, (long long)1 << 40, &v, d) == 0)
			*nums[i].to = v;
	}
	parse_beacon_chain(c, fairness, d);
}
const char *campaign_timestamp_problem(const char *name, const char *url)
{
	if (!node_is_id(name))
		return "name is not an identifier (1 to 64 letters, digits, '_', '.' or '-')";
	if (strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) != 0)
		return "url is not http:// or https://";
	for (const char *p = url; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == 127)
			return "url holds a space or a control character";
	return strlen(url) > 500 ? "url is longer than 500 bytes" : NULL;
}

/* fairness.timestamps: the RFC 3161 authorities each close is sent to (docs/fairness.md,
 * "Time stamps"), a list of {name, url}, names unique. Only a closed turn has a close. */
static void parse_timestamps(struct campaign *c, const struct node *fairness, struct diag *d)
{
	static const char *const keys[] = { "name", "url", NULL };
	const struct node *seq = node_get(fairness, "timestamps");
	const char *name, *url;

	if (!seq || node_check_seq(seq, "timestamps", CAMPAIGN_MAX_TIMESTAMPS, d) < 0)
		return;
	if (seq->n && c->entropy == CAMPAIGN_ENTROPY_NONE)
		node_error(d, seq, "timestamps need closed turns (entropy beacon or players)");
	c->timestamps = xcalloc(seq->n + 1, sizeof(*c->timestamps));
	for (size_t i = 0; i < seq->n; i++) {
		const struct node *a = seq->items[i], *nn, *un;
		if (node_check_map(a, "a time-stamp authority", keys, d) < 0)
			continue;
		nn = node_need(a, "name", d);
		un = node_need(a, "url", d);
		if (!nn || !un || node_want_str(nn, "name", 64, &name, d) < 0 ||
			node_want_str(un, "url", 500, &url, d) < 0)
			continue;
		const char *why = campaign_timestamp_problem(name, url);
		for (size_t j = 0; !why && j < c->n_timestamps; j++)
			if (strcmp(c->timestamps[j].name, name) == 0)
				why = "name is given twice";
		if (why) {
			node_error(d, a, "time-stamp authority '%s': %s", name, why);
			continue;
		}
		c->timestamps[c->n_timestamps].name = xstrdup(name);
		c->timestamps[c->n_timestamps++].url = xstrdup(url);
	}
}

static const char *const state_keys[] = { "campaign", "rules", "turn", "game", NULL };

static int cmp_id(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

const char **campaign_ids(const struct campaign *c, size_t *n)
{
	const char **ids = xcalloc(c->n_players + 1, sizeof(char *));

	for (size_t i = 0; i < c->n_players; i++)
		ids[i] = c->players[i];
	ids[c->n_players] = UMPIRE_PLAYER;
	*n = c->n_players + 1;
	qsort(ids, *n, sizeof(char *), cmp_id);
	return ids;
}

int campaign_has_player(const struct campaign *c, const char *id)
{
	for (size_t i = 0; i < c->n_players; i++)
		if (strcmp(c->players[i], id) == 0)
			return 1;
	return 0;
}

static void campaign_clear_parsed(struct campaign *c)
{
	if (c->rules && c->options)
		c->rules->options_free(c->options);
	c->options = NULL;
	for (size_t i = 0; i < c->n_players; i++)
		free(c->players[i]);
	free(c->players);
	c->players = NULL;
	c->n_players = 0;
	free(c->id);
	free(c->title);
	free(c->rules_name);
	free(c->beacon);
	free(c->beacon_chain);
	free(c->beacon_key);
	free(c->timelock_recipient);
	for (size_t i = 0; i < c->n_timestamps; i++) {
		free(c->timestamps[i].name);
		free(c->timestamps[i].url);
	}
	free(c->timestamps);
	c->timestamps = NULL;
	c->n_timestamps = 0;
	pbem_release(&c->pbem);
	c->id = c->title = c->rules_name = c->beacon = c->beacon_chain = c->beacon_key = NULL;
	c->beacon_demo = 0;
}

int campaign_parse_players(struct campaign *c, const struct node *players, struct diag *d)
{
	size_t before = diag_count(d);
	const char *s;

	if (!players || node_check_seq(players, "players", CAMPAIGN_MAX_PLAYERS, d) < 0)
		return -1;
	c->players = xcalloc(players->n + 1, sizeof(char *));
	for (size_t i = 0; i < players->n; i++) {
		const struct node *p = players->items[i];
		if (node_check_map(p, "player", player_keys, d) < 0)
			continue;
		if (node_want_player_id(node_need(p, "id", d), "player id", &s, d) < 0)
			continue;
		if (strcmp(s, UMPIRE_PLAYER) == 0) {
			node_error(d, node_get(p, "id"),
				"player id 'umpire' is reserved (another id expected)");
			continue;
		}
		if (campaign_has_player(c, s)) {
			node_error(d, node_get(p, "id"), "duplicate player id '%s'", s);
			continue;
		}
		c->players[c->n_players++] = xstrdup(s);
	}
	if (players->n == 0)
		node_error(d, players, "no players (at least one expected)");
	else if (c->rules &&
		 (players->n < c->rules->min_players || players->n > c->rules->max_players))
		node_error(d, players, "%zu players (%s is played by %zu to %zu players)",
			players->n, c->rules->name, c->rules->min_players, c->rules->max_players);
	return diag_count(d) == before ? 0 : -1;
}

int campaign_parse(struct campaign *c, const char *file, const struct buf *bytes, struct diag *d)
{
	struct node *root = NULL;
	size_t before = diag_count(d);
	struct node_limits lim = { .max_bytes = 1024 * 1024 };

	campaign_clear_parsed(c);
	if (node_parse(&root, file, bytes->data ? bytes->data : "", bytes->len, &lim, d) < 0)
		return -1;
	if (node_check_map(root, "campaign", campaign_keys, d) < 0)
		goto done;

	const char *s;
	if (node_want_id(node_need(root, "id", d), "campaign id", &s, d) == 0)
		c->id = xstrdup(s);
	const struct node *title = node_get(root, "title");
	c->title = xstrdup(title && node_want_str(title, "title", 200, &s, d) == 0 ? s : "");
	if (node_want_id(node_need(root, "rules", d), "rules", &s, d) == 0) {
		c->rules_name = xstrdup(s);
		c->rules = rules_find(s);
		if (!c->rules) {
			struct buf hint = BUF_INIT;
			rules_suggest(&hint, s);
			node_error(d, node_get(root, "rules"),
				"unknown rule system '%s' (see 'umpire rules')%s", s,
				buf_str(&hint));
			buf_release(&hint);
		}
	}
	/* A campaign from before revisions were recorded was played with revision 1. */
	long long rev = 1;
	const struct node *rn = node_get(root, "rules_revision");
	if (rn)
		node_want_int(rn, "rules_revision", 1, 1000000, &rev, d);
	c->rules_revision = (int)rev;

	if (campaign_parse_players(c, node_need(root, "players", d), d) == 0)
		pbem_parse(&c->pbem, root, node_get(root, "players"), d);

	c->chain_length = FAIR_DEFAULT_CHAIN_LENGTH;
	c->fair = 1;
	const struct node *fairness = node_need(root, "fairness", d);
	if (fairness && node_check_map(fairness, "fairness", fairness_keys, d) == 0) {
		long long len;
		const struct node *n = node_get(fairness, "chain_length");
		if (n && node_want_int(n, "chain_length", 1, 1000000, &len, d) == 0)
			c->chain_length = (uint32_t)len;
		n = node_need(fairness, "commitment", d);
		if (n && node_want_str(n, "commitment", 64, &s, d) == 0 &&
			hex_decode(c->commitment, 32, s) < 0)
			node_error(d, n, "commitment is not 64 hex digits");
		n = node_get(fairness, "fair");
		if (n)
			node_want_bool(n, "fair", &c->fair, d);
		parse_entropy(c, fairness, d);
		parse_timestamps(c, fairness, d);
	}
	parse_visibility(c, root, d);
	parse_orders(c, root, d);

	if (c->rules && diag_count(d) == before) {
		if (c->rules->options_parse(&c->options, node_get(root, "options"), d) < 0)
			c->options = NULL;
	}
	c->rc.id = c->id;
	c->rc.players = (const char *const *)c->players;
	c->rc.n_players = c->n_players;
	c->rc.options = c->options;
done:
	node_free(root);
	return diag_count(d) == before ? 0 : -1;
}

static void (*wait_notice)(const char *message);

void campaign_set_wait_notice(void (*notice)(const char *message))
{
	wait_notice = notice;
}

/* flock(fd, op), waiting (after telling wait_notice why) when another holds it. */
static int lock_waiting(int fd, int op, const char *why)
{
	if (flock(fd, op | LOCK_NB) == 0)
		return 0;
	if (errno != EWOULDBLOCK)
		return -1;
	if (wait_notice)
		wait_notice(why);
	while (flock(fd, op) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

/* The readers' lock, .umpire/readers: shared by verify and replay, exclusive for a turn.
 * A reader that can neither open nor create it (a read-only copy) reads without it: no
 * run of this umpire can write there either. 0 / -1. */
static int readers_lock(struct campaign *c, int shared)
{
	char *path = xasprintf("%s/.umpire/readers", c->dir);
	int rc = 0;

	c->readers_fd = file_open(path, O_RDWR | O_CREAT, 0600);
	if (c->readers_fd < 0 && errno == ELOOP) {
		free(path);
		return -1;
	}
	if (c->readers_fd < 0 && shared)
		c->readers_fd = file_open(path, O_RDONLY, 0);
	if (c->readers_fd < 0) {
		if (!shared || (errno != ENOENT && errno != EROFS && errno != EACCES))
			rc = error_set(ERROR_OS, "cannot open lock file '%s': %s", path,
				strerror(errno));
	} else if (
		lock_waiting(c->readers_fd, shared ? LOCK_SH : LOCK_EX,
			shared ?
				"a turn is being processed: waiting for it to finish" :
				"a verify or replay is reading the campaign: waiting for it to finish") <
		0) {
		rc = error_set(ERROR_OS, "cannot lock '%s': %s", path, strerror(errno));
	}
	free(path);
	return rc;
}

/* The writers' lock, .umpire/lock, exclusive without waiting (a second turn is refused),
 * then the readers' lock. 0, ERROR_LOCKED when another run holds the lock, -1. */
static int campaign_lock(struct campaign *c)
{
	char *path = xasprintf("%s/.umpire/lock", c->dir);
	struct stat st;
	int rc = 0;

	c->lock_fd = file_open(path, O_RDWR | O_CREAT, 0600);
	if (c->lock_fd < 0 && errno == ELOOP) {
		rc = -1;
	} else if (c->lock_fd < 0) {
		rc = error_set(ERROR_OS, "cannot open lock file '%s': %s", path, strerror(errno));
	} else if (flock(c->lock_fd, LOCK_EX | LOCK_NB) < 0) {
		if (errno == EWOULDBLOCK) {
			error_set(ERROR_BUSY,
				"campaign '%s' is locked by another umpire run (try again when it ends)",
				c->dir);
			rc = ERROR_LOCKED;
		} else {
			rc = error_set(ERROR_OS, "cannot lock '%s': %s", path, strerror(errno));
		}
		close(c->lock_fd);
		c->lock_fd = -1;
	} else if (futimens(c->lock_fd, NULL) < 0 || fstat(c->lock_fd, &st) < 0) {
		rc = error_set(ERROR_OS, "cannot stamp lock file '%s': %s", path, strerror(errno));
	} else {
		c->locked_at = st.st_mtim;
		rc = readers_lock(c, 0);
	}
	free(path);
	return rc;
}

/* Holding the writer lock, before anything is written: the mark of an idle `umpire run` pass
 * (.umpire/run-idle, core/idle.h) goes, so whatever this command changes, the next pass is a
 * full one, even if the mark's list of files missed it. 0 / -1. */
static int forget_idle(struct campaign *c)
{
	char *dir = xasprintf("%s/.umpire", c->dir);
	int dfd = file_open_dir(dir, 0), rc = 0;

	if (dfd < 0)
		rc = -1;
	else if (unlinkat(dfd, IDLE_MARK, 0) < 0 && errno != ENOENT)
		rc = error_set(ERROR_OS, "cannot remove '%s/" IDLE_MARK "': %s", dir,
			strerror(errno));
	if (dfd >= 0)
		close(dfd);
	free(dir);
	return rc;
}

/* 1 if SQLite's message says the disk failed (full, out of inodes, I/O), not the file. */
static int journal_os_failure(const char *message)
{
	return strstr(message, "disk I/O error") || strstr(message, "disk is full") ||
	       strstr(message, "unable to open database file");
}

/* The stale temporary files under .umpire/ where durable writes go (file_clear_stale_temps).
 * closed/, sealed/ and inbox/ hold a folder a turn: only those a killed run can have been
 * writing are read — the open turn's and its neighbours', from the journal (issue 38: a
 * command's cost does not grow with the campaign's length). Without the journal (publish,
 * send, players, outbox: none writes there) only their top folders; the next command that
 * opens the journal clears the rest. */
static int clear_stale_temps(struct campaign *c)
{
	static const char *const per_turn[] = { "closed", "sealed", "inbox", NULL };
	size_t removed = 0;
	int last = -1, rc = 0;

	if (c->journal && journal_last_turn(c->journal, &last) < 0)
		return -1;
	for (size_t i = 0; rc == 0 && per_turn[i]; i++) {
		char *dir = xasprintf("%s/.umpire/%s", c->dir, per_turn[i]);
		rc = file_clear_stale_temps(dir, 0, &c->locked_at, &removed);
		free(dir);
		for (int t = last < 0 ? 0 : last; rc == 0 && c->journal && t <= last + 2; t++) {
			dir = xasprintf("%s/.umpire/%s/" LAYOUT_TAG_PREFIX "%04d", c->dir,
				per_turn[i], t);
			rc = file_clear_stale_temps(dir, 3, &c->locked_at, &removed);
			free(dir);
		}
	}
	char *outbox = xasprintf("%s/.umpire/outbox", c->dir);
	if (rc == 0)
		rc = file_clear_stale_temps(outbox, 4, &c->locked_at, &removed);
	free(outbox);
	return rc;
}

/* The journal is this campaign's: the campaign.yaml its turn 0 committed holds this
 * campaign's commitment (a journal copied from another campaign is said as such, not as a
 * journal behind the history; a Setup rewritten in place is left to verify, which says so).
 * A journal without turn 0 is left to the recovery that knows that state. 0 / -1
 * (ERROR_INPUT). */
static int check_journal_identity(struct campaign *c)
{
	struct journal_record *r = NULL;
	struct node *root = NULL;
	struct node_limits lim = { .max_bytes = 1024 * 1024 };
	char tag[LAYOUT_TAG_MAX], setup[41], hex[65];
	struct diag d;
	int last = -1, rc = 0;

	if (journal_last_turn(c->journal, &last) < 0 || last < 0 ||
		journal_read(c->journal, 0, &r) < 0)
		return 0;
	const struct file *f = file_list_find(r->files, r->n_files, LAYOUT_CAMPAIGN);
	/* Read through the YAML parser, never by matching text: a commitment YAML would read
	 * as a number (0b..., 1e5...) is written quoted. */
	diag_init(&d);
	if (f && node_parse(&root, LAYOUT_CAMPAIGN, f->data, f->len, &lim, &d) < 0)
		root = NULL;
	diag_release(&d);
	const struct node *fair = root ? node_get(root, "fairness") : NULL;
	const struct node *k = fair ? node_get(fair, "commitment") : NULL;
	hex_encode(hex, c->commitment, sizeof c->commitment);
	layout_tag(tag, 0);
	if (k && k->kind == NODE_SCALAR && strcmp(k->scalar, hex) != 0) {
		if (repo_commit_id(c->repo, tag, setup) != 0)
			snprintf(setup, sizeof setup, "(untagged)");
		rc = error_set(ERROR_INPUT,
			"the journal (.umpire/journal.sqlite) is another campaign's: its Setup is commit %s, this campaign's (tag %s) is %s (restore this campaign's journal from a backup)",
			r->commit_id[0] ? r->commit_id : "(unknown)", tag, setup);
	}
	node_free(root);
	journal_record_free(r);
	return rc;
}

int campaign_check_stored_orders(struct campaign *c, const struct journal_record *r)
{
	uint8_t secret[FAIR_HASH_BYTES];
	int rc = 0;

	if (c->visibility != CAMPAIGN_SEALED)
		return journal_record_check(r, NULL);
	fair_secret_lock(secret, sizeof secret);
	rc = campaign_read_secret(c, secret);
	if (rc == 0)
		rc = journal_record_check(r, secret);
	else
		error_prefix("turn %d is sealed: its order files' salts come from the secret",
			r->turn);
	fair_secret_unlock(secret, sizeof secret);
	return rc;
}

/* One files row of the last turn (its hash) against the blob its commit holds
 * (journal_each_file). */
struct sound_walk {
	struct campaign *c;
	int turn;
	const char *rev; /* the turn's commit */
	struct buf got;
};

static int check_sound_file(const char *path, const uint8_t sha256[FAIR_HASH_BYTES], void *arg)
{
	struct sound_walk *w = arg;
	uint8_t h[FAIR_HASH_BYTES] = { 0 };
	int rc = repo_read(w->c->repo, w->rev, path, &w->got);

	if (rc < 0 && rc != ERROR_NOTFOUND)
		return error_prefix("checking the journal's turn %d", w->turn);
	if (rc == 0)
		fair_sha256(h, w->got.data ? w->got.data : "", w->got.len);
	if (rc == ERROR_NOTFOUND || memcmp(h, sha256, FAIR_HASH_BYTES) != 0)
		return error_set(ERROR_INPUT,
			"turn %d: the journal's files row %s is damaged: it differs from the blob its commit %.12s holds (restore the journal from a backup)",
			w->turn, path, w->rev);
	return 0;
}

static int add_row(const char *path, const uint8_t sha256[FAIR_HASH_BYTES], void *arg)
{
	buf_append(arg, path, strlen(path) + 1);
	buf_append(arg, sha256, FAIR_HASH_BYTES);
	return 0;
}

/* The line .umpire/sound holds once turn's files rows were found to match the blobs of its
 * commit: "TURN COMMIT DIGEST", DIGEST the SHA-256 of the rows (path, NUL, hash, in path
 * order). A new string, or NULL (-1 said) when the rows cannot be read. */
static char *sound_mark(struct campaign *c, int turn, const char *commit)
{
	struct buf rows = BUF_INIT;
	uint8_t h[FAIR_HASH_BYTES];
	char hex[2 * FAIR_HASH_BYTES + 1];
	char *line = NULL;

	if (journal_each_file(c->journal, turn, add_row, &rows) == 0) {
		fair_sha256(h, rows.data ? rows.data : "", rows.len);
		hex_encode(hex, h, sizeof h);
		line = xasprintf("%d %s %s\n", turn, commit, hex);
	}
	buf_release(&rows);
	return line;
}

int campaign_note_sound(struct campaign *c, int turn, const char *commit)
{
	if (!c->journal)
		return -1;
	char *line = sound_mark(c, turn, commit), *dir = xasprintf("%s/.umpire", c->dir);
	/* A cache (lost, the next check walks the rows again) compared whole, its newline too,
	 * by sound_noted: no fsync */
	int rc = line ? file_write_atomic(dir, "sound", line, strlen(line)) : -1;
	free(line);
	free(dir);
	return rc;
}

/* 1 when the mark file at path holds line exactly, its length and bytes: a torn or padded
 * file (a crash after file_write_atomic, a NUL in it), a missing or unreadable one, is another
 * mark. */
static int mark_holds(const char *path, const char *line)
{
	struct buf mark = BUF_INIT;
	size_t len = strlen(line);
	int same = file_read(path, 256, &mark) == 0 && mark.len == len &&
		   (len == 0 || memcmp(mark.data, line, len) == 0);

	error_clear();
	buf_release(&mark);
	return same;
}

/* 1 when .umpire/sound says the rows of turn, as they are now, were checked against its
 * commit: the commit's id names its blobs' bytes, so the walk would find what it found. */
static int sound_noted(struct campaign *c, int turn, const char *commit)
{
	char *path = xasprintf("%s/.umpire/sound", c->dir), *line = sound_mark(c, turn, commit);
	int same = line && mark_holds(path, line);

	error_clear();
	free(line);
	free(path);
	return same;
}

/* .umpire/checked: the journal's stamp (journal_stamp) as the last command that found it sound
 * left it when it closed it. */
#define CHECKED_MARK "checked"

/* The journal's files as the file system has them, one line each, in the form of the stat
 * records of .umpire/run-idle (idle_stat_text: dev, inode, size, times in ns):
 * "journal.sqlite DEV INO SIZE MTIME CTIME\n" and "journal.sqlite-wal 0 0 SIZE 0 0\n", the
 * WAL's size alone (0 when there is none: an empty one, new inode and times, is made by
 * every opening). The kernel sets the change time on every write and no program can set it
 * back, so two equal stamps mean nothing wrote the files in between (but within a tick of
 * the kernel's coarse clock). A new string, or NULL (no journal, or it cannot be stat'ed). */
static char *journal_stamp(const struct campaign *c)
{
	char *path = xasprintf("%s/.umpire/journal.sqlite", c->dir);
	char *wal = xasprintf("%s-wal", path), *line = NULL;
	char db_text[IDLE_STAT_TEXT_MAX], wal_text[IDLE_STAT_TEXT_MAX];
	struct idle_stat db = { 0 }, w = { 0 };

	if (idle_stat_take(AT_FDCWD, path, &db) == 0 && !db.absent &&
		idle_stat_take(AT_FDCWD, wal, &w) == 0) {
		struct idle_stat wal_size = { .size = w.size }; /* 0 when absent */
		idle_stat_text(db_text, &db);
		idle_stat_text(wal_text, &wal_size);
		line = xasprintf("journal.sqlite %s\njournal.sqlite-wal %s\n", db_text, wal_text);
	}
	free(wal);
	free(path);
	return line;
}

/* 1 when .umpire/checked holds the journal's stamp as it is now: the last command that found
 * the journal sound left it so, and nothing wrote it since. */
static int journal_unchanged(const struct campaign *c)
{
	char *path = xasprintf("%s/.umpire/" CHECKED_MARK, c->dir), *now = journal_stamp(c);
	int same = now && mark_holds(path, now);

	free(now);
	free(path);
	return same;
}

/* At campaign_close, the journal closed: a command that found it sound and wrote to it only
 * through its own connection (SQLite's data_version unchanged: no other connection committed
 * meanwhile) leaves it sound, and notes its stamp in .umpire/checked, so the next command
 * need not run quick_check over the whole file again (issue 38: its cost grew with the
 * campaign, a third of a turn at 1,000 turns). Best effort: a mark not written only costs the
 * next command the full check; so it is a cache, written by rename but not synced
 * (file_write_atomic): a mark a crash tore is not the stamp (journal_unchanged compares it
 * whole, its final newline too), so the check runs. */
static void note_checked(struct campaign *c, int unchanged)
{
	char *dir = xasprintf("%s/.umpire", c->dir), *line = NULL;
	char *path = xasprintf("%s/" CHECKED_MARK, dir);

	/* a command that only read the journal leaves the stamp as it found it: no new write */
	if (unchanged && (line = journal_stamp(c)) && !mark_holds(path, line))
		(void)file_write_atomic(dir, CHECKED_MARK, line, strlen(line));
	free(line);
	free(path);
	free(dir);
}

/* Before a command writes to the journal: what it relies on is sound. SQLite's quick_check
 * over the whole file, then the stored rows of the last turn: each order file's bytes
 * against its hash, each files row against the blob its commit holds (when the commit is
 * there: a turn a crash left unpublished is the recovery's), one row at a time, unless
 * .umpire/sound says these rows were found so (read back, a big turn's blobs were a tenth of
 * the next turn: issue 38). 0 / -1 (ERROR_INPUT naming what is damaged). */
static int check_journal_sound(struct campaign *c)
{
	struct journal_record *r = NULL;
	int last = -1, rc;

	/* quick_check reads every page and row: skipped when the file is as a command that found
	 * it sound left it (.umpire/checked); a copied, restored or edited file is checked. */
	if ((!journal_unchanged(c) && (rc = journal_quick_check(c->journal)) < 0) ||
		(rc = journal_data_version(c->journal, &c->data_version)) < 0 ||
		(rc = journal_last_turn(c->journal, &last)) < 0 || last < 0)
		return rc;
	if ((rc = journal_read_turn(c->journal, last, 0, &r)) < 0) {
		error_prefix("the journal's turn %d", last);
		return -1;
	}
	rc = campaign_check_stored_orders(c, r);
	struct sound_walk w = { c, last, NULL, BUF_INIT };
	w.rev = r->commit_id[0] && repo_has(c->repo, r->commit_id) ? r->commit_id : NULL;
	if (rc == 0 && w.rev && !sound_noted(c, last, w.rev)) {
		if (journal_each_file(c->journal, last, check_sound_file, &w) != 0)
			rc = -1;
		else if (campaign_note_sound(c, last, w.rev) < 0)
			error_clear(); /* only the next check walks the rows again */
	}
	buf_release(&w.got);
	journal_record_free(r);
	return rc;
}

int campaign_check_sound(struct campaign *c)
{
	if (c->sound == 1)
		c->sound = check_journal_sound(c) < 0 ? -1 : 2;
	else if (c->sound == -1)
		return error_set(ERROR_INPUT, "the journal was found damaged before");
	return c->sound < 0 ? -1 : 0;
}

/* The diagnostics of d as the text of an error message (no trailing newline). */
static void diag_text(struct buf *out, const struct diag *d)
{
	diag_format(d, out, 0);
	while (out->len > 0 && out->data[out->len - 1] == '\n')
		out->data[--out->len] = '\0';
}

/* The players' addresses from .umpire/addresses.yaml over those of campaign.yaml (docs/formats.md
 * "Play by email"). No file: campaign.yaml's (a campaign made before the file, or one without
 * mail). A reader (verify, replay) that may not read it needs no address: it goes on. 0 / -1. */
static int read_addresses(struct campaign *c, unsigned flags)
{
	char *path = xasprintf("%s/.umpire/" LAYOUT_ADDRESSES, c->dir);
	struct buf bytes = BUF_INIT, text = BUF_INIT;
	struct diag d;
	int rc = 0;

	diag_init(&d);
	if (file_read(path, 256 * 1024, &bytes) < 0) {
		int absent = error_last()->klass == ERROR_MISSING && errno == ENOENT;
		if (!absent && !(flags & CAMPAIGN_READ_LOCK))
			rc = error_prefix("the players' addresses '%s'", path);
		else
			error_clear();
	} else if (pbem_parse_addresses(&c->pbem, (const char *const *)c->players, path, &bytes,
			   &d) < 0) {
		diag_text(&text, &d);
		rc = error_set(ERROR_INPUT, "%s", buf_str(&text));
	}
	diag_release(&d);
	buf_release(&text);
	buf_release(&bytes);
	free(path);
	return rc;
}

int campaign_open(struct campaign **out, const char *dir, unsigned flags)
{
	struct campaign *c = xcalloc(1, sizeof(*c));
	struct buf bytes = BUF_INIT;
	struct diag d;
	int rc;

	diag_init(&d);
	c->lock_fd = -1;
	c->readers_fd = -1;
	c->dir = xstrdup(dir);
	*out = NULL;

	/* Nothing under the campaign is reached through a link (issue 25): file.h. */
	file_guard(dir);
	rc = repo_open(&c->repo, dir);
	if (rc == ERROR_NOTFOUND)
		error_set(ERROR_MISSING, "'%s' is not a campaign (no git repository there)", dir);
	else if (rc < 0)
		error_reclass(ERROR_MISSING);
	if (rc < 0)
		goto done;
	rc = repo_read(c->repo, "HEAD", "campaign.yaml", &bytes);
	if (rc == ERROR_NOTFOUND)
		error_set(ERROR_MISSING, "'%s' is not a campaign (no committed campaign.yaml)",
			dir);
	if (rc < 0)
		goto done;
	if (campaign_parse(c, "campaign.yaml", &bytes, &d) < 0) {
		struct buf text = BUF_INIT;
		diag_text(&text, &d);
		rc = error_set(ERROR_INPUT, "%s", buf_str(&text));
		buf_release(&text);
		goto done;
	}
	if ((rc = read_addresses(c, flags)) < 0 || (rc = schedule_load(c)) < 0)
		goto done;
	if (c->rules_revision != c->rules->revision) {
		rc = error_set(ERROR_INPUT,
			"campaign '%s' was played with %s revision %d, this umpire has %d (use the umpire that played it)",
			c->id, c->rules->name, c->rules_revision, c->rules->revision);
		goto done;
	}
	if ((flags & CAMPAIGN_LOCK) && ((rc = campaign_lock(c)) < 0 || (rc = forget_idle(c)) < 0 ||
					       (rc = repo_trust_own_objects()) < 0))
		goto done;
	/* Holding the writer lock, a git lock file from before it was taken was left by a run
	 * that was killed: it would block every rerun. */
	if ((flags & CAMPAIGN_LOCK) &&
		(rc = repo_clear_stale_locks(c->repo, &c->locked_at, &c->stale_locks)) < 0)
		goto done;
	if ((flags & CAMPAIGN_READ_LOCK) && (rc = readers_lock(c, 1)) < 0)
		goto done;
	if (flags & (CAMPAIGN_JOURNAL | CAMPAIGN_JOURNAL_IF_ANY)) {
		char *path = xasprintf("%s/.umpire/journal.sqlite", dir);
		struct stat st;
		/* SQLite opens by name: the name is first checked to be no link, nor any
		 * directory on the way to it. */
		int fd = file_open(path, O_RDONLY, 0);
		if (fd >= 0)
			close(fd);
		else if (errno == ELOOP) {
			free(path);
			rc = -1;
			goto done;
		}
		if (stat(path, &st) == 0 || (flags & CAMPAIGN_JOURNAL)) {
			rc = (flags & CAMPAIGN_READ_LOCK) ? journal_open_read(&c->journal, path) :
							    journal_open(&c->journal, path, 0);
			/* A journal that cannot be read is "no campaign" to the user, unless the
			 * disk failed (full, I/O): that is the OS's, exit 74, not 66. */
			if (rc < 0 && error_last()->klass != ERROR_INPUT &&
				!journal_os_failure(error_last()->message))
				error_reclass(ERROR_MISSING);
		}
		free(path);
		if (rc == 0 && c->journal)
			rc = check_journal_identity(c);
		if (rc == 0 && c->journal && (flags & CAMPAIGN_LOCK) && (flags & CAMPAIGN_JOURNAL))
			c->sound = (flags & CAMPAIGN_SOUND_LATER)    ? 1 :
				   (rc = check_journal_sound(c)) < 0 ? -1 :
								       2;
		if (rc < 0)
			goto done;
	}
	/* Holding the writer lock, a temporary file of a durable write (.NAME.XXXXXX) is a
	 * killed run's: nothing was lost (the rename had not happened), so it goes quietly. */
	if ((flags & CAMPAIGN_LOCK) && (rc = clear_stale_temps(c)) < 0)
		goto done;
	rc = 0;
done:
	buf_release(&bytes);
	diag_release(&d);
	if (rc < 0)
		campaign_close(c);
	else
		*out = c;
	return rc;
}

size_t campaign_unproven(const struct campaign *c, struct buf *out)
{
	const char *why[6];
	size_t n = 0;
	int beacon = c->entropy == CAMPAIGN_ENTROPY_BEACON;
	int demo = beacon && c->beacon_key &&
		   (c->beacon_demo || strcmp(c->beacon_key, beacon_demo.public_key) == 0);

	if (c->entropy == CAMPAIGN_ENTROPY_NONE)
		why[n++] =
			"entropy none (the umpire knows each turn key before the orders and can choose among outcomes)";
	if (!c->fair)
		why[n++] = "the secret came from a file (whoever wrote it knows every die)";
	if (beacon && !c->beacon_key)
		why[n++] = "an unsigned beacon (its values could be chosen after the close)";
	if (demo)
		why[n++] =
			"the demo beacon (its secret key is published: anyone can sign any round)";
	else if (beacon && c->beacon_key && strcmp(c->beacon_chain, beacon_quicknet.hash) != 0)
		why[n++] =
			"a beacon chain umpire does not know (each player must name its key to verify: --trust-chain)";
	if (beacon && !c->pbem.schedule.set)
		why[n++] = "no schedule (the umpire chooses when to close, so he can close again)";
	for (size_t i = 0; i < n; i++)
		buf_printf(out, "%s%s", i ? "; " : "", why[i]);
	return n;
}

void campaign_close_journal(struct campaign *c)
{
	if (c->journal)
		journal_close(c->journal);
	c->journal = NULL;
}

void campaign_close(struct campaign *c)
{
	if (!c)
		return;
	campaign_clear_parsed(c);
	/* Only a command that ends with no error recorded notes the journal checked: one that
	 * failed leaves the mark as it was (its writes, if any, make the next check a full one). */
	long long dv = -1;
	int note = c->journal && c->sound == 2 && c->lock_fd >= 0 &&
		   error_last()->klass == ERROR_NONE;
	int unchanged = note && journal_data_version(c->journal, &dv) == 0 && dv == c->data_version;
	if (c->journal)
		journal_close(c->journal);
	if (note) {
		note_checked(c, unchanged);
		error_clear();
	}
	if (c->repo)
		repo_free(c->repo);
	repo_names_free(c->stale_locks);
	if (c->readers_fd >= 0)
		close(c->readers_fd);
	if (c->lock_fd >= 0)
		close(c->lock_fd);
	free(c->dir);
	free(c);
}

int campaign_load_state(struct campaign *c, const char *rev, int *turn, void **state)
{
	struct buf bytes = BUF_INIT;
	int rc;

	*state = NULL;
	int r = repo_read(c->repo, rev, "state.yaml", &bytes);
	if (r < 0)
		rc = error_set(r == ERROR_NOTFOUND ? ERROR_INPUT : error_last()->klass,
			"cannot read state.yaml at '%s': %s", rev,
			r == ERROR_NOTFOUND ? "no such revision or file" : error_last()->message);
	else
		rc = campaign_parse_state(c, rev, &bytes, turn, state);
	buf_release(&bytes);
	return rc;
}

static const struct node_limits state_limits = { .max_bytes = STATE_MAX_BYTES,
	.max_nodes = STATE_MAX_NODES,
	.max_depth = 32 };

/* The state in root, a state.yaml document: its `turn` into *turn, the rule system's state
 * into *state (NULL on failure). Problems go to d. 0 / -1. */
static int state_of(struct campaign *c, const struct node *root, int *turn, void **state,
	struct diag *d)
{
	long long t = 0;
	const char *s;

	*state = NULL;
	if (node_check_map(root, "state", state_keys, d) < 0)
		return -1;
	if (node_want_str(node_need(root, "campaign", d), "campaign", 64, &s, d) == 0 &&
		strcmp(s, c->id) != 0)
		node_error(d, node_get(root, "campaign"),
			"state of campaign '%s' (campaign '%s' expected)", s, c->id);
	if (node_want_str(node_need(root, "rules", d), "rules", 64, &s, d) == 0 &&
		strcmp(s, c->rules->name) != 0)
		node_error(d, node_get(root, "rules"), "state for rules '%s' ('%s' expected)", s,
			c->rules->name);
	node_want_int(node_need(root, "turn", d), "turn", 0, 1000000, &t, d);
	const struct node *game = node_need(root, "game", d);
	if (diag_count(d) == 0 && c->rules->state_parse(state, &c->rc, game, d) == 0) {
		*turn = (int)t;
		return 0;
	}
	return -1;
}

int campaign_parse_state(struct campaign *c, const char *rev, const struct buf *bytes, int *turn,
	void **state)
{
	struct node *root = NULL;
	struct diag d;
	int rc = -1;

	diag_init(&d);
	*state = NULL;
	if (node_parse(&root, "state.yaml", bytes->data, bytes->len, &state_limits, &d) == 0)
		rc = state_of(c, root, turn, state, &d);
	if (rc < 0) {
		struct buf text = BUF_INIT;
		diag_text(&text, &d);
		error_set(ERROR_INPUT, "the committed state at '%s' is not valid:\n%s", rev,
			buf_str(&text));
		buf_release(&text);
	}
	node_free(root);
	diag_release(&d);
	return rc;
}

static int emit_state(struct campaign *c, int turn, const void *state, const char *player, int all,
	struct buf *out, void **read);

int campaign_emit_state(const struct campaign *c, int turn, const void *state, const char *player,
	struct buf *out)
{
	return emit_state((struct campaign *)c, turn, state, player, 0, out, NULL);
}

int campaign_emit_whole_state(const struct campaign *c, int turn, const void *state,
	struct buf *out)
{
	return emit_state((struct campaign *)c, turn, state, NULL, 1, out, NULL);
}

int campaign_emit_committed_state(const struct campaign *c, int turn, const void *state,
	struct buf *out)
{
	return emit_state((struct campaign *)c, turn, state, NULL, c->visibility != CAMPAIGN_SEALED,
		out, NULL);
}

int campaign_emit_read(struct campaign *c, int turn, const void *state, int whole, struct buf *out,
	void **read)
{
	return emit_state(c, turn, state, NULL, whole || c->visibility != CAMPAIGN_SEALED, out,
		read);
}

/* state.yaml bytes: the whole state (all), or the view of player (NULL: the public's); read
 * (NULL: not wanted) as campaign_emit_read says. c is only read unless read is wanted. */
static int emit_state(struct campaign *c, int turn, const void *state, const char *player, int all,
	struct buf *out, void **read)
{
	const struct rule_system *rs = c->rules;
	struct node *root = node_new_map();
	size_t at = out->len;
	int fast = 0, n = -1;
	node_map_str(root, "campaign", c->id);
	node_map_str(root, "rules", rs->name);
	node_map_int(root, "turn", turn);
	node_map_add(root, "game",
		rs->state_view && !all ? rs->state_view(&c->rc, state, player) :
					 rs->state_emit(&c->rc, state));
	buf_puts(out, "# umpire campaign state: generated by umpire, do not edit\n");
	int rc = node_emit_how(root, out, &fast);
	if (read) {
		struct diag d;
		diag_init(&d);
		*read = NULL;
		/* The tree is what node_parse reads from the bytes: state_of's checks on it are
		 * campaign_parse_state's, without parsing a big state again (issue 38). */
		if (rc == 0 && fast && node_as_read(root, out->len - at, &state_limits) == 0 &&
			(state_of(c, root, &n, read, &d) < 0 || n != turn) && *read) {
			rs->state_free(*read);
			*read = NULL;
		}
		diag_release(&d);
	}
	node_free(root);
	return rc;
}

int campaign_read_secret(struct campaign *c, uint8_t secret[32])
{
	char *path = xasprintf("%s/.umpire/secret", c->dir);
	char text[80] = { 0 };
	int rc = -1;
	struct stat st;
	int fd = file_open(path, O_RDONLY | O_NOCTTY, 0);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");

	if (!f && errno == ELOOP)
		goto done;
	if (!f) {
		error_set(ERROR_MISSING,
			"cannot read the umpire's secret '%s': %s (only the umpire's own copy of a campaign can process turns)",
			path, strerror(errno));
		goto done;
	}
	c->secret_exposed = fstat(fileno(f), &st) == 0 && (st.st_mode & 077) != 0;
	setvbuf(f, NULL, _IONBF, 0); /* no stdio buffer holding a copy */
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r' || text[n - 1] == ' '))
		text[--n] = '\0';
	if (n != 64 || hex_decode(secret, 32, text) < 0) {
		error_set(ERROR_MISSING, "'%s' does not hold 64 hex digits", path);
		goto done;
	}
	/* Checked before anything is derived from it: a wrong secret would give other salts,
	 * and a sealed turn's close would then seem to have changed its inputs. */
	uint8_t commitment[32];
	fair_commitment(commitment, secret, c->chain_length);
	int same = memcmp(commitment, c->commitment, sizeof commitment) == 0;
	fair_wipe(commitment, sizeof commitment);
	if (!same) {
		fair_wipe(secret, 32);
		error_set(ERROR_INPUT,
			"'%s' is not this campaign's secret: it does not lead to the commitment in campaign.yaml (fairness.commitment; the umpire's secret of another campaign?)",
			path);
		goto done;
	}
	rc = 0;
done:
	fair_wipe(text, sizeof text);
	free(path);
	return rc;
}

int campaign_victory(const struct campaign *c, const void *state, const char **winner,
	struct buf *out)
{
	struct buf why = BUF_INIT;
	const char *w = NULL;
	int decided = c->rules->victory && c->rules->victory(&c->rc, state, &w, &why) == 1;

	if (decided && w) {
		size_t i = 0;
		while (i < c->n_players && strcmp(c->players[i], w) != 0)
			i++;
		assert(i < c->n_players); /* a rule system names one of the campaign's players */
		w = c->players[i];        /* c's own string: it outlives state */
	}
	if (!decided)
		buf_puts(out, "no winner by the scenario's conditions (it states none): the umpire "
			      "rules who won");
	else if (w)
		buf_printf(out, "%s wins: %s", w, buf_str(&why));
	else
		buf_printf(out, "a draw: %s", buf_str(&why));
	buf_release(&why);
	if (winner)
		*winner = decided ? w : NULL;
	return decided;
}
