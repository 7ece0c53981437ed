// docs/fairness.md, "The derivation", steps 2 and 3 (the chain of turn keys and its
// commitment), and "umpire verify DIR" step 6 (the journal hash chain of Journal-Head
// trailers): head_t = SHA256(head_(t-1) || export bytes), head_(-1) = 32 zero bytes.
import { sha256, hmac256, ascii, concat, equal, ZERO32 } from './bytes.js';

export const CHAIN_LABEL = ascii('umpire/chain/v1');

/** c_L = HMAC(S, "umpire/chain/v1"): the top of the chain, from the secret S (32 bytes). */
export function chainTop(secret) {
	return hmac256(secret, CHAIN_LABEL);
}

/** SHA256 applied t times to key (t >= 0). */
export function hashTimes(key, t) {
	let k = key;
	for (let i = 0; i < t; i++) k = sha256(k);
	return k;
}

/** Step 3: whether k_t chains to the commitment C (SHA256 applied t times gives C). */
export function keyChains(key, t, commitment) {
	return equal(hashTimes(key, t), commitment);
}

/** The journal hash chain: head_0 from campaign.yaml's bytes, then one step per export. */
export function journalHead0(campaignYaml) {
	return sha256(concat(ZERO32, campaignYaml));
}
export function journalHeadNext(head, exportBytes) {
	return sha256(concat(head, exportBytes));
}
