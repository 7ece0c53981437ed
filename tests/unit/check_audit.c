/* check_audit.c — core/audit.c: the step-by-step die against the rejection vectors of
 * tests/vectors/fairness.json (2^63+1 faces, where blocks really are rejected), the fairness
 * check of a recorded turn against the turn-seed vector (and that it names what a tamper
 * broke), and reading a journal export back, including the broken ones. */
#include <stdint.h>
#include <string.h>

#include "testutil.h"
#include "core/audit.h"
#include "core/buf.h"
#include "core/fair.h"

/* From tests/vectors/fairness.json ("rejection", "turn_seed", "dice"). */
static const char vec_seed[] = "6bfcc64af2360d19b08044f4b0ec2dfdee616b382b9d4f1c266d96a08b5320a8";
static const uint64_t big_n = 9223372036854775809u; /* 2^63 + 1 */

struct block_vec {
	const char *message;
	uint64_t x;
	int accepted;
};

static const struct block_vec rejection_j0[] = {
	{ "756d706972652f6469652f7631000000000000000000000000", 10126339186865528063u, 0 },
	{ "756d706972652f6469652f7631000000000000000000000001", 1195782218795291534u, 1 },
};
static const struct block_vec rejection_j4[] = {
	{ "756d706972652f6469652f7631000000000000000400000000", 13169656347751358396u, 0 },
	{ "756d706972652f6469652f7631000000000000000400000001", 14132863829714611748u, 0 },
	{ "756d706972652f6469652f7631000000000000000400000002", 12889572297479303846u, 0 },
	{ "756d706972652f6469652f7631000000000000000400000003", 15606233087393386836u, 0 },
	{ "756d706972652f6469652f7631000000000000000400000004", 13480492919349219322u, 0 },
	{ "756d706972652f6469652f7631000000000000000400000005", 511548141196881860u, 1 },
};

static void setup(void)
{
	ck_assert_int_eq(fair_init(), 0);
}

static void check_blocks(uint64_t j, const struct block_vec *v, size_t n, uint64_t value)
{
	uint8_t seed[32];
	struct audit_die d;
	char hex[51];

	ck_assert_int_eq(hex_decode(seed, 32, vec_seed), 0);
	audit_die_explain(&d, seed, j, big_n);
	ck_assert(!d.every_x);
	ck_assert_uint_eq(d.limit, 9223372036854775809u);
	ck_assert_uint_eq(d.rem, 9223372036854775807u);
	ck_assert_uint_eq(d.n_blocks, n);
	for (size_t i = 0; i < n; i++) {
		hex_encode(hex, d.blocks[i].message, sizeof(d.blocks[i].message));
		ck_assert_str_eq(hex, v[i].message);
		ck_assert_uint_eq(d.blocks[i].a, i);
		ck_assert_uint_eq(d.blocks[i].x, v[i].x);
		ck_assert_int_eq(d.blocks[i].accepted, v[i].accepted);
	}
	ck_assert_uint_eq(d.value, value);
	ck_assert_uint_eq(d.value, fair_die(seed, j, big_n, NULL));
	audit_die_release(&d);
}

START_TEST(test_rejection_vectors)
{
	check_blocks(0, rejection_j0, 2, 1195782218795291535u);
	check_blocks(4, rejection_j4, 6, 511548141196881861u);
}
END_TEST

START_TEST(test_die_limits)
{
	uint8_t seed[32];
	struct audit_die d;

	hex_decode(seed, 32, vec_seed);
	/* d6: 2^64 mod 6 = 4; die 0 of the vector seed is a 6 in one block. */
	audit_die_explain(&d, seed, 0, 6);
	ck_assert_uint_eq(d.rem, 4);
	ck_assert_uint_eq(d.limit, UINT64_MAX - 3);
	ck_assert_uint_eq(d.n_blocks, 1);
	ck_assert_uint_eq(d.blocks[0].x, 0x8c87fbd6bc3cdcffu);
	ck_assert_uint_eq(d.value, 6);
	audit_die_release(&d);
	/* 2^32 divides 2^64: every x is accepted, the limit is 2^64 itself. */
	audit_die_explain(&d, seed, 0, 1ull << 32);
	ck_assert(d.every_x);
	ck_assert_uint_eq(d.rem, 0);
	ck_assert_uint_eq(d.value, 3158105344u);
	audit_die_release(&d);
}
END_TEST

/* The turn-seed vector as a recorded turn 3 of a campaign with an L = 8 chain. */
static char *players[] = { "attacker", "defender" };

static void vector_campaign(struct campaign *c)
{
	uint8_t secret[32];

	memset(c, 0, sizeof(*c));
	hex_decode(secret, 32, "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f");
	fair_commitment(c->commitment, secret, 8);
	c->chain_length = 8;
	c->players = players;
	c->n_players = 2;
}

static struct journal_order vec_orders[3];

/* A hash from its hex (the vectors' constants). */
static void set_hash(uint8_t out[FAIR_HASH_BYTES], const char *hex)
{
	ck_assert_int_eq(hex_decode(out, FAIR_HASH_BYTES, hex), 0);
}

static void vector_orders(void)
{
	memset(vec_orders, 0, sizeof(vec_orders));
	vec_orders[0].player = "attacker";
	vec_orders[0].has_file = 1;
	set_hash(vec_orders[0].sha256,
		"c72e64032519bfac1558f31d5703dcb54f6a0ec605c2077339001dc726cdf43e");
	vec_orders[1].player = "defender";
	vec_orders[2].player = "umpire";
	vec_orders[2].has_file = 1;
	set_hash(vec_orders[2].sha256,
		"b98944c0c44efa5d95844467fff01e31a6d5a94b274bc27b9ddfa477c3f7fc0d");
}

static void vector_record(struct journal_record *r, struct die_record *dice)
{
	static const uint64_t d6[] = { 6, 1, 5, 2, 3, 3, 3, 1 };

	memset(r, 0, sizeof(*r));
	r->turn = 3;
	set_hash(r->key, "7a701e75457c1757d19f4019ae802f4f40106708b792891a582c4b53483aa055");
	set_hash(r->orders_digest,
		"59d4bb5a39d62e357e80342f2fb36e1ff2778cd48db7407ac41bcb36da779d70");
	set_hash(r->beacon, "0000000000000000000000000000000000000000000000000000000000000000");
	set_hash(r->seed, vec_seed);
	vector_orders();
	r->orders = vec_orders;
	r->n_orders = 3;
	for (size_t i = 0; i < 8; i++) {
		dice[i].index = i;
		dice[i].sides = 6;
		dice[i].value = d6[i];
		dice[i].purpose = "test";
	}
	r->dice = dice;
	r->n_dice = 8;
}

START_TEST(test_fairness_ok)
{
	struct campaign c;
	struct journal_record r;
	struct die_record dice[8];
	struct buf why = BUF_INIT;

	vector_campaign(&c);
	vector_record(&r, dice);
	ck_assert_int_eq(audit_fairness(&c, &r, "the record"), 0);
	buf_release(&why);
}
END_TEST

START_TEST(test_fairness_names_the_tamper)
{
	struct campaign c;
	struct journal_record r;
	struct die_record dice[8];
	struct buf why = BUF_INIT;

	vector_campaign(&c);
	vector_record(&r, dice);
	dice[2].value = 4;
	ck_assert_int_eq(audit_fairness(&c, &r, "the record"), -1);
	ck_assert_ptr_nonnull(strstr(error_last()->message, "turn 3: die 2 differs from the seed"));
	ck_assert_ptr_nonnull(strstr(error_last()->message, "fair_die(s_t, 2, 6) = 5"));

	vector_record(&r, dice);
	dice[5].index = 6;
	ck_assert_int_eq(audit_fairness(&c, &r, "the record"), -1);
	ck_assert_ptr_nonnull(strstr(error_last()->message, "die 5: the record numbers it 6"));

	/* k_2 is a valid key, but not turn 3's. */
	vector_record(&r, dice);
	set_hash(r.key, "559412e4dcc927e6dff97809f05d13eedf8f99cf8e4c39e9abfc9532182e00d9");
	ck_assert_int_eq(audit_fairness(&c, &r, "the record"), -1);
	ck_assert_ptr_nonnull(strstr(error_last()->message, "does not chain to the commitment"));

	vector_record(&r, dice);
	r.orders[1].has_file = 1;
	set_hash(r.orders[1].sha256,
		"c72e64032519bfac1558f31d5703dcb54f6a0ec605c2077339001dc726cdf43e");
	ck_assert_int_eq(audit_fairness(&c, &r, "the record"), -1);
	ck_assert_ptr_nonnull(strstr(error_last()->message, "orders digest differs"));

	vector_record(&r, dice);
	r.beacon[31] ^= 1;
	ck_assert_int_eq(audit_fairness(&c, &r, "the record"), -1);
	ck_assert_ptr_nonnull(strstr(error_last()->message, "beacon differs"));

	vector_record(&r, dice);
	r.beacon_value = "2026-01-01 drand round 1";
	ck_assert_int_eq(audit_fairness(&c, &r, "the record"), -1);
	ck_assert_ptr_nonnull(strstr(error_last()->message,
		"has a beacon value, but the campaign takes no randomness after a close (entropy none)"));

	vector_record(&r, dice);
	r.seed[0] ^= 0x10;
	ck_assert_int_eq(audit_fairness(&c, &r, "the record"), -1);
	ck_assert_ptr_nonnull(strstr(error_last()->message, "seed differs"));
	buf_release(&why);
}
END_TEST

static const char good_export[] =
	"# umpire journal export: turn 3 of campaign demo\n"
	"campaign: demo\n"
	"rules: land-raid\n"
	"turn: 3\n"
	"key: 7a701e75457c1757d19f4019ae802f4f40106708b792891a582c4b53483aa055\n"
	"orders:\n"
	"- player: attacker\n"
	"  received: true\n"
	"  sha256: c72e64032519bfac1558f31d5703dcb54f6a0ec605c2077339001dc726cdf43e\n"
	"- player: defender\n"
	"  received: false\n"
	"  sha256: \"0000000000000000000000000000000000000000000000000000000000000000\"\n"
	"orders_digest: 59d4bb5a39d62e357e80342f2fb36e1ff2778cd48db7407ac41bcb36da779d70\n"
	"beacon: \"0000000000000000000000000000000000000000000000000000000000000000\"\n"
	"seed: 6bfcc64af2360d19b08044f4b0ec2dfdee616b382b9d4f1c266d96a08b5320a8\n"
	"dice:\n"
	"- index: 0\n"
	"  sides: 9223372036854775809\n"
	"  value: 1195782218795291535\n"
	"  for: \"umpire ruling 1: big\"\n"
	"events:\n"
	"- phase: umpire\n"
	"  text: \"big: 1d9223372036854775809 = 1195782218795291535\"\n"
	"void_orders:\n"
	"- phase: actions\n"
	"  player: attacker\n"
	"  order: 2\n"
	"  reason: \"no longer possible\"\n"
	"state_sha256: bbae2b324bc998a89528811e15cccb5abd7d68906af3c09bc46400d90d2e4bd0\n"
	"summary: \"a turn\"\n";

START_TEST(test_parse_export)
{
	struct journal_record *r = NULL;
	struct diag d;

	diag_init(&d);
	ck_assert_int_eq(audit_parse_export(&r, NULL, "x.yaml", good_export, strlen(good_export),
				 &d),
		0);
	ck_assert_int_eq(r->turn, 3);
	ck_assert_uint_eq(r->n_orders, 2);
	ck_assert_int_eq(r->orders[1].has_file, 0);
	ck_assert_uint_eq(r->n_dice, 1);
	ck_assert_uint_eq(r->dice[0].sides, big_n);
	ck_assert_uint_eq(r->dice[0].value, 1195782218795291535u);
	ck_assert_uint_eq(r->n_events, 2);
	ck_assert_int_eq(r->events[0].kind, EVENT_EVENT);
	ck_assert_int_eq(r->events[1].kind, EVENT_VOID);
	ck_assert_str_eq(r->events[1].player, "attacker");
	ck_assert_int_eq(r->events[1].order_index, 2);
	ck_assert_ptr_null(r->beacon_value);
	journal_record_free(r);
	diag_release(&d);
}
END_TEST

/* Dice written otherwise than render_export writes them, or text that looks like the dice
 * inside a multi-line string, read as YAML reads them: the same dice either way. */
START_TEST(test_parse_export_forms)
{
	static const struct {
		const char *from, *to;
	} cases[] = {
		{ "", "" },
		{ "  for: \"umpire ruling 1: big\"", "  for: 'umpire ruling 1: big'" },
		{ "  value: 1195782218795291535", "  value: 01195782218795291535" },
		{ "- index: 0\n  sides: 9223372036854775809\n  value: 1195782218795291535\n"
		  "  for: \"umpire ruling 1: big\"\n",
			"- {index: 0, sides: 9223372036854775809, value: 1195782218795291535, "
			"for: \"umpire ruling 1: big\"}\n" },
		{ "summary: \"a turn\"\n", "" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct buf b = BUF_INIT;
		struct journal_record *r = NULL;
		struct diag d;
		const char *at = strstr(good_export, cases[i].from);
		ck_assert_ptr_nonnull(at);
		if (i == 4) /* the summary first, a string whose second line reads "dice:" */
			buf_puts(&b,
				"summary: \"a turn\n\ndice:\n- index: 0\n  sides: 6\n  value: 6\n"
				"  for: x\nevents:\"\n");
		buf_append(&b, good_export, (size_t)(at - good_export));
		buf_puts(&b, cases[i].to);
		buf_puts(&b, at + strlen(cases[i].from));
		diag_init(&d);
		ck_assert_msg(audit_parse_export(&r, NULL, "x.yaml", b.data, b.len, &d) == 0,
			"case %zu: %s", i, d.n ? d.v[0].message : "");
		ck_assert_uint_eq(r->n_dice, 1);
		ck_assert_uint_eq(r->dice[0].index, 0);
		ck_assert_uint_eq(r->dice[0].sides, big_n);
		ck_assert_uint_eq(r->dice[0].value, 1195782218795291535u);
		ck_assert_str_eq(r->dice[0].purpose, "umpire ruling 1: big");
		ck_assert_uint_eq(r->n_events, 2);
		ck_assert_str_eq(r->summary,
			i == 4 ? "a turn\ndice: - index: 0 sides: 6 value: 6 for: x events:" :
				 "a turn");
		journal_record_free(r);
		diag_release(&d);
		buf_release(&b);
	}
}
END_TEST

/* A die's purpose in each form a double-quoted YAML string takes: read as libyaml reads it,
 * whether the fast path takes it whole (printable ASCII, nothing escaped) or not. */
START_TEST(test_parse_export_purposes)
{
	static const struct {
		const char *yaml, *want;
	} cases[] = {
		{ "\"umpire ruling 1: big (2d6) [1/2]\"", "umpire ruling 1: big (2d6) [1/2]" },
		{ "\" two  spaces # not a comment \"", " two  spaces # not a comment " },
		{ "\"say \\\"hi\\\"\"", "say \"hi\"" },
		{ "\"a\\tb \\\\ c\"", "a\tb \\ c" },
		{ "\"Land Raid \xc2\xa7"
		  "22 Shooting\"",
			"Land Raid \xc2\xa7"
			"22 Shooting" },
		{ "\"folded\n    line\"", "folded line" },
		{ "\"\"", "" },
		{ "plain words", "plain words" },
	};
	static const char from[] = "\"umpire ruling 1: big\"";
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct buf b = BUF_INIT;
		struct journal_record *r = NULL;
		struct diag d;
		const char *at = strstr(good_export, from);
		ck_assert_ptr_nonnull(at);
		buf_append(&b, good_export, (size_t)(at - good_export));
		buf_puts(&b, cases[i].yaml);
		buf_puts(&b, at + strlen(from));
		diag_init(&d);
		ck_assert_msg(audit_parse_export(&r, NULL, "x.yaml", b.data, b.len, &d) == 0,
			"case %zu: %s", i, d.n ? d.v[0].message : "");
		ck_assert_uint_eq(r->n_dice, 1);
		ck_assert_str_eq(r->dice[0].purpose, cases[i].want);
		journal_record_free(r);
		diag_release(&d);
		buf_release(&b);
	}
}
END_TEST

/* A tampered export is a diagnostic, never a crash or a silent default. */
START_TEST(test_parse_export_broken)
{
	static const struct {
		const char *from, *to, *want;
	} cases[] = {
		{ "value: 1195782218795291535", "value: -3", "value '-3'" },
		{ "value: 1195782218795291535", "value: \"5\"", "value '5'" },
		{ "sides: 9223372036854775809", "sides: 1", "sides '1'" },
		{ "key: 7a70", "key: 7A70", "key is not 64 lower-case hex digits" },
		{ "turn: 3", "turn: 3\nextra: 1", "extra" },
		{ "  received: false\n  sha256: \"0000", "  received: false\n  sha256: \"1000",
			"sha256 of orders that were not received" },
		{ "summary: \"a turn\"\n", "", "summary" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct buf b = BUF_INIT, all = BUF_INIT;
		struct journal_record *r = NULL;
		struct diag d;
		const char *at = strstr(good_export, cases[i].from);
		ck_assert_ptr_nonnull(at);
		buf_append(&b, good_export, (size_t)(at - good_export));
		buf_puts(&b, cases[i].to);
		buf_puts(&b, at + strlen(cases[i].from));
		diag_init(&d);
		ck_assert_int_eq(audit_parse_export(&r, NULL, "x.yaml", b.data, b.len, &d), -1);
		ck_assert_ptr_null(r);
		for (size_t k = 0; k < d.n; k++)
			buf_printf(&all, "%s\n", d.v[k].message);
		ck_assert_msg(strstr(buf_str(&all), cases[i].want), "case %zu: '%s' not in: %s", i,
			cases[i].want, buf_str(&all));
		diag_release(&d);
		buf_release(&b);
		buf_release(&all);
	}
}
END_TEST

static Suite *audit_suite(void)
{
	Suite *s = suite_create("audit");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_rejection_vectors);
	tcase_add_test(tc, test_die_limits);
	tcase_add_test(tc, test_fairness_ok);
	tcase_add_test(tc, test_fairness_names_the_tamper);
	tcase_add_test(tc, test_parse_export);
	tcase_add_test(tc, test_parse_export_forms);
	tcase_add_test(tc, test_parse_export_purposes);
	tcase_add_test(tc, test_parse_export_broken);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(audit_suite)
