/* setup.c — creating a campaign (campaign_create): campaign.yaml with the fairness
 * commitment built from a scenario and read back through the parser every later command
 * uses, the initial state, the git repository, the private .umpire/ (secret, journal), and
 * the setup committed as turn 0 through the turn pipeline's build, journal and publish
 * steps. `umpire init` is this plus reading files and printing. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/beacon.h"
#include "core/campaign.h"
#include "core/timelock.h"
#include "core/file.h"
#include "core/layout.h"
#include "core/render.h"
#include "core/turn.h"
#include "core/banned.h"

static const char *const scenario_keys[] = {
	"scenario",
	"title",
	"description",
	"rules",
	"players",
	"options",
	"game",
	"schedule",
	"publish",
	"mail",
	NULL,
};

static int write_private(const char *path, const void *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	ssize_t w = write(fd, data, len);
	int rc = (w == (ssize_t)len && fsync(fd) == 0) ? 0 : -1;
	close(fd);
	return rc;
}

static int dir_usable(const char *dir)
{
	struct stat st;
	if (stat(dir, &st) < 0)
		return errno == ENOENT ? 1 : 0;
	if (!S_ISDIR(st.st_mode))
		return 0;
	char *git = xasprintf("%s/.git", dir);
	char *ump = xasprintf("%s/.umpire", dir);
	int ok = stat(git, &st) < 0 && stat(ump, &st) < 0;
	free(git);
	free(ump);
	return ok;
}

static int mkdir_p(const char *dir, mode_t mode)
{
	char *p = xstrdup(dir);
	int rc = 0;
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) < 0 && errno != EEXIST)
			rc = -1;
		*s = '/';
	}
	if (rc == 0 && mkdir(p, mode) < 0 && errno != EEXIST)
		rc = -1;
	free(p);
	return rc;
}

static const char *base_name(const char *path)
{
	const char *end = path + strlen(path);
	while (end > path && end[-1] == '/')
		end--;
	const char *s = end;
	while (s > path && s[-1] != '/')
		s--;
	static char name[128];
	snprintf(name, sizeof(name), "%.*s", (int)(end - s), s);
	return name;
}

/* The scenario's players as campaign.yaml publishes them: each player's keys but `email`
 * (addresses are personal: they go to .umpire/addresses.yaml, build_addresses). */
static struct node *public_players(const struct node *players)
{
	struct node *seq = node_new_seq();
	for (size_t i = 0; i < players->n; i++) {
		const struct node *p = players->items[i];
		struct node *q = node_seq_add(seq, node_new_map());
		for (size_t k = 0; k < p->n; k++)
			if (strcmp(p->keys[k]->scalar, "email") != 0)
				node_map_add(q, p->keys[k]->scalar, node_clone(p->items[k]));
	}
	return seq;
}

/* .umpire/addresses.yaml of a scenario: `addresses:` mapping each player with an `email` to
 * it, as the scenario writes it (docs/formats.md "Play by email"). out stays empty when no
 * player has one. */
static void build_addresses(struct buf *out, const struct node *players)
{
	struct node *top = node_new_map();
	struct node *a = node_map_add(top, "addresses", node_new_map());
	for (size_t i = 0; i < players->n; i++) {
		const struct node *e = node_get(players->items[i], "email");
		if (e)
			node_map_add(a, node_get(players->items[i], "id")->scalar, node_clone(e));
	}
	if (a->n) {
		buf_puts(out, PBEM_ADDRESSES_HEADER);
		node_emit(top, out);
	}
	node_free(top);
}

/* campaign.yaml of a scenario: id, title, rules, players (without their addresses), the
 * options in full (defaults included) and the fairness block. Problems go to d. Returns 0 / -1. */
static int build_campaign_yaml(struct buf *out, const struct campaign_spec *spec,
	const struct node *root, const uint8_t commitment[FAIR_HASH_BYTES], struct diag *d)
{
	const char *s = NULL, *rules_name = NULL;
	const struct node *sn = node_get(root, "scenario");
	if (sn && node_want_id(sn, "scenario", &s, d) < 0)
		s = NULL;
	const char *id = spec->id ? spec->id : s ? s : base_name(spec->dir);
	const struct node *rn = node_need(root, "rules", d);
	if (rn && node_want_id(rn, "rules", &rules_name, d) == 0 && !rules_find(rules_name)) {
		struct buf hint = BUF_INIT;
		rules_suggest(&hint, rules_name);
		node_error(d, rn, "unknown rule system '%s' (see 'umpire rules')%s", rules_name,
			buf_str(&hint));
		buf_release(&hint);
	}
	const struct node *players = node_need(root, "players", d);
	node_need(root, "game", d);
	/* The players are checked here, at the scenario's positions, not in the generated
	 * campaign.yaml that is read back below. */
	struct campaign scratch = { .rules = rules_name ? rules_find(rules_name) : NULL };
	if (players && campaign_parse_players(&scratch, players, d) == 0)
		pbem_parse_contacts(&scratch.pbem, players, d);
	for (size_t i = 0; i < scratch.n_players; i++)
		free(scratch.players[i]);
	free(scratch.players);
	pbem_release(&scratch.pbem);
	if (diag_count(d))
		return -1;
	/* The window a close's witness must fall in must be shorter than the wait for its
	 * round (docs/fairness.md, "The verdict"). */
	if (spec->entropy == CAMPAIGN_ENTROPY_BEACON && node_get(root, "schedule") &&
		spec->beacon_delay <= CLOSE_WITNESS_WINDOW)
		return error_set(ERROR_INPUT,
			"a schedule with beacon_delay %lld s: a close's witness may come up to %d s after the deadline plus grace, so the round must come later than that (--beacon-delay above %d)",
			(long long)spec->beacon_delay, CLOSE_WITNESS_WINDOW, CLOSE_WITNESS_WINDOW);
	if (!node_is_id(id))
		return error_set(ERROR_INPUT,
			"campaign id is '%.40s%s' (an identifier of 1 to 64 letters, digits, '_', '.' or '-' expected%s)",
			id, strlen(id) > 40 ? "..." : "",
			spec->id ? ", given by --id" : ": the directory's name is used; give --id");

	struct node *cy = node_new_map();
	const struct rule_system *rs = rules_find(rules_name);
	void *options = NULL;
	char hex[65];
	int rc = -1;
	node_map_str(cy, "id", id);
	const struct node *tn = node_get(root, "title");
	if (tn && tn->kind == NODE_SCALAR)
		node_map_str(cy, "title", tn->scalar);
	node_map_str(cy, "rules", rules_name);
	node_map_int(cy, "rules_revision", rs->revision);
	node_map_add(cy, "players", public_players(players));
	if (rs->options_parse(&options, node_get(root, "options"), d) < 0)
		goto done;
	node_map_add(cy, "options", rs->options_emit(options));
	rs->options_free(options);
	struct node *fair = node_map_add(cy, "fairness", node_new_map());
	hex_encode(hex, commitment, FAIR_HASH_BYTES);
	node_map_str(fair, "commitment", hex);
	node_map_int(fair, "chain_length", spec->chain_length);
	node_map_bool(fair, "fair", spec->fair);
	node_map_str(fair, "entropy", campaign_entropy_names[spec->entropy]);
	node_map_str(fair, "beacon", spec->beacon ? spec->beacon : "none");
	if (spec->entropy == CAMPAIGN_ENTROPY_BEACON) {
		node_map_int(fair, "beacon_genesis", spec->beacon_genesis);
		node_map_int(fair, "beacon_period", spec->beacon_period);
		node_map_int(fair, "beacon_delay", spec->beacon_delay);
		if (spec->beacon_chain) {
			node_map_str(fair, "beacon_chain", spec->beacon_chain);
			node_map_str(fair, "beacon_scheme", BEACON_SCHEME);
			node_map_str(fair, "beacon_public_key", spec->beacon_key);
		}
		if (spec->beacon_demo) {
			node_map_bool(fair, "beacon_demo", 1);
			node_map_str(fair, "warning",
				"demo beacon: its secret key is published with umpire, so anyone can sign "
				"any of its rounds: this campaign's dice prove nothing about fairness");
		}
	}
	if (spec->n_timestamps) {
		struct node *ts = node_map_add(fair, "timestamps", node_new_seq());
		for (size_t i = 0; i < spec->n_timestamps; i++) {
			struct node *a = node_seq_add(ts, node_new_map());
			node_map_str(a, "name", spec->timestamps[i].name);
			node_map_str(a, "url", spec->timestamps[i].url);
		}
	}
	if (spec->entropy == CAMPAIGN_ENTROPY_NONE)
		node_map_str(fair, "warning",
			"entropy none: the umpire knows each turn key before the orders arrive and "
			"could choose among outcomes (trusted umpire only)");
	/* Open is what a campaign.yaml without the key means: an open campaign's Setup is
	 * byte for byte what it was before sealed turns existed. */
	if (spec->visibility != CAMPAIGN_OPEN)
		node_map_str(cy, "visibility", campaign_visibility_names[spec->visibility]);
	/* Plain orders are what a campaign.yaml without the key means. */
	if (spec->orders_timelocked)
		node_map_str(cy, "orders", "timelocked");
	if (spec->orders_timelocked && spec->timelock_recipient)
		node_map_str(node_map_add(cy, "timelock", node_new_map()), "recipient",
			spec->timelock_recipient);
	/* Play by email (docs/formats.md): copied as the scenario or --pbem gives them. */
	static const char *const pbem_keys[] = { "schedule", "publish", "mail" };
	for (size_t i = 0; i < sizeof(pbem_keys) / sizeof(pbem_keys[0]); i++) {
		if (!node_get(root, pbem_keys[i]))
			continue;
		struct node *v = node_map_add(cy, pbem_keys[i],
			node_clone(node_get(root, pbem_keys[i])));
		/* Quoted, so no YAML 1.1 reader takes the deadline for a timestamp. */
		struct node *t = (struct node *)node_get(v, "first_deadline");
		if (t && t->kind == NODE_SCALAR)
			t->quoted = 1;
	}
	buf_puts(out, "# umpire campaign: written by 'umpire init'\n");
	if (node_emit(cy, out) < 0)
		error_set(ERROR_INTERNAL, "internal error: cannot emit campaign.yaml");
	else
		rc = 0;
done:
	node_free(cy);
	return rc;
}

/* The directories and private files: .umpire/ (0700) with the secret (0600) and a new
 * journal, and the git repository. */
static int create_files(struct campaign *c, const uint8_t secret[FAIR_HASH_BYTES])
{
	char *udir = xasprintf("%s/.umpire", c->dir);
	char *secret_file = xasprintf("%s/secret", udir);
	char *journal_path = xasprintf("%s/journal.sqlite", udir);
	char secret_hex[66];
	int rc = -1;

	hex_encode(secret_hex, secret, FAIR_HASH_BYTES);
	secret_hex[64] = '\n';
	int made = mkdir_p(c->dir, 0777) == 0;
	if (made)
		file_guard(c->dir); /* once it exists, so its real path is guarded too (file.h) */
	if (!made || mkdir(udir, 0700) < 0)
		error_set(ERROR_CREATE, "cannot create '%s': %s", udir, strerror(errno));
	else if (write_private(secret_file, secret_hex, 65) < 0)
		error_set(ERROR_CREATE, "cannot write '%s': %s", secret_file, strerror(errno));
	else if (journal_open(&c->journal, journal_path, 1) < 0 || repo_init(&c->repo, c->dir) < 0)
		error_reclass(ERROR_CREATE);
	else
		rc = 0;
	free(udir);
	free(secret_file);
	free(journal_path);
	return rc;
}

/* Time-locked and sealed: the umpire's age identity, kept as the secret is (0600 in
 * .umpire/, never committed before the reveal). */
static int keep_identity(struct campaign *c, const struct campaign_spec *spec)
{
	char *path = xasprintf("%s/.umpire/" TIMELOCK_IDENTITY, c->dir);
	char *line = spec->timelock_identity ? xasprintf("%s\n", spec->timelock_identity) : NULL;
	int rc = 0;

	if (line && write_private(path, line, strlen(line)) < 0)
		rc = error_set(ERROR_CREATE, "cannot write '%s': %s", path, strerror(errno));
	if (line) {
		fair_wipe(line, strlen(line));
		free(line);
	}
	free(path);
	return rc;
}

/* The players' addresses, private (0600 in .umpire/, written durably), and read over
 * campaign.yaml's by campaign_open: campaign.yaml publishes none. */
static int keep_addresses(struct campaign *c, const struct buf *addresses)
{
	char *dir = xasprintf("%s/.umpire", c->dir);
	int rc = 0;

	struct diag d;

	diag_init(&d);
	if (addresses->len &&
		file_write_durable(dir, LAYOUT_ADDRESSES, addresses->data, addresses->len) < 0)
		rc = error_reclass(ERROR_CREATE);
	/* This run's campaign was read back from campaign.yaml alone: it gets them too. */
	else if (addresses->len &&
		 pbem_parse_addresses(&c->pbem, (const char *const *)c->players,
			 LAYOUT_ADDRESSES " (generated by init)", addresses, &d) < 0)
		rc = error_set(ERROR_INTERNAL,
			"internal error: cannot read back " LAYOUT_ADDRESSES);
	diag_release(&d);
	free(dir);
	return rc;
}

/* Sealed: state.yaml commits the public view; the whole initial state is kept privately for
 * turn 1 (.umpire/sealed/turn-0000/state.yaml, docs/fairness.md "Sealed turns"). */
static int keep_whole_state(struct campaign *c, const struct buf *whole)
{
	char *dir = turn_private_dir(c, "sealed", 0);
	int rc = 0;

	if (c->visibility == CAMPAIGN_SEALED &&
		(file_mkdir_p(dir, 0700) < 0 ||
			file_write_durable(dir, LAYOUT_STATE, whole->data, whole->len) < 0))
		rc = error_reclass(ERROR_CREATE);
	free(dir);
	return rc;
}

/* Sealed: each player's briefing into his outbox (.umpire/outbox/PLAYER/briefing/). */
static int keep_briefings(struct campaign *c, const struct file *v, size_t n)
{
	int rc = 0;

	for (size_t i = 0; rc == 0 && i < n; i++) {
		const char *slash = strchr(v[i].path, '/');
		char *dir = xasprintf("%s/.umpire/outbox/%.*s/" LAYOUT_OUTBOX_BRIEFING, c->dir,
			(int)(slash - v[i].path), v[i].path);
		if (file_mkdir_p(dir, 0700) < 0 ||
			file_write_durable(dir, slash + 1, v[i].data, v[i].len) < 0)
			rc = error_reclass(ERROR_CREATE);
		free(dir);
	}
	return rc;
}

/* Everything checked and rendered before anything is created: a bad scenario writes nothing. */
static int prepare(struct campaign *c, const struct campaign_spec *spec,
	const uint8_t commitment[FAIR_HASH_BYTES], struct buf *campaign_yaml, struct buf *addresses,
	struct buf *state_yaml, struct buf *whole_yaml, struct file **brief, size_t *n_brief,
	struct file **outbox, size_t *n_outbox, struct diag *d)
{
	struct node_limits lim = { .max_bytes = SCENARIO_MAX_BYTES,
		.max_nodes = SCENARIO_MAX_NODES,
		.max_depth = 32 };
	struct node *root = NULL;
	void *state = NULL;
	int rc = -1;

	/* No line starts with "rules:": not a scenario, whatever file it is (a key, a copy of a
	 * secret). Said so, and nothing of it echoed (issue 25). */
	if (!diag_text_has_line(spec->scenario, spec->scenario_len, "rules:")) {
		diag_add(d, spec->scenario_name, 1, 1,
			"not a scenario: no line starts with 'rules:' (a scenario is YAML with the keys rules, players and game, each at the start of a line; its contents are not shown)");
		goto done;
	}
	if (node_parse(&root, spec->scenario_name, spec->scenario, spec->scenario_len, &lim, d) <
			0 ||
		node_check_map(root, "scenario", scenario_keys, d) < 0 ||
		build_campaign_yaml(campaign_yaml, spec, root, commitment, d) < 0)
		goto done;
	build_addresses(addresses, node_get(root, "players"));
	/* Read back through the parser every later command uses: init cannot write a campaign
	 * it would not open. */
	if (campaign_parse(c, "campaign.yaml (generated by init)", campaign_yaml, d) < 0 ||
		c->rules->state_parse(&state, &c->rc, node_get(root, "game"), d) < 0)
		goto done;
	if (campaign_emit_committed_state(c, 0, state, state_yaml) < 0 ||
		campaign_emit_whole_state(c, 0, state, whole_yaml) < 0) {
		error_set(ERROR_INTERNAL, "internal error: cannot emit the initial state");
		goto done;
	}
	/* The turn-0 briefing (docs/formats.md "Maps"): the table before turn 1. */
	render_briefing_files(brief, n_brief, c, state, 0);
	if (c->visibility == CAMPAIGN_SEALED)
		render_briefing_files(outbox, n_outbox, c, state, 1);
	rc = 0;
done:
	if (rc < 0 && diag_count(d))
		error_set(ERROR_INPUT, "the scenario has errors");
	if (state)
		c->rules->state_free(state);
	node_free(root);
	return rc;
}

int campaign_create(struct campaign **out, const struct campaign_spec *spec, struct diag *d)
{
	static const char gitignore[] =
		"# the umpire's private files: journal, secret, lock\n/.umpire/\n";
	struct buf campaign_yaml = BUF_INIT, addresses = BUF_INIT, state_yaml = BUF_INIT,
		   whole_yaml = BUF_INIT;
	struct campaign *c = xcalloc(1, sizeof(*c));
	uint8_t commitment[FAIR_HASH_BYTES], state_sha256[FAIR_HASH_BYTES];
	struct file *files = NULL, *outbox = NULL;
	size_t n_files = 0, n_outbox = 0;
	int rc = -1;

	*out = NULL;
	c->lock_fd = -1;
	c->readers_fd = -1;
	c->dir = xstrdup(spec->dir);
	fair_commitment(commitment, spec->secret, spec->chain_length);
	file_list_add(&files, &n_files, ".gitignore", gitignore, sizeof(gitignore) - 1);
	if (prepare(c, spec, commitment, &campaign_yaml, &addresses, &state_yaml, &whole_yaml,
		    &files, &n_files, &outbox, &n_outbox, d) < 0)
		goto done;
	if (!dir_usable(spec->dir)) {
		error_set(ERROR_CREATE,
			"'%s' exists and is not an empty directory (a new campaign directory expected)",
			spec->dir);
		goto done;
	}
	if (create_files(c, spec->secret) < 0 || keep_identity(c, spec) < 0 ||
		keep_addresses(c, &addresses) < 0 || keep_whole_state(c, &whole_yaml) < 0 ||
		keep_briefings(c, outbox, n_outbox) < 0)
		goto done;
	file_list_add(&files, &n_files, LAYOUT_CAMPAIGN, campaign_yaml.data, campaign_yaml.len);
	file_list_add(&files, &n_files, LAYOUT_STATE, state_yaml.data, state_yaml.len);
	fair_sha256(state_sha256, state_yaml.data, state_yaml.len);
	if (turn_commit_setup(c, files, n_files, state_sha256, spec->when) < 0)
		goto done;
	*out = c;
	c = NULL;
	rc = 0;
done:
	campaign_close(c);
	file_list_free(files, n_files);
	file_list_free(outbox, n_outbox);
	buf_release(&campaign_yaml);
	buf_release(&addresses);
	buf_release(&state_yaml);
	buf_release(&whole_yaml);
	return rc;
}
