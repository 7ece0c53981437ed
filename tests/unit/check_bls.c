/* check_bls.c — the BLS check of a beacon round (bls.h, beacon.h; docs/fairness.md, "The
 * beacon's signature") through the real helper, umpire-bls, found beside the test binary's
 * build folder: drand quicknet's recorded rounds pass; another round's signature, the sign
 * flag flipped, a point off the curve, the identity and a wrong length fail with ERROR_INPUT;
 * a missing helper is ERROR_MISSING; a known chain takes its own key only. */
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "core/beacon.h"
#include "core/bls.h"
#include "core/buf.h"
#include "core/campaign.h"
#include "core/error.h"

#define QK \
	"83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c" \
	"8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb" \
	"5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a"
#define S657413 \
	"b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be" \
	"41076862b98fad56e91a6b85b89cd97b"
#define S3 \
	"b3fab6df720b68cc47175f2c777e86d84187caab5770906f515ff1099cb01e4d" \
	"eaa027075d860823e49477b93c72bd64"

static const struct {
	long long round;
	const char *signature;
} good[] = {
	{ 2, "b6b6a585449b66eb12e875b64fcbab3799861a00e4dbf092d99e969a5eac57dd3f798acf61e705fe4f093db926626807" },
	{ 3, S3 },
	{ 657413, S657413 },
	{ 5928395,
		"a5d07c0071b4e386b3ae09206522253c68fefe8490ad59ecc44a7dd0d0745be91da5779e2247a82403fbc0cb9a34cb61" },
};

START_TEST(quicknet_rounds_pass)
{
	struct bls_verifier *v;

	unsetenv("UMPIRE_BLS");
	ck_assert_int_eq(bls_verifier_open(&v, QK), 0);
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		ck_assert_msg(bls_verify(v, good[i].round, good[i].signature) == 0,
			"round %lld: %s", good[i].round, error_last()->message);
	bls_verifier_free(v);
}
END_TEST

/* Each broken signature, and the helper's reason. */
START_TEST(broken_signatures_fail)
{
	static const struct {
		long long round;
		const char *signature, *why;
	} bad[] = {
		{ 657414, S657413, "fails the pairing check for round 657414" },
		{ 657413, S3, "fails the pairing check for round 657413" },
		/* the sign flag flipped (b7 -> 97): -sig, a point of G1 */
		{ 657413,
			"9713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be"
			"41076862b98fad56e91a6b85b89cd97b",
			"fails the pairing check" },
		{ 3,
			"800000000000000000000000000000000000000000000000"
			"000000000000000000000000000000000000000000000001",
			"not a point of G1" },
		{ 3,
			"c00000000000000000000000000000000000000000000000"
			"000000000000000000000000000000000000000000000000",
			"the identity point" },
		{ 3, "b3fab6", "3 bytes, not the 48" },
		{ 3, "zz", "is not hex" },
	};
	struct bls_verifier *v;

	unsetenv("UMPIRE_BLS");
	ck_assert_int_eq(bls_verifier_open(&v, QK), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(bls_verify(v, bad[i].round, bad[i].signature), -1);
		ck_assert_int_eq(error_last()->klass, ERROR_INPUT);
		ck_assert_msg(strstr(error_last()->message, bad[i].why), "%zu: %s", i,
			error_last()->message);
	}
	/* the helper still answers after the refusals */
	ck_assert_int_eq(bls_verify(v, 3, S3), 0);
	bls_verifier_free(v);
}
END_TEST

START_TEST(helper_missing)
{
	setenv("UMPIRE_BLS", "/nonexistent/umpire-bls", 1);
	ck_assert_int_eq(bls_verify_round(QK, 3, S3), -1);
	ck_assert_int_eq(error_last()->klass, ERROR_MISSING);
	ck_assert_ptr_nonnull(strstr(error_last()->message, "BLS helper"));
	unsetenv("UMPIRE_BLS");
}
END_TEST

START_TEST(known_chains_take_their_keys)
{
	ck_assert_int_eq(beacon_chain_check(beacon_quicknet.hash, BEACON_SCHEME, QK, 0), 0);
	ck_assert_int_eq(beacon_chain_check(beacon_quicknet.hash, BEACON_SCHEME,
				 beacon_demo.public_key, 0),
		-1);
	ck_assert_ptr_nonnull(strstr(error_last()->message, "drand quicknet, whose public key"));
	ck_assert_int_eq(beacon_chain_check(beacon_quicknet.hash, BEACON_SCHEME, QK, 1), -1);
	ck_assert_int_eq(beacon_chain_check(beacon_demo.hash, BEACON_SCHEME, beacon_demo.public_key,
				 1),
		0);
	ck_assert_int_eq(beacon_chain_check(beacon_demo.hash, BEACON_SCHEME, beacon_demo.public_key,
				 0),
		-1);
	/* another network: any key, never a demo */
	ck_assert_int_eq(beacon_chain_check(
				 "af8b6fc95693b058a3a59efe586eb31c2c352fe00cf40c62a427d87c34f7a235",
				 BEACON_SCHEME, beacon_demo.public_key, 0),
		0);
	ck_assert_int_eq(beacon_chain_check(beacon_quicknet.hash, "pedersen-bls-chained", QK, 0),
		-1);
	ck_assert_int_eq(beacon_chain_check(beacon_quicknet.hash, BEACON_SCHEME, "83cf", 0), -1);
}
END_TEST

/* The demo key's public key is the one the committed secret gives (umpire-bls pubkey). */
START_TEST(demo_key_is_the_committed_secret)
{
	struct buf out = BUF_INIT;
	char *helper;

	unsetenv("UMPIRE_BLS");
	helper = bls_helper_path();
	ck_assert_ptr_nonnull(helper);
	ck_assert_int_eq(test_run(&out, "'%s' pubkey campaigns/demo-beacon.key", helper), 0);
	ck_assert_ptr_nonnull(strstr(buf_str(&out), beacon_demo.public_key));
	free(helper);
	buf_release(&out);
}
END_TEST

static Suite *bls_suite(void)
{
	Suite *s = suite_create("bls");
	TCase *tc = tcase_create("bls");
	tcase_add_test(tc, quicknet_rounds_pass);
	tcase_add_test(tc, broken_signatures_fail);
	tcase_add_test(tc, helper_missing);
	tcase_add_test(tc, known_chains_take_their_keys);
	tcase_add_test(tc, demo_key_is_the_committed_secret);
	suite_add_tcase(s, tc);
	return s;
}

TEST_MAIN(bls_suite)
