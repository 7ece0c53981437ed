/* rules.c — `umpire rules`: list the rule systems, or describe one: its order types,
 * standing orders and options with their defaults. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "core/campaign.h"
#include "core/escape.h"
#include "core/file.h"
#include "core/banned.h"

static const char rules_help[] =
	"usage: umpire rules [NAME]\n\n"
	"Without NAME, lists the rule systems. With NAME, describes its order types, standing\n"
	"orders and campaign options, and prints the default options as campaign.yaml holds them.\n";

/* Where docs/rules/NAME.md is on this machine, found from the running binary: installed
 * (PREFIX/bin/umpire, PREFIX/share/doc/umpire/rules/NAME.md) or in its source tree
 * (build/VARIANT/umpire, docs/rules/NAME.md); NULL when neither is there. Caller frees. */
static char *rules_doc(const char *name)
{
	char *rel[2] = { xasprintf("../share/doc/umpire/rules/%s.md", name),
		xasprintf("../../docs/rules/%s.md", name) };
	char *doc = file_beside_binary((const char *const *)rel, 2, FILE_KIND_FILE, NULL);

	free(rel[0]);
	free(rel[1]);
	return doc;
}

/* The rule system's help with its docs/rules/NAME.md reference made the path on this machine. */
static void print_help(const struct rule_system *rs)
{
	char ref[128];
	char *doc = rules_doc(rs->name);
	const char *at;

	snprintf(ref, sizeof(ref), "docs/rules/%s.md", rs->name);
	if (!doc || !(at = strstr(rs->help, ref))) {
		printf("\n\n%s\n", rs->help);
		if (doc)
			printf("(readings: %s)\n", doc);
		free(doc);
		return;
	}
	printf("\n\n%.*s%s%s\n", (int)(at - rs->help), rs->help, doc, at + strlen(ref));
	free(doc);
}

int cmd_rules(int argc, char **argv)
{
	int rc = cmd_options_help_only(argc, argv, rules_help);
	if (rc != EXIT_OK)
		return rc < 0 ? EXIT_OK : rc;
	static const char *const operands[] = { "NAME (a rule system)" };
	if (cmd_operands("rules", argc - optind, argv + optind, operands, 0, 1) != EXIT_OK)
		return EXIT_USAGE;
	if (argc - optind == 0) {
		for (size_t i = 0; rules_registry[i]; i++)
			printf("%-12s %s\n", rules_registry[i]->name, rules_registry[i]->title);
		return EXIT_OK;
	}
	const struct rule_system *rs = rules_find(argv[optind]);
	if (!rs) {
		struct buf name = BUF_INIT, hint = BUF_INIT;
		escape_terminal(&name, argv[optind]);
		rules_suggest(&hint, buf_str(&name));
		fprintf(stderr, "umpire: unknown rule system '%s'%s\n", buf_str(&name),
			buf_str(&hint));
		buf_release(&name);
		buf_release(&hint);
		return EXIT_NOINPUT;
	}
	static const char *const flag_names[] = { "alternate turns", "simultaneous turns", "grid",
		"measured tabletop", "private state" };
	printf("%s: %s\nrevision %d; %zu to %zu players", rs->name, rs->title, rs->revision,
		rs->min_players, rs->max_players);
	for (size_t i = 0; i < sizeof(flag_names) / sizeof(flag_names[0]); i++)
		if (rs->flags & (1u << i))
			printf("; %s", flag_names[i]);
	print_help(rs);
	void *options = NULL;
	struct diag d;
	diag_init(&d);
	if (rs->options_parse(&options, NULL, &d) == 0) {
		struct buf b = BUF_INIT;
		struct node *n = node_new_map();
		node_map_add(n, "options", rs->options_emit(options));
		node_emit(n, &b);
		printf("\ndefault options (campaign.yaml):\n\n%s", buf_str(&b));
		node_free(n);
		buf_release(&b);
		rs->options_free(options);
	}
	diag_release(&d);
	return EXIT_OK;
}
