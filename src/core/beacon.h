/* beacon.h — fetching a public beacon's round (docs/fairness.md, "Fetching the round"): drand's
 * HTTP API, GET {chain URL}/public/{round}, whose JSON answer gives the round's randomness and
 * signature. The randomness is checked to be SHA-256 of the signature (drand's rule, hashing
 * only); the BLS signature itself is checked by drand's own tools (the same page says how). */
#ifndef UMPIRE_BEACON_H
#define UMPIRE_BEACON_H

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
