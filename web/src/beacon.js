// docs/fairness.md, "The beacon's signature" (and "Closed turns", the round a close names):
// a drand round of scheme bls-unchained-g1-rfc9380 is checked as drand-client checks it:
// message m = SHA-256(be64(round)), signature on G1 (48 bytes), public key on G2 (96 bytes),
// H(m) = hash_to_curve (RFC 9380) into G1 with the DST below, valid when
// e(sig, g2) = e(H(m), pk); its randomness is SHA-256(sig), and B_t = SHA-256 of that text.
// The pairing is @noble/curves', independent of umpire's CIRCL helper.
import { bls12_381 as bls } from '@noble/curves/bls12-381';
import { sha256, be64, ascii, hex, unhex } from './bytes.js';

export const SCHEME = 'bls-unchained-g1-rfc9380';
export const DST = 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_';
export const QUICKNET = '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971';
export const DEMO_CHAIN = '50607b1cc896b6f583784f9c4a74c9f63825c4ffc594dd1d5e43a858a5737d37';
export const QUICKNET_SOURCE = `drand quicknet (https://api.drand.sh/${QUICKNET}/public/ROUND)`;

/** The chains this verifier knows: drand quicknet (trusted) and umpire's demo beacon (its
 *  secret key is published). A campaign naming one of these hashes must name its key. */
export const KNOWN_CHAINS = {
	[QUICKNET]: {
		name: 'drand quicknet', demo: false,
		key: '83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a',
	},
	[DEMO_CHAIN]: {
		name: 'umpire demo beacon', demo: true,
		key: 'b10c4db546b3f45a4fe7a05f917ea5d2b58717b8d0f101e672f509a694260de3fc0653b945149ef3e5adf57946b768de19552355197cc29f15bcbd6b8ce9cb5d26ffac92ed3846f4b004798887a09f8538042569a55a1ea47387baef536d44ac',
	},
};

/** B_t under entropy beacon or players: SHA-256 of the value's text. */
export function beaconHash(valueText) {
	return sha256(ascii(valueText));
}

/** drand's rule: a round's randomness is SHA-256 of its signature's bytes (hex). */
export function randomnessOf(signatureHex) {
	return hex(sha256(unhex(signatureHex)));
}

const P = bls.fields.Fp.ORDER;
const keys = new Map(); // a chain's public key, decoded (and subgroup-checked) once

/** The BLS check of round `round` (BigInt or number) with signatureHex under publicKeyHex:
 *  null when valid, else why not (the reasons umpire-bls gives). */
export function checkRound(publicKeyHex, round, signatureHex) {
	if (!/^([0-9a-fA-F]{2})*$/.test(signatureHex)) return 'the signature is not hex';
	const sig = unhex(signatureHex.toLowerCase());
	if (sig.length !== 48) return `the signature is ${sig.length} bytes`;
	if (!(sig[0] & 0x80)) return 'not in compressed form';
	if (sig[0] & 0x40) return 'the signature is the identity point';
	let x = 0n;
	for (const [i, b] of sig.entries()) x = (x << 8n) | BigInt(i === 0 ? b & 0x1f : b);
	if (x >= P) return 'the signature is not a point of G1';
	let point;
	try {
		point = bls.ShortSignature.fromBytes(sig);
		point.assertValidity();
	} catch {
		return 'the signature is not a point of G1';
	}
	if (point.equals(bls.G1.Point.ZERO)) return 'the signature is the identity point';
	let pk = keys.get(publicKeyHex);
	if (!pk) {
		try {
			pk = bls.G2.Point.fromHex(publicKeyHex);
		} catch {
			return 'the public key is not a point of G2';
		}
		keys.set(publicKeyHex, pk);
	}
	const m = sha256(be64(round));
	const hm = bls.shortSignatures.hash(m, DST);
	return bls.shortSignatures.verify(point, hm, pk) ? null
		: `the signature fails the pairing check for round ${round} under the chain's public key`;
}

/** When round r (>= 1) is out: genesis + (r - 1) * period. */
export function roundAt(genesis, period, r) {
	return genesis + (r - 1) * period;
}
/** The first round out at `at` or later. */
export function firstRound(genesis, period, at) {
	return at <= genesis ? 1 : Math.floor((at - genesis + period - 1) / period) + 1;
}
/** The round a close at closedAt names: the first out `delay` seconds after it, and strictly
 *  after it (a round out exactly at the close is public then). */
export function namedRound(genesis, period, delay, closedAt) {
	const r = firstRound(genesis, period, closedAt + delay);
	return roundAt(genesis, period, r) <= closedAt ? r + 1 : r;
}
