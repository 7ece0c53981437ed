/* check_pipeline.c — the turn pipeline's table and slices, the layout module, the error
 * convention and the rule-system registry: each step in rulebook order, a real campaign
 * driven through the slices `check` and `turn` run, limits at their exact edges from both
 * sides, and a re-run of a processed turn. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "core/campaign.h"
#include "core/error.h"
#include "core/layout.h"
#include "core/node.h"
#include "core/clock.h"
#include "core/turn.h"
#include "rules/rules.h"
#include "testutil.h"

static const char *const want_steps[] = {
	"recover",
	"load",
	"closed",
	"orders",
	"close",
	"randomness",
	"seed",
	"rulings",
	"resolve",
	"render",
	"reread",
	"seal",
	"build",
	"journal",
	"publish",
	NULL,
};

START_TEST(test_steps_in_rulebook_order)
{
	const struct turn_step *s = turn_steps();
	size_t i;

	for (i = 0; want_steps[i]; i++) {
		ck_assert_ptr_nonnull(s[i].name);
		ck_assert_str_eq(s[i].name, want_steps[i]);
		ck_assert_ptr_nonnull(s[i].does);
		ck_assert_ptr_nonnull(s[i].run);
	}
	ck_assert_ptr_null(s[i].name);
}
END_TEST

START_TEST(test_unknown_slice_is_a_bug)
{
	struct turn t;

	memset(&t, 0, sizeof(t));
	ck_assert_int_eq(turn_run(&t, "publish", "recover"), -1);
	ck_assert_int_eq(error_last()->klass, ERROR_INTERNAL);
	ck_assert_int_eq(turn_run(&t, "load", "resolve-all"), -1);
	ck_assert_ptr_nonnull(strstr(error_last()->message, "no pipeline slice"));
}
END_TEST

START_TEST(test_error_convention)
{
	error_clear();
	ck_assert_int_eq(error_last()->klass, ERROR_NONE);
	ck_assert_str_eq(error_last()->message, "");
	ck_assert_int_eq(error_set(ERROR_OS, "cannot write '%s'", "x"), -1);
	ck_assert_int_eq(error_prefix("turn %d", 3), -1);
	ck_assert_int_eq(error_last()->klass, ERROR_OS); /* the lower error's class is kept */
	ck_assert_str_eq(error_last()->message, "turn 3: cannot write 'x'");
	/* Re-classing a failure with its own message keeps the message. */
	error_set(ERROR_MISSING, "%s", error_last()->message);
	ck_assert_str_eq(error_last()->message, "turn 3: cannot write 'x'");
	ck_assert_int_eq(error_last()->klass, ERROR_MISSING);
	ck_assert_int_eq(error_reclass(ERROR_CREATE), -1);
	ck_assert_str_eq(error_last()->message, "turn 3: cannot write 'x'");
	ck_assert_int_eq(error_last()->klass, ERROR_CREATE);
	error_clear();
	ck_assert_int_eq(error_prefix("alone"), -1);
	ck_assert_int_eq(error_last()->klass, ERROR_INTERNAL);
}
END_TEST

START_TEST(test_layout)
{
	char tag[LAYOUT_TAG_MAX], path[LAYOUT_PATH_MAX];
	int t = -1;

	layout_tag(tag, 3);
	ck_assert_str_eq(tag, "turn-0003");
	layout_tag(tag, TURN_MAX);
	ck_assert_str_eq(tag, "turn-999999");
	ck_assert_int_eq(layout_parse_tag("turn-0003", &t), 0);
	ck_assert_int_eq(t, 3);
	ck_assert_int_eq(layout_parse_tag("turn-999999", &t), 0);
	ck_assert_int_eq(t, TURN_MAX);
	/* Only the canonical spelling names a turn. */
	ck_assert_int_eq(layout_parse_tag("turn-3", &t), -1);
	ck_assert_int_eq(layout_parse_tag("turn-00003", &t), -1);
	ck_assert_int_eq(layout_parse_tag("turn-1000000", &t), -1);
	ck_assert_int_eq(layout_parse_tag("turn--001", &t), -1);
	ck_assert_int_eq(layout_parse_tag("turn-", &t), -1);
	ck_assert_int_eq(layout_parse_tag("close-0003", &t), -1);
	layout_entry_path(path, 0);
	ck_assert_str_eq(path, "campaign.yaml");
	layout_entry_path(path, 12);
	ck_assert_str_eq(path, "journal/turn-0012.yaml");
	layout_order_path(path, 2, "attacker");
	ck_assert_str_eq(path, "orders/turn-0002/attacker.yaml");
	layout_report_path(path, 2, "defender");
	ck_assert_str_eq(path, "reports/turn-0002/defender.md");
	char *p = layout_order_player("umpire.yaml");
	ck_assert_str_eq(p, "umpire");
	free(p);
	ck_assert_ptr_null(layout_order_player(".yaml"));
	ck_assert_ptr_null(layout_order_player("notes.txt"));

	/* Three players, two senders: state, export, 2 orders, 3 reports, by path. */
	static const char *const senders[] = { "umpire", "red" };
	static const char *const players[] = { "red", "green", "blue" };
	struct layout_entry *v = NULL;
	size_t n = layout_turn_files(&v, 7, senders, 2, players, 3, 0);
	static const char *const want[] = {
		"journal/turn-0007.yaml",
		"orders/turn-0007/red.yaml",
		"orders/turn-0007/umpire.yaml",
		"reports/turn-0007/blue.md",
		"reports/turn-0007/green.md",
		"reports/turn-0007/red.md",
		"state.yaml",
	};
	ck_assert_uint_eq(n, 7);
	for (size_t i = 0; i < n; i++)
		ck_assert_str_eq(v[i].path, want[i]);
	ck_assert_int_eq(v[1].kind, LAYOUT_KIND_ORDERS);
	ck_assert_str_eq(v[1].player, "red");
	free(v);

	/* With maps: each report has its map beside it; sealed, the public report its own. */
	n = layout_turn_files(&v, 7, senders, 2, players, 3, 1);
	ck_assert_uint_eq(n, 10);
	ck_assert_str_eq(v[3].path, "reports/turn-0007/blue.md");
	ck_assert_str_eq(v[4].path, "reports/turn-0007/blue.svg");
	ck_assert_int_eq(v[4].kind, LAYOUT_KIND_MAP);
	ck_assert_str_eq(v[4].player, "blue");
	free(v);
	/* Shared (docs/formats.md "Shared reports"): the shared report and map once, and a
	 * player's own map only when he has one. */
	static const unsigned char own[] = { 0, 1, 0 };
	struct layout_reports rep = { 1, 1, own };
	n = layout_open_turn_files(&v, 7, senders, 2, players, 3, &rep);
	static const char *const want_shared[] = {
		"journal/turn-0007.yaml",
		"orders/turn-0007/red.yaml",
		"orders/turn-0007/umpire.yaml",
		"reports/turn-0007.md",
		"reports/turn-0007.svg",
		"reports/turn-0007/blue.md",
		"reports/turn-0007/green.md",
		"reports/turn-0007/green.svg",
		"reports/turn-0007/red.md",
		"state.yaml",
	};
	ck_assert_uint_eq(n, 10);
	for (size_t i = 0; i < n; i++)
		ck_assert_str_eq(v[i].path, want_shared[i]);
	ck_assert_int_eq(v[3].kind, LAYOUT_KIND_PUBLIC_REPORT);
	ck_assert_int_eq(v[4].kind, LAYOUT_KIND_PUBLIC_MAP);
	ck_assert_int_eq(v[7].kind, LAYOUT_KIND_MAP);
	free(v);
	n = layout_sealed_turn_files(&v, 7, 1);
	ck_assert_uint_eq(n, 4);
	ck_assert_str_eq(v[2].path, "reports/turn-0007.svg");
	ck_assert_int_eq(v[2].kind, LAYOUT_KIND_PUBLIC_MAP);
	free(v);
	char link[LAYOUT_PATH_MAX];
	layout_map_link(link, 7, "red", 0);
	ck_assert_str_eq(link, "red.svg");
	layout_map_link(link, 7, "red", 1);
	ck_assert_str_eq(link, "map.svg");
	layout_map_link(link, 7, NULL, 1);
	ck_assert_str_eq(link, "turn-0007.svg");

	struct buf msg = BUF_INIT;
	uint8_t head[32], commitment[32];
	memset(head, 0xab, 32);
	memset(commitment, 0x01, 32);
	layout_commit_message(&msg, 4, "two fights", head, commitment);
	ck_assert_int_eq(strncmp(buf_str(&msg), "Turn 4: two fights\n\nTurn: 4\n", 28), 0);
	char *jh = layout_trailer(buf_str(&msg), "Journal-Head");
	ck_assert_str_eq(jh, "abababababababababababababababababababababababababababababababab");
	free(jh);
	ck_assert_ptr_null(layout_trailer(buf_str(&msg), "Signed-off-by"));
	buf_release(&msg);
}
END_TEST

START_TEST(test_registry)
{
	size_t n = 0;

	for (size_t i = 0; rules_registry[i]; i++, n++) {
		const struct rule_system *rs = rules_registry[i];
		ck_assert_int_eq(rs->version, RULES_INTERFACE_VERSION);
		ck_assert_int_ge(rs->revision, 1);
		ck_assert_uint_ge(rs->min_players, 1);
		ck_assert_uint_le(rs->min_players, rs->max_players);
		ck_assert_uint_le(rs->max_players, CAMPAIGN_MAX_PLAYERS);
		ck_assert_ptr_eq(rules_find(rs->name), rs);
		ck_assert(rs->options_parse && rs->options_emit && rs->options_free);
		ck_assert(rs->state_parse && rs->state_emit && rs->state_free);
		ck_assert(rs->player_due && rs->orders_parse && rs->orders_free && rs->resolve);
		/* A rule system that hides state must say what each player sees. */
		ck_assert(!(rs->flags & RULES_PRIVATE) || rs->state_view);
		ck_assert(!((rs->flags & RULES_ALTERNATE) && (rs->flags & RULES_SIMULTANEOUS)));
	}
	ck_assert_uint_ge(n, 2);
	ck_assert_ptr_null(rules_find("chess"));
}
END_TEST

START_TEST(test_source_date_epoch)
{
	setenv("SOURCE_DATE_EPOCH", "0", 1);
	ck_assert_int_eq(clock_now(), 0); /* 0 is a time, not "unset" */
	setenv("SOURCE_DATE_EPOCH", "1767225600", 1);
	ck_assert_int_eq(clock_now(), 1767225600);
	setenv("SOURCE_DATE_EPOCH", "-1", 1);
	ck_assert_int_gt(clock_now(), 1700000000); /* not a time: the clock */
	setenv("SOURCE_DATE_EPOCH", "12x", 1);
	ck_assert_int_gt(clock_now(), 1700000000);
	unsetenv("SOURCE_DATE_EPOCH");
}
END_TEST

/* --- per-player views ------------------------------------------------------------------ */

/* A rule system whose whole state is {secret: 42, public: 1} and whose view hides the secret
 * from everyone but the player "red". */
static struct node *view_emit(const struct rules_campaign *c, const void *state)
{
	struct node *m = node_new_map();
	(void)c;
	(void)state;
	node_map_int(m, "public", 1);
	node_map_int(m, "secret", 42);
	return m;
}

static struct node *view_of(const struct rules_campaign *c, const void *state, const char *player)
{
	struct node *m = node_new_map();
	(void)c;
	(void)state;
	node_map_int(m, "public", 1);
	if (player && strcmp(player, "red") == 0)
		node_map_int(m, "secret", 42);
	return m;
}

START_TEST(test_state_view)
{
	struct rule_system rs = { .name = "view-test", .state_emit = view_emit };
	struct campaign c = { .id = "v", .rules = &rs };
	struct buf b = BUF_INIT;

	/* No view hook: everyone, the public included, sees the whole state. */
	ck_assert_int_eq(campaign_emit_state(&c, 3, NULL, NULL, &b), 0);
	ck_assert_ptr_nonnull(strstr(buf_str(&b), "secret: 42"));
	rs.state_view = view_of;
	rs.flags = RULES_PRIVATE;
	buf_clear(&b);
	ck_assert_int_eq(campaign_emit_state(&c, 3, NULL, NULL, &b), 0);
	ck_assert_ptr_null(strstr(buf_str(&b), "secret"));
	ck_assert_ptr_nonnull(strstr(buf_str(&b), "public: 1"));
	buf_clear(&b);
	ck_assert_int_eq(campaign_emit_state(&c, 3, NULL, "blue", &b), 0);
	ck_assert_ptr_null(strstr(buf_str(&b), "secret"));
	buf_clear(&b);
	ck_assert_int_eq(campaign_emit_state(&c, 3, NULL, "red", &b), 0);
	ck_assert_ptr_nonnull(strstr(buf_str(&b), "secret: 42"));
	buf_release(&b);
}
END_TEST

/* --- a real campaign through the slices ------------------------------------------------ */

static char *root_dir;

static void setup_root(void)
{
	root_dir = xstrdup(test_root_make("pipeline"));
}

static void teardown_root(void)
{
	test_root_remove();
	free(root_dir);
}

static char *read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	struct buf b = BUF_INIT;
	char chunk[4096];
	size_t n;

	ck_assert_ptr_nonnull(f);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_append(&b, chunk, n);
	fclose(f);
	*len = b.len;
	return buf_detach(&b);
}

static void write_all(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, len, f), len);
	fclose(f);
}

/* The shipped Land Raid campaign, created from its demo secret under the test root, open or
 * sealed (enum campaign_visibility), its randomness after the close `entropy`. */
static struct campaign *make_campaign_entropy(const char *name, int visibility, int entropy)
{
	struct campaign_spec spec;
	struct campaign *c = NULL;
	struct diag d;
	size_t len;
	char *scen = read_all("campaigns/harbour-raid/scenario.yaml", &len);

	memset(&spec, 0, sizeof(spec));
	spec.dir = test_path(name);
	spec.scenario_name = "scenario.yaml";
	spec.scenario = scen;
	spec.scenario_len = len;
	spec.chain_length = 16;
	spec.when = 1767225600;
	spec.fair = 0;
	spec.visibility = visibility;
	spec.entropy = entropy;
	memset(spec.secret, 7, sizeof(spec.secret));
	diag_init(&d);
	ck_assert_msg(campaign_create(&c, &spec, &d) == 0, "%s", error_last()->message);
	diag_release(&d);
	free(scen);
	free((char *)spec.dir);
	return c;
}

static struct campaign *make_campaign_as(const char *name, int visibility)
{
	return make_campaign_entropy(name, visibility, CAMPAIGN_ENTROPY_NONE);
}

static struct campaign *make_campaign(const char *name)
{
	return make_campaign_as(name, CAMPAIGN_OPEN);
}

static const char *attacker1 = "campaigns/harbour-raid/orders/turn-0001/attacker.yaml";

START_TEST(test_check_slice_writes_nothing)
{
	struct campaign *c = make_campaign("check");
	struct turn t;
	long long rows_before, rows_after;

	ck_assert_int_eq(journal_row_count(c->journal, &rows_before), 0);
	turn_init(&t, c, TURN_LIVE, TURN_CHECK_ONLY, NULL, NULL, NULL);
	ck_assert_int_eq(turn_add_order_file(&t, attacker1), 0);
	ck_assert_msg(turn_run(&t, "load", "orders") == 0, "%s", error_last()->message);
	ck_assert_int_eq(t.in.turn, 1);
	ck_assert_uint_eq(t.in.n_files, 1);
	ck_assert_str_eq(t.in.files[0].player, "attacker");
	ck_assert_uint_eq(t.out.dice.n, 0); /* no step past orders ran */
	turn_release(&t);
	ck_assert_int_eq(journal_row_count(c->journal, &rows_after), 0);
	ck_assert_int_eq(rows_after, rows_before);
	campaign_close(c);
}
END_TEST

START_TEST(test_turn_then_rerun)
{
	struct campaign *c = make_campaign("turn");
	struct turn t;
	char *ump = test_path("umpire.yaml");
	static const char rulings[] = "campaign: harbour-raid\nturn: 1\nplayer: umpire\n"
				      "orders:\n  - roll: 2d6\n    for: weather\n";

	write_all(ump, rulings, sizeof(rulings) - 1);
	turn_init(&t, c, TURN_LIVE, 0, NULL, NULL, NULL);
	t.when = 1767225600;
	turn_add_order_file(&t, attacker1);
	turn_add_rulings_file(&t, ump);
	ck_assert_msg(turn_run(&t, "recover", "publish") == 0, "%s", error_last()->message);
	ck_assert_int_eq(t.in.turn, 1);
	ck_assert_uint_eq(t.out.rules_first_die, 2); /* the ruling's 2d6 come first */
	ck_assert_str_eq(t.out.events.v[0].phase, "umpire");
	ck_assert_int_eq(t.status, 0);
	turn_release(&t);
	ck_assert_int_eq(repo_has(c->repo, "turn-0001"), 1);

	/* The same files again: nothing to do, said so. */
	turn_init(&t, c, TURN_LIVE, 0, NULL, NULL, NULL);
	turn_add_rulings_file(&t, ump);
	turn_add_order_file(&t, attacker1);
	ck_assert_int_eq(turn_run(&t, "recover", "publish"), 1);
	ck_assert_int_eq(t.status & TURN_ALREADY_DONE, TURN_ALREADY_DONE);
	turn_release(&t);

	/* Fewer files than the journaled turn is not "already processed": it is a turn 2
	 * attempt with turn 1's orders, refused with nothing written. */
	long long before, after;
	ck_assert_int_eq(journal_row_count(c->journal, &before), 0);
	turn_init(&t, c, TURN_LIVE, 0, NULL, NULL, NULL);
	turn_add_order_file(&t, attacker1);
	ck_assert_int_eq(turn_run(&t, "recover", "publish"), -1);
	ck_assert_int_eq(t.status & TURN_ALREADY_DONE, 0);
	ck_assert_str_eq(t.failed_step, "orders");
	ck_assert_uint_gt(diag_count(&t.diag), 0);
	turn_release(&t);
	ck_assert_int_eq(journal_row_count(c->journal, &after), 0);
	ck_assert_int_eq(after, before);
	free(ump);
	campaign_close(c);
}
END_TEST

/* Writes a Land Raid file for turn 1 into the test root: `head` (a player's file, or
 * NULL: attacker1) and the entropy: line of nonce (32 bytes of `fill`). A new path. */
static char *entropy_file(const char *name, const char *head, int fill)
{
	uint8_t nonce[FAIR_HASH_BYTES], h[FAIR_HASH_BYTES];
	char hex[2 * FAIR_HASH_BYTES + 1], *path = test_path(name);
	size_t len = 0;
	char *orders = head ? NULL : read_all(attacker1, &len);

	memset(nonce, fill, sizeof nonce);
	fair_sha256(h, nonce, sizeof nonce);
	hex_encode(hex, h, FAIR_HASH_BYTES);
	char *text = xasprintf("%s%sentropy: %s\n", head ? head : "", orders ? orders : "", hex);
	write_all(path, text, strlen(text));
	free(text);
	free(orders);
	return path;
}

/* Entropy players, one side due per turn (docs/fairness.md, "Contributions"): the defender,
 * not due on turn 1, sends his entropy: alone. check takes it as a contribution (not under
 * entropy none); the close fixes it beside the attacker's orders; the turn takes both nonces
 * and never hands the rule system a defender without orders ("no orders from defender"). */
START_TEST(test_contribution_of_a_player_not_due)
{
	static const char head[] = "campaign: harbour-raid\nturn: 1\nplayer: defender\n";
	struct campaign *c = make_campaign_entropy("contrib", CAMPAIGN_OPEN,
		CAMPAIGN_ENTROPY_PLAYERS);
	char *att = entropy_file("attacker.yaml", NULL, 1),
	     *def = entropy_file("defender.yaml", head, 2);
	struct turn t;

	turn_init(&t, c, TURN_LIVE, TURN_CHECK_ONLY, NULL, NULL, NULL);
	turn_add_order_file(&t, def);
	ck_assert_msg(turn_run(&t, "load", "orders") == 0, "%s", error_last()->message);
	ck_assert_int_eq(t.in.files[0].contribution, 1);
	ck_assert_int_eq(t.in.files[0].has_entropy, 1);
	turn_release(&t);

	turn_init(&t, c, TURN_LIVE, TURN_CLOSING, NULL, NULL, NULL);
	t.when = 1767225600;
	turn_add_order_file(&t, att);
	turn_add_order_file(&t, def);
	ck_assert_msg(turn_run(&t, "recover", "close") == 0, "%s", error_last()->message);
	ck_assert_uint_eq(t.close.n_orders, 2);
	ck_assert_uint_eq(t.close.n_missing, 0);
	ck_assert_int_eq(close_find(&t.close, "defender")->has_entropy, 1);
	turn_release(&t);

	uint8_t n1[FAIR_HASH_BYTES], n2[FAIR_HASH_BYTES];
	memset(n1, 1, sizeof n1);
	memset(n2, 2, sizeof n2);
	ck_assert_int_eq(turn_keep_reveal(c, 1, "attacker", n1), 0);
	ck_assert_int_eq(turn_keep_reveal(c, 1, "defender", n2), 0);
	turn_init(&t, c, TURN_LIVE, 0, NULL, NULL, NULL);
	t.when = 1767226200;
	ck_assert_msg(turn_run(&t, "recover", "publish") == 0, "%s", error_last()->message);
	ck_assert_ptr_nonnull(strstr(t.in.beacon_value, "defender nonce 0202"));
	for (size_t i = 0; i < t.out.events.n; i++)
		ck_assert_ptr_null(strstr(t.out.events.v[i].text, "from defender"));
	turn_release(&t);
	campaign_close(c);

	/* Under entropy none the same file is a player who is not due. */
	c = make_campaign("contrib-none");
	free(def);
	def = test_path("plain.yaml");
	write_all(def, head, sizeof head - 1);
	turn_init(&t, c, TURN_LIVE, TURN_CHECK_ONLY, NULL, NULL, NULL);
	turn_add_order_file(&t, def);
	ck_assert_int_eq(turn_run(&t, "load", "orders"), -1);
	struct buf why = BUF_INIT;
	diag_format(&t.diag, &why, DIAG_BRIEF);
	ck_assert_ptr_nonnull(strstr(buf_str(&why), "player 'defender' is not due on turn 1"));
	buf_release(&why);
	turn_release(&t);
	campaign_close(c);
	free(att);
	free(def);
}
END_TEST

/* A turn with no order file at all (--allow-missing): nothing to sort, and under UBSan a
 * qsort(NULL, 0, ...) would abort; then the same turn re-run from its record. */
START_TEST(test_turn_without_files)
{
	struct campaign *c = make_campaign("nofiles");
	struct turn t;

	turn_init(&t, c, TURN_LIVE, TURN_ALLOW_MISSING, NULL, NULL, NULL);
	t.when = 1767225600;
	ck_assert_msg(turn_run(&t, "recover", "publish") == 0, "%s", error_last()->message);
	ck_assert_uint_eq(t.in.n_files, 0);
	ck_assert_uint_gt(t.in.n_missing, 0);
	turn_release(&t);
	ck_assert_int_eq(repo_has(c->repo, "turn-0001"), 1);
	campaign_close(c);
}
END_TEST

/* A FIFO is refused without blocking (no writer ever opens this one), a directory too. */
START_TEST(test_order_file_not_regular)
{
	struct campaign *c = make_campaign("fifo");
	char *fifo = test_path("fifo.yaml");
	struct turn t;

	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	turn_init(&t, c, TURN_LIVE, TURN_CHECK_ONLY, NULL, NULL, NULL);
	ck_assert_int_eq(turn_add_order_file(&t, fifo), -1);
	ck_assert_int_eq(turn_add_order_file(&t, c->dir), -1);
	ck_assert_uint_eq(diag_count(&t.diag), 2);
	ck_assert_str_eq(t.diag.v[0].message,
		"order file is not a regular file (it is a FIFO; a regular file expected)");
	ck_assert_str_eq(t.diag.v[1].message,
		"order file is not a regular file (it is a directory; a regular file expected)");
	turn_release(&t);
	free(fifo);
	campaign_close(c);
}
END_TEST

/* An object libgit2 reported written but that is not on disk (out of inodes, say; here the
 * commit's loose object removed): the journal step refuses to name the commit, and nothing
 * is journaled. */
START_TEST(test_missing_object_not_journaled)
{
	struct campaign *c = make_campaign("odb");
	struct turn t;
	long long before, after;
	char *obj;

	turn_init(&t, c, TURN_LIVE, TURN_ALLOW_MISSING, NULL, NULL, NULL);
	t.when = 1767225600;
	turn_add_order_file(&t, attacker1);
	ck_assert_msg(turn_run(&t, "recover", "build") == 0, "%s", error_last()->message);
	struct buf out = BUF_INIT;
	obj = test_path("odb/.git/objects");
	ck_assert_int_eq(test_run(&out, "cd '%s' && rm '%.2s/%s' && echo gone", obj,
				 t.rec.commit_id, t.rec.commit_id + 2),
		0);
	ck_assert_str_eq(buf_str(&out), "gone\n");
	buf_release(&out);
	ck_assert_int_eq(journal_row_count(c->journal, &before), 0);
	ck_assert_int_eq(turn_run(&t, "journal", "publish"), -1);
	ck_assert_ptr_nonnull(strstr(error_last()->message, "was not written: commit"));
	ck_assert_int_eq(journal_row_count(c->journal, &after), 0);
	ck_assert_int_eq(after, before);
	turn_release(&t);
	free(obj);
	campaign_close(c);
}
END_TEST

START_TEST(test_order_file_size_edge)
{
	struct campaign *c = make_campaign("size");
	size_t len;
	char *orders = read_all(attacker1, &len);
	char *at = test_path("at-limit.yaml"), *over = test_path("over-limit.yaml");
	struct turn t;

	/* Padded with a comment to exactly the limit, then one byte more. */
	ck_assert_uint_lt(len + 3, ORDER_FILE_MAX_BYTES);
	struct buf b = BUF_INIT;
	buf_append(&b, orders, len);
	buf_puts(&b, "#");
	while (b.len < ORDER_FILE_MAX_BYTES - 1)
		buf_puts(&b, "x");
	buf_puts(&b, "\n");
	ck_assert_uint_eq(b.len, ORDER_FILE_MAX_BYTES);
	write_all(at, b.data, b.len);
	buf_puts(&b, "\n");
	write_all(over, b.data, b.len);

	turn_init(&t, c, TURN_LIVE, TURN_CHECK_ONLY, NULL, NULL, NULL);
	ck_assert_int_eq(turn_add_order_file(&t, at), 0);
	ck_assert_msg(turn_run(&t, "load", "orders") == 0, "%s", error_last()->message);
	turn_release(&t);

	turn_init(&t, c, TURN_LIVE, TURN_CHECK_ONLY, NULL, NULL, NULL);
	ck_assert_int_eq(turn_add_order_file(&t, over), -1);
	ck_assert_uint_eq(diag_count(&t.diag), 1);
	char want[64];
	snprintf(want, sizeof want, "larger than %d bytes", ORDER_FILE_MAX_BYTES);
	ck_assert_ptr_nonnull(strstr(t.diag.v[0].message, want));
	turn_release(&t);

	buf_release(&b);
	free(orders);
	free(at);
	free(over);
	campaign_close(c);
}
END_TEST

/* --- reread: a rule system's bug caught before anything is written (issue 26) ------------ */

/* Land Raid with one bug put in: its state_emit writes a key its state_parse refuses
 * (BUG_EMIT), or its orders_parse refuses the next turn's orders, the standing orders the
 * state carries among them (BUG_NEXT_ORDERS). */
enum { BUG_EMIT = 1, BUG_NEXT_ORDERS = 2 };
static const struct rule_system *real_rules;
static struct rule_system buggy_rules;

static struct node *emit_extra_key(const struct rules_campaign *c, const void *state)
{
	struct node *g = real_rules->state_emit(c, state);
	node_map_add(g, "bogus-key", node_new_int(1));
	return g;
}

static int refuse_turn_2(void **out, const struct rules_campaign *c, const void *state, int turn,
	const char *player, const struct node *orders, const struct node *standing, struct diag *d)
{
	if (turn == 2) {
		*out = NULL;
		diag_add(d, "standing", 1, 1, "standing order names base 'gone'");
		return -1;
	}
	return real_rules->orders_parse(out, c, state, turn, player, orders, standing, d);
}

static int exists(struct campaign *c, const char *rel)
{
	struct stat st;
	char *p = xasprintf("%s/%s", c->dir, rel);
	int rc = lstat(p, &st) == 0;
	free(p);
	return rc;
}

/* Turn 1 with the bug: refused with exit 70's class at the reread step, the rule system and
 * the parser's words named (at their place in the state's bytes), and nothing written (no journal row, commit, tag, state.yaml
 * change, sealed or outbox file); then without it the same turn plays. */
static void refused_then_played(const char *name, int visibility, int bug, const char *says)
{
	struct campaign *c = make_campaign_as(name, visibility);
	struct turn t;
	long long before, after;
	size_t len0, len1;
	char *path = xasprintf("%s/state.yaml", c->dir);
	char *state0 = read_all(path, &len0);

	real_rules = c->rules;
	buggy_rules = *c->rules;
	if (bug == BUG_EMIT)
		buggy_rules.state_emit = emit_extra_key;
	else
		buggy_rules.orders_parse = refuse_turn_2;
	ck_assert_int_eq(journal_row_count(c->journal, &before), 0);
	turn_init(&t, c, TURN_LIVE, 0, NULL, NULL, NULL);
	t.when = 1767225600;
	ck_assert_int_eq(turn_add_order_file(&t, attacker1), 0);
	/* The bug armed after the rulings: their copy of the state for the map (render.c's
	 * render_keep_before) goes through state_emit too, and would refuse it there first. */
	ck_assert_int_eq(turn_run(&t, "recover", "rulings"), 0);
	c->rules = &buggy_rules;
	ck_assert_int_eq(turn_run(&t, "resolve", "publish"), -1);
	ck_assert_int_eq(error_last()->klass, ERROR_INTERNAL);
	ck_assert_str_eq(t.failed_step, "reread");
	ck_assert_msg(strstr(error_last()->message, "rule system 'land-raid'") &&
			      strstr(error_last()->message, "nothing written") &&
			      strstr(error_last()->message, says),
		"%s", error_last()->message);
	/* A refused state is told at its line in the bytes, shown (the reread parses them again
	 * when the tree it read the state from refuses it). */
	ck_assert_msg(bug != BUG_EMIT || strstr(error_last()->message, "|   bogus-key: 1\n"), "%s",
		error_last()->message);
	turn_release(&t);
	ck_assert_int_eq(journal_row_count(c->journal, &after), 0);
	ck_assert_int_eq(after, before);
	ck_assert_int_eq(repo_has(c->repo, "turn-0001"), 0);
	ck_assert_int_eq(exists(c, ".umpire/sealed/turn-0001"), 0);
	/* the outbox may hold the setup's briefings, never this turn's files */
	ck_assert_int_eq(exists(c, ".umpire/outbox/attacker/turn-0001"), 0);
	ck_assert_int_eq(exists(c, ".umpire/outbox/defender/turn-0001"), 0);
	ck_assert_int_eq(exists(c, ".umpire/outbox/new"), 0);
	ck_assert_int_eq(exists(c, "journal/turn-0001.yaml"), 0);
	char *state1 = read_all(path, &len1);
	ck_assert_uint_eq(len1, len0);
	ck_assert_mem_eq(state1, state0, len0);
	free(state1);

	c->rules = real_rules;
	turn_init(&t, c, TURN_LIVE, 0, NULL, NULL, NULL);
	t.when = 1767225600;
	ck_assert_int_eq(turn_add_order_file(&t, attacker1), 0);
	ck_assert_msg(turn_run(&t, "recover", "publish") == 0, "%s", error_last()->message);
	turn_release(&t);
	ck_assert_int_eq(repo_has(c->repo, "turn-0001"), 1);
	free(state0);
	free(path);
	campaign_close(c);
}

START_TEST(test_reread_state_emit_bug)
{
	refused_then_played("reread-open", CAMPAIGN_OPEN, BUG_EMIT, "bogus-key");
}
END_TEST

/* Sealed: state.yaml is the public view (state_view, sound); the whole state the umpire
 * keeps has the bug, and it is what the next turn loads. */
START_TEST(test_reread_sealed_whole_state_bug)
{
	refused_then_played("reread-sealed", CAMPAIGN_SEALED, BUG_EMIT, "bogus-key");
}
END_TEST

START_TEST(test_reread_next_orders_bug)
{
	refused_then_played("reread-orders", CAMPAIGN_OPEN, BUG_NEXT_ORDERS,
		"standing order names base 'gone'");
}
END_TEST

static Suite *pipeline_suite(void)
{
	Suite *s = suite_create("pipeline");
	TCase *tc = tcase_create("table");
	tcase_add_test(tc, test_steps_in_rulebook_order);
	tcase_add_test(tc, test_unknown_slice_is_a_bug);
	tcase_add_test(tc, test_error_convention);
	tcase_add_test(tc, test_layout);
	tcase_add_test(tc, test_registry);
	tcase_add_test(tc, test_source_date_epoch);
	tcase_add_test(tc, test_state_view);
	suite_add_tcase(s, tc);
	tc = tcase_create("campaign");
	tcase_add_unchecked_fixture(tc, setup_root, teardown_root);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_check_slice_writes_nothing);
	tcase_add_test(tc, test_turn_then_rerun);
	tcase_add_test(tc, test_order_file_size_edge);
	tcase_add_test(tc, test_turn_without_files);
	tcase_add_test(tc, test_contribution_of_a_player_not_due);
	tcase_add_test(tc, test_missing_object_not_journaled);
	tcase_add_test(tc, test_order_file_not_regular);
	tcase_add_test(tc, test_reread_state_emit_bug);
	tcase_add_test(tc, test_reread_sealed_whole_state_bug);
	tcase_add_test(tc, test_reread_next_orders_bug);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(pipeline_suite)
