// docs/fairness.md, "The beacon's signature" (and "Closed turns", the round a close names):
// a drand round of scheme bls-unchained-g1-rfc9380 is checked as drand-client checks it:
// message m = SHA-256(be64(round)), signature on G1 (48 bytes), public key on G2 (96 bytes),
// H(m) = hash_to_curve (RFC 9380) into G1 with the DST below, valid when
// e(sig, g2) = e(H(m), pk); its randomness is SHA-256(sig), and B_t = SHA-256 of that text.
// The pairing is @noble/curves', independent of umpire's CIRCL helper.
import { bls12_381 as bls } from '@noble/curves/bls12-381';
import { pippenger } from '@noble/curves/abstract/curve';
import { hash_to_field } from '@noble/curves/abstract/hash-to-curve';
import { randomBytes } from '@noble/hashes/utils';
import { sha256, be64, ascii, hex, unhex } from './bytes.js';
import { nextTask } from './workers.js';

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

/** A round's signature (hex) decoded: { point } of G1, or { why } not (umpire-bls's reasons). */
function decodeSignature(signatureHex) {
	if (!/^([0-9a-fA-F]{2})*$/.test(signatureHex)) return { why: 'the signature is not hex' };
	const sig = unhex(signatureHex.toLowerCase());
	if (sig.length !== 48) return { why: `the signature is ${sig.length} bytes` };
	if (!(sig[0] & 0x80)) return { why: 'not in compressed form' };
	if (sig[0] & 0x40) return { why: 'the signature is the identity point' };
	let x = 0n;
	for (const [i, b] of sig.entries()) x = (x << 8n) | BigInt(i === 0 ? b & 0x1f : b);
	if (x >= P) return { why: 'the signature is not a point of G1' };
	let point;
	try {
		point = bls.ShortSignature.fromBytes(sig);
		point.assertValidity();
	} catch {
		return { why: 'the signature is not a point of G1' };
	}
	if (point.equals(bls.G1.Point.ZERO)) return { why: 'the signature is the identity point' };
	return { point };
}

/** A chain's public key (hex) decoded, or null when it is not a point of G2. */
function publicKey(publicKeyHex) {
	let pk = keys.get(publicKeyHex);
	if (!pk) {
		try {
			pk = bls.G2.Point.fromHex(publicKeyHex);
		} catch {
			return null;
		}
		keys.set(publicKeyHex, pk);
	}
	return pk;
}

const message = (round) => bls.shortSignatures.hash(sha256(be64(round)), DST);
const negated = new Map(); // a chain's public key negated, once: its checks and pairing lines kept

/** e(H(m), -pk) * e(sig, G2) = 1: bls.shortSignatures.verify's equation, with the key
 *  negated once a key (verify negates it again at each call, and @noble/curves checks and
 *  precomputes each new G2 point it pairs: most of a pairing check). */
function pairs(sig, hm, publicKeyHex, pk) {
	let neg = negated.get(publicKeyHex);
	if (!neg) negated.set(publicKeyHex, (neg = pk.negate()));
	return bls.fields.Fp12.eql(bls.pairingBatch([{ g1: hm, g2: neg }, { g1: sig, g2: bls.G2.Point.BASE }]), bls.fields.Fp12.ONE);
}
const failsPairing = (round) => `the signature fails the pairing check for round ${round} under the chain's public key`;

/** The BLS check of round `round` (BigInt or number) with signatureHex under publicKeyHex:
 *  null when valid, else why not (the reasons umpire-bls gives). */
export function checkRound(publicKeyHex, round, signatureHex) {
	const d = decodeSignature(signatureHex);
	if (d.why) return d.why;
	const pk = publicKey(publicKeyHex);
	if (!pk) return 'the public key is not a point of G2';
	return pairs(d.point, message(round), publicKeyHex, pk) ? null : failsPairing(round);
}

// The batch's scalars are 128 bits: @noble/curves' multi-scalar multiplication (Pippenger)
// walks as many bits as the field it is given says, and the scalar field's 255 would double
// its work for nothing.
const SCALARS = { BITS: 128, isValid: (s) => typeof s === 'bigint' && s > 0n && s < 1n << 128n };
const G1 = bls.G1.Point;
const HTF = { ...bls.G1.defaults, DST };

/** H(m) of RFC 9380's hash_to_curve before its last step, clear_cofactor: the library's
 *  hash_to_field and map_to_curve (simplified SWU and the 11-isogeny, @noble/curves'
 *  G1.CURVE.mapToCurve), Q0 + Q1. clear_cofactor is multiplication by the scalar h_eff,
 *  so a sum of r_i times these, cleared once, is the sum of r_i H(m_i): a batch pays for one
 *  clearing, and for no subgroup check of H(m) (bls.shortSignatures.hash makes both per
 *  message, three quarters of its cost). A test holds its clearing equal to H(m). */
export function unclearedHash(round) {
	const u = hash_to_field(sha256(be64(round)), 2, HTF);
	const map = (e) => G1.fromAffine(bls.G1.CURVE.mapToCurve(e));
	return map(u[0]).add(map(u[1]));
}

const coords = (p) => [p.X, p.Y, p.Z];
const point = (c) => new G1(c[0], c[1], c[2]);

/**
 * A share of a batch: job { items: [{ round (text), signature (hex) }], scalars: [r_i] (the
 * batch's random 128-bit scalars, one an item) }, run by a worker (bls-worker.js) or in the
 * caller. Decodes each signature in order (decodeSignature: form, point, subgroup) and stops
 * at the first that is not one; over those before it returns S = sum r_i sig_i and
 * M = sum r_i H'(m_i) (unclearedHash), as projective coordinates [X, Y, Z] (BigInts).
 * Returns { bad: { index, why } or null, S, M, n (the items summed) }.
 */
export function chunkJob(job) {
	const sigs = [], hashes = [];
	let bad = null;
	for (const [index, it] of job.items.entries()) {
		const d = decodeSignature(it.signature);
		if (d.why) {
			bad = { index, why: d.why };
			break;
		}
		sigs.push(d.point);
		hashes.push(unclearedHash(BigInt(it.round)));
	}
	const r = job.scalars.slice(0, sigs.length);
	// no scalars (no randomness drawn): no sums, each round is checked alone
	const sum = (points) => (points.length && r.length === points.length ? coords(pippenger(G1, SCALARS, points, r)) : coords(G1.ZERO));
	return { bad, S: sum(sigs), M: sum(hashes), n: sigs.length };
}

/** A worker's answer to message { id, job } (chunkJob): { id, result } or { id, error }. */
export function answer(msg) {
	try {
		return { id: msg.id, result: chunkJob(msg.job) };
	} catch (e) {
		return { id: msg.id, error: String(e && e.message || e) };
	}
}

/** n fresh random 128-bit scalars, top bit set (never zero), from the platform's CSPRNG; null
 *  when there is no randomness to draw. */
function randomScalars(n) {
	const scalars = [];
	try {
		while (scalars.length < n) {
			const r = randomBytes(16);
			let s = BigInt(r[0] | 0x80);
			for (let j = 1; j < 16; j++) s = (s << 8n) | BigInt(r[j]);
			scalars.push(s);
		}
	} catch {
		return null;
	}
	return scalars;
}

let pool = null;
/** Where batches' shares run: a pool ({ run(message) -> Promise of answer() }, workers.js) or
 *  null (in the caller, at settle()). The answers are the same either way. */
export function useWorkers(p) {
	pool = p;
}

const CHUNK = 32; // rounds a worker takes at once

/** For a caller with nothing else to do until the rounds handed out are checked: this thread
 *  takes its share of the chunks still queued for the workers, the last one first (the workers
 *  take the first ones), each checked here as when no worker could take it (the same answer),
 *  letting the workers' answers in between (a task each), until no chunk waits. */
export async function helpWorkers() {
	while (pool && pool.takeBack && pool.takeBack()) await nextTask();
}

/**
 * Rounds checked in batches, in the order they come (a turn's round after the one before), by
 * one random linear combination of their pairing equations: with fresh random 128-bit r_i,
 * e(sum r_i sig_i, G2) = e(clear(sum r_i H'(m_i)), pk) holds for good signatures and, with a
 * bad one among them, only with probability about 2^-127 (the small-exponents test of
 * Bellare, Garay and Rabin, 1998; umpire-bls's batch). Two pairings for the lot; decoding the
 * signatures (a subgroup check each) and hashing the rounds, the cost that stays per round, is
 * shared among the workers (useWorkers) in chunks of CHUNK as the rounds are added.
 * add() returns at once only when the chain's key is no point of G2 (else null, the round
 * kept); settle() resolves to the first kept round in order that fails ({ key, round,
 * signature, why }, key as given to add, why as checkRound gives it: a signature that does
 * not decode, or, when the batch fails, the first that fails checked alone) or null; either way
 * nothing is kept after it. The answers are checkRound's, round by round, whatever the
 * workers and the scalars drawn.
 */
export class RoundBatch {
	constructor(publicKeyHex) {
		this.publicKeyHex = publicKeyHex;
		this.items = []; // every round kept: { key, round, signature }
		this.queued = 0; // items[0, queued) handed out in chunks
		this.chunks = []; // [{ from, to, scalars, answer: Promise }]
	}

	get size() {
		return this.items.length;
	}

	add(key, round, signatureHex) {
		if (!publicKey(this.publicKeyHex)) return decodeSignature(signatureHex).why || 'the public key is not a point of G2';
		this.items.push({ key, round, signature: signatureHex });
		if (pool && this.items.length - this.queued >= CHUNK) this.hand(pool);
		return null;
	}

	/** Items not handed out yet, as one chunk to `to` (a pool, or null: run here at settle()). */
	hand(to) {
		const from = this.queued, till = this.items.length;
		if (from === till) return;
		this.queued = till;
		const scalars = randomScalars(till - from);
		const job = { items: this.items.slice(from, till).map((it) => ({ round: String(it.round), signature: it.signature })), scalars: scalars || [] };
		const here = () => chunkJob(job);
		// a worker that fails (none could start, or it died) leaves its share to this thread
		const done = to ? to.run(job).then((a) => (a.error ? here() : a.result), here) : Promise.resolve().then(here);
		this.chunks.push({ from, to: till, scalars, done });
	}

	async settle() {
		this.hand(pool);
		const { items, chunks } = this;
		this.items = [];
		this.queued = 0;
		this.chunks = [];
		if (!items.length) return null;
		const pk = publicKey(this.publicKeyHex);
		let S = G1.ZERO, M = G1.ZERO, n = 0, bad = null, random = true;
		for (const c of chunks) {
			const a = await c.done;
			S = S.add(point(a.S));
			M = M.add(point(a.M));
			n = c.from + a.n;
			random &&= !!c.scalars;
			if (a.bad) {
				bad = { key: items[c.from + a.bad.index].key, round: items[c.from + a.bad.index].round, signature: items[c.from + a.bad.index].signature, why: a.bad.why };
				break;
			}
		}
		if (n && !(random && holds(S, M, this.publicKeyHex, pk))) {
			// each alone, in order: the first that fails, as checkRound says it
			for (const it of items.slice(0, n)) {
				const why = checkRound(this.publicKeyHex, it.round, it.signature);
				if (why) return { key: it.key, round: it.round, signature: it.signature, why };
			}
		}
		return bad;
	}
}

/** e(S, G2) = e(clear(M), pk), false when either side is no point it can pair. */
function holds(S, M, publicKeyHex, pk) {
	try {
		return pairs(S, M.clearCofactor(), publicKeyHex, pk);
	} catch {
		return false;
	}
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
