/* init.c — `umpire init`: create a campaign from a scenario: the git repository, campaign.yaml
 * with the fairness commitment, the initial state.yaml, .gitignore and the private .umpire/
 * (journal, secret, lock); journal turn 0 and the commit "Setup" tagged turn-0000. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "core/campaign.h"
#include "core/fair.h"
#include "core/turn.h"
#include "core/banned.h"

static const char *const scenario_keys[] = {
	"scenario", "title", "description", "rules", "players", "options", "game", NULL,
};

static const char init_help[] =
	"usage: umpire init DIR --scenario FILE [--secret-file F] [--id ID] [--chain-length N]\n"
	"                        [--beacon SOURCE]\n\n"
	"Creates a campaign in DIR (which must not exist or be empty): a git repository with\n"
	"campaign.yaml, state.yaml (the scenario's initial state) and .gitignore, committed as\n"
	"\"Setup\" and tagged turn-0000, plus the private, git-ignored .umpire/ (journal.sqlite,\n"
	"secret, lock). The secret comes from the OS random generator and is committed to by\n"
	"fairness.commitment before any order exists.\n\n"
	"  --scenario FILE      the scenario (rules, players, options, initial game state)\n"
	"  --secret-file F      use 64 hex digits from F as the secret (tests and demos only:\n"
	"                       the campaign records fair: false)\n"
	"  --id ID              campaign id (default: the scenario's `scenario`, else DIR's name)\n"
	"  --chain-length N     number of turn keys in the chain (default 4096)\n"
	"  --beacon SOURCE      mix a public randomness beacon into every turn seed; SOURCE\n"
	"                       says which (e.g. \"drand quicknet, round announced with the\n"
	"                       deadline\"); every 'umpire turn' then needs --beacon VALUE\n";

static int read_file(const char *path, size_t max, struct buf *out)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "umpire: cannot open '%s': %s\n", path, strerror(errno));
		return EXIT_NOINPUT;
	}
	char chunk[8192];
	size_t n;
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		buf_append(out, chunk, n);
		if (out->len > max) {
			fclose(f);
			fprintf(stderr, "%s:1:1: error: file is larger than %zu bytes (a smaller file expected)\n",
				path, max);
			return EXIT_DATAERR;
		}
	}
	int bad = ferror(f);
	fclose(f);
	if (bad) {
		fprintf(stderr, "umpire: cannot read '%s'\n", path);
		return EXIT_IOERR;
	}
	return EXIT_OK;
}

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

int cmd_init(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "scenario", required_argument, NULL, 's' },
		{ "secret-file", required_argument, NULL, 'k' },
		{ "id", required_argument, NULL, 'i' },
		{ "chain-length", required_argument, NULL, 'l' },
		{ "beacon", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *scenario_path = NULL, *secret_path = NULL, *id_arg = NULL, *beacon = NULL;
	long chain_length = FAIR_DEFAULT_CHAIN_LENGTH;
	int ch;

	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (ch) {
		case 's': scenario_path = optarg; break;
		case 'k': secret_path = optarg; break;
		case 'i': id_arg = optarg; break;
		case 'b': beacon = optarg; break;
		case 'l': {
			char *end;
			chain_length = strtol(optarg, &end, 10);
			if (*end || chain_length < 1 || chain_length > 1000000) {
				fprintf(stderr, "umpire init: --chain-length '%s' (an integer from 1 to 1000000 expected)\n", optarg);
				return EXIT_USAGE;
			}
			break;
		}
		case 'h': fputs(init_help, stdout); return EXIT_OK;
		default: fputs(init_help, stderr); return EXIT_USAGE;
		}
	}
	if (optind + 1 != argc || !scenario_path) {
		fputs(init_help, stderr);
		return EXIT_USAGE;
	}
	const char *dir = argv[optind];

	struct buf scen = BUF_INIT, err = BUF_INIT, campaign_yaml = BUF_INIT, state_yaml = BUF_INIT;
	struct diag d;
	struct node *root = NULL, *cy = NULL;
	struct campaign *c = xcalloc(1, sizeof(*c));
	void *state = NULL;
	struct journal *j = NULL;
	uint8_t secret[32], commitment[32];
	int rc;

	c->lock_fd = -1;
	diag_init(&d);

	rc = read_file(scenario_path, 1024 * 1024, &scen);
	if (rc != EXIT_OK)
		goto done;
	rc = EXIT_DATAERR;
	struct node_limits lim = { .max_bytes = 1024 * 1024, .max_nodes = 200000, .max_depth = 32 };
	if (node_parse(&root, scenario_path, scen.data, scen.len, &lim, &d) < 0 ||
		node_check_map(root, "scenario", scenario_keys, &d) < 0)
		goto report;

	/* Build campaign.yaml from the scenario, then read it back through the same parser
	 * every later command uses, so init cannot write a campaign it would not open. */
	const char *s = NULL;
	const struct node *sn = node_get(root, "scenario");
	if (sn && node_want_id(sn, "scenario", &s, &d) < 0)
		s = NULL;
	const char *id = id_arg ? id_arg : s ? s : base_name(dir);
	const struct node *rn = node_need(root, "rules", &d);
	const char *rules_name = NULL;
	if (rn && node_want_id(rn, "rules", &rules_name, &d) == 0 && !rules_find(rules_name))
		node_error(&d, rn, "unknown rule system '%s' (see 'umpire rules')", rules_name);
	const struct node *players = node_need(root, "players", &d);
	node_need(root, "game", &d);
	if (diag_count(&d))
		goto report;

	if (secret_path) {
		struct buf sb = BUF_INIT;
		rc = read_file(secret_path, 200, &sb);
		if (rc != EXIT_OK) {
			buf_release(&sb);
			goto done;
		}
		while (sb.len && (sb.data[sb.len - 1] == '\n' || sb.data[sb.len - 1] == '\r'))
			sb.data[--sb.len] = '\0';
		int bad = sb.len != 64 || hex_decode(secret, 32, sb.data) < 0;
		buf_release(&sb);
		if (bad) {
			fprintf(stderr, "%s:1:1: error: not a secret (64 hex digits expected)\n", secret_path);
			rc = EXIT_DATAERR;
			goto done;
		}
	} else {
		fair_random(secret, sizeof(secret));
	}
	fair_commitment(commitment, secret, (uint32_t)chain_length);

	cy = node_new_map();
	node_map_str(cy, "id", id);
	const struct node *tn = node_get(root, "title");
	if (tn && tn->kind == NODE_SCALAR)
		node_map_str(cy, "title", tn->scalar);
	node_map_str(cy, "rules", rules_name);
	node_map_add(cy, "players", node_clone(players));
	const struct node *opts_in = node_get(root, "options");
	const struct rule_system *rs = rules_find(rules_name);
	void *options = NULL;
	if (rs->options_parse(&options, opts_in, &d) < 0)
		goto report;
	node_map_add(cy, "options", rs->options_emit(options));
	rs->options_free(options);
	struct node *fair = node_map_add(cy, "fairness", node_new_map());
	char hex[65];
	hex_encode(hex, commitment, 32);
	node_map_str(fair, "commitment", hex);
	node_map_int(fair, "chain_length", chain_length);
	node_map_bool(fair, "fair", secret_path == NULL);
	node_map_str(fair, "beacon", beacon ? beacon : "none");
	buf_puts(&campaign_yaml, "# umpire campaign: written by 'umpire init'\n");
	if (node_emit(cy, &campaign_yaml) < 0) {
		fprintf(stderr, "umpire: internal error: cannot emit campaign.yaml\n");
		rc = EXIT_SOFTWARE;
		goto done;
	}
	if (campaign_parse(c, scenario_path, &campaign_yaml, &d) < 0)
		goto report;
	if (c->rules->state_parse(&state, &c->rc, node_get(root, "game"), &d) < 0)
		goto report;
	if (campaign_emit_state(c, 0, state, &state_yaml) < 0) {
		rc = EXIT_SOFTWARE;
		goto done;
	}

	/* The checks are done: create things. */
	if (!dir_usable(dir)) {
		fprintf(stderr, "umpire: '%s' exists and is not an empty directory (a new campaign directory expected)\n", dir);
		rc = EXIT_CANTCREAT;
		goto done;
	}
	char *udir = xasprintf("%s/.umpire", dir);
	char *secret_file = xasprintf("%s/secret", udir);
	char *journal_path = xasprintf("%s/journal.sqlite", udir);
	char secret_hex[66];
	hex_encode(secret_hex, secret, 32);
	secret_hex[64] = '\n';
	rc = EXIT_CANTCREAT;
	if (mkdir_p(dir, 0777) < 0 || mkdir(udir, 0700) < 0) {
		fprintf(stderr, "umpire: cannot create '%s': %s\n", udir, strerror(errno));
	} else if (write_private(secret_file, secret_hex, 65) < 0) {
		fprintf(stderr, "umpire: cannot write '%s': %s\n", secret_file, strerror(errno));
	} else if (journal_open(&j, journal_path, 1, &err) < 0) {
		fprintf(stderr, "umpire: %s\n", buf_str(&err));
	} else if (repo_init(&c->repo, dir, &err) < 0) {
		fprintf(stderr, "umpire: %s\n", buf_str(&err));
	} else {
		rc = EXIT_OK;
	}
	free(udir);
	free(secret_file);
	free(journal_path);
	if (rc != EXIT_OK)
		goto done;

	static const char gitignore[] = "# the umpire's private files: journal, secret, lock\n/.umpire/\n";
	struct journal_file files[3] = {
		{ (char *)".gitignore", (unsigned char *)gitignore, sizeof(gitignore) - 1 },
		{ (char *)"campaign.yaml", (unsigned char *)campaign_yaml.data, campaign_yaml.len },
		{ (char *)"state.yaml", (unsigned char *)state_yaml.data, state_yaml.len },
	};
	struct journal_record r;
	memset(&r, 0, sizeof(r));
	r.turn = 0;
	uint8_t h[32];
	fair_sha256(h, state_yaml.data, state_yaml.len);
	hex_encode(r.state_sha256, h, 32);
	r.summary = (char *)"Setup";
	r.processed_at = turn_now();
	r.files = files;
	r.n_files = 3;
	c->journal = j;
	j = NULL;
	rc = turn_commit_record(c, &r);
	if (rc != EXIT_OK)
		goto done;
	printf("created campaign '%s' (%s) in %s\n", c->id, c->rules->name, dir);
	printf("commitment %s (chain of %ld turn keys)%s\n", hex, chain_length,
		secret_path ? "\nwarning: the secret came from a file: this campaign is marked fair: false" : "");
	rc = EXIT_OK;
	goto done;
report:
	diag_print(&d, stderr);
	rc = EXIT_DATAERR;
done:
	if (state)
		c->rules->state_free(state);
	campaign_close(c);
	if (j)
		journal_close(j);
	node_free(root);
	node_free(cy);
	diag_release(&d);
	buf_release(&scen);
	buf_release(&err);
	buf_release(&campaign_yaml);
	buf_release(&state_yaml);
	return rc;
}
