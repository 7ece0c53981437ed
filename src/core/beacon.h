/* beacon.h — a public beacon's rounds (docs/fairness.md, "The beacon" and "The beacon's
 * signature"): the chains umpire knows (drand quicknet, and the demo beacon of the shipped
 * examples), the check of a round's signature against its chain's key (BLS, through bls.h),
 * and fetching a round over drand's HTTP API, GET {chain URL}/public/{round}, whose JSON answer
 * gives the round's randomness and signature. */
#ifndef UMPIRE_BEACON_H
#define UMPIRE_BEACON_H

struct campaign;

/* The one signature scheme umpire checks: drand's unchained rounds with signatures on G1. */
#define BEACON_SCHEME "bls-unchained-g1-rfc9380"

/* A beacon chain umpire knows: a campaign naming its chain hash must name its key. */
struct beacon_chain {
	const char *name;       /* "drand quicknet" */
	const char *source;     /* fairness.beacon as init writes it */
	const char *hash;       /* the chain hash: 64 hex digits */
	const char *public_key; /* a compressed G2 point: 192 hex digits */
	long long genesis;      /* when round 1 is out, UTC seconds */
	long long period;       /* seconds between rounds */
	int demo;               /* 1: the demo beacon, whose secret key is published */
};
/* drand quicknet (League of Entropy mainnet), and umpire's demo beacon (its secret key is
 * campaigns/demo-beacon.key: it proves nothing about fairness). */
extern const struct beacon_chain beacon_quicknet, beacon_demo;

/* The known chain whose hash is hash, or NULL. */
const struct beacon_chain *beacon_chain_find(const char *hash);

/* Whether a beacon named by chain hash, scheme, public key and demo flag may be used: the
 * scheme is BEACON_SCHEME, hash 64 and key 192 lower-case hex digits; a known chain's hash
 * goes with that chain's key and demo flag only; an unknown chain is never a demo. 0, or -1
 * with ERROR_INPUT saying why. */
int beacon_chain_check(const char *hash, const char *scheme, const char *public_key, int demo);

/* The check of a turn's beacon round against the campaign's chain (docs/fairness.md, "The
 * beacon's signature"): with a public key in campaign.yaml, the round's signature is required,
 * value must be SHA-256 of it (drand's randomness) and it must pass the BLS check of round
 * under the key (bls.h; one helper process serves the whole run). Without a key (a beacon
 * named by its source alone) only value = SHA-256(signature) when a signature is given.
 * Messages start "turn T: beacon round R:". 0; -1 with ERROR_INPUT (no or a wrong
 * signature), ERROR_MISSING (no BLS helper) or ERROR_OS. One thread at a time. */
int beacon_check_round(const struct campaign *c, int turn, const char *round, const char *value,
	const char *signature);

/* Checks many rounds' signatures under c's key at once (bls_verify_batch: two pairings for
 * the lot), before a command checks them one turn at a time: a round found good here is
 * taken as checked by beacon_check_round, with the same signature, which then asks the
 * helper about the others alone (so a bad one is still named at its turn, with its
 * reason). Replaces what an earlier call found. 0 (also with no key: nothing to do); -1
 * with ERROR_MISSING (no helper) or ERROR_OS, nothing taken as checked. */
int beacon_prefetch(const struct campaign *c, size_t n, const long long *rounds,
	const char *const *signatures);
#define BEACON_BATCH 1000 /* rounds in one request to the helper */

#define BEACON_ANSWER_MAX 65536 /* bytes of one round's JSON answer */
#define BEACON_TIMEOUT 30L      /* seconds for one fetch */

/* A fetched round. */
struct beacon_round {
	long long round;  /* the round number the answer gives */
	char *randomness; /* 64 lower-case hex digits: the value umpire turn --beacon takes */
	char *signature;  /* the round's signature, lower-case hex */
};

/* The URL of round from a template: `ROUND` in it replaced by the number, or, with no ROUND,
 * the template taken as a drand chain's base URL (http(s)://HOST/CHAINHASH) and
 * "/public/ROUND" appended. NULL when template is no http:// or https:// URL. A new string. */
char *beacon_round_url(const char *template, long long round);

/* The fetch template in a campaign's beacon source text: its first http:// or https:// URL,
 * up to a space or ')' (drand quicknet's default names
 * https://api.drand.sh/CHAINHASH/public/ROUND). NULL when it has none. A new string. */
char *beacon_source_url(const char *source);

/* GETs round from the URL template (beacon_round_url) into out (release with
 * beacon_round_release): the answer must be a JSON object whose `round` is round and whose
 * `randomness` is SHA-256 of its `signature`. Returns 0; ERROR_NOTFOUND when the beacon has no
 * such round yet (HTTP 404); -1 otherwise (ERROR_OS: no answer; ERROR_INPUT: an answer that is
 * not that round's, or whose randomness does not hash from its signature). */
int beacon_fetch(const char *template, long long round, struct beacon_round *out);
void beacon_round_release(struct beacon_round *r);

#endif
