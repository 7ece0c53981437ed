// The test vectors (tests/vectors/*.json, docs/fairness.md "Test vectors"): fairness.json, each
// derivation step's inputs and outputs, and drand-rounds.json, real drand rounds and broken
// signatures. `tools/umpire-verify.mjs --vectors FILE` re-derives every one with the verifier's
// own modules, so a player can check this verifier against the file umpire's C tests use.
import { Failed, hex, unhex, sha256, equal, ascii, ZERO32 } from './bytes.js';
import { chainTop, hashTimes, CHAIN_LABEL } from './chain.js';
import { ordersDigest, turnSeed, turnMessage, dieBlocks, die, dieMessage, TURN_LABEL, DIE_LABEL } from './dice.js';
import { checkRound, randomnessOf, beaconHash, namedRound, roundAt, KNOWN_CHAINS, SCHEME } from './beacon.js';
import { checkReveals } from './close.js';
import { orderSalt, viewSalt, sealedHash } from './sealed.js';

const TWO64 = 1n << 64n;
const KNOWN = ['description', 'spec', 'version', 'labels', 'chain', 'orders_digest', 'turn_seed', 'dice', 'rejection', 'shuffle', 'sealed', 'views', 'beacon_signatures', 'beacon_rounds', 'reveals'];

/** JSON text with every integer of 16 digits or more kept exactly (as a string, read back by
 *  num() as a BigInt). Failed when it is not JSON. */
export function parseVectors(text, path) {
	try {
		return JSON.parse(text.replace(/([:[,]\s*)(\d{16,})(?=\s*[,}\]])/g, '$1"$2"'));
	} catch (e) {
		throw new Failed(`${path}: not JSON: ${e.message}`);
	}
}

/**
 * Checks the vectors v (parsed) of file path; returns { count, unknown: [sections not
 * checked] }. Failed naming the first vector that does not re-derive.
 */
export function checkVectors(v, path) {
	if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Failed(`${path}: a JSON object expected`);
	if (v.kind === 'drand-rounds') return { count: drandRounds(v, path), unknown: [] };
	let count = 0;
	const check = (cond, what) => { if (!cond) throw new Failed(`${path}: vector ${what} failed`); };
	const hx = (o, k, what) => {
		const s = o && typeof o === 'object' ? o[k] : undefined;
		if (typeof s !== 'string' || !/^([0-9a-fA-F]{2})*$/.test(s)) throw new Failed(`${path}: vector ${what}: bad or missing '${k}'`);
		return unhex(s.toLowerCase());
	};
	const num = (o, k, what) => {
		const x = o && typeof o === 'object' ? o[k] : undefined;
		if (Number.isInteger(x)) return BigInt(x);
		if (typeof x === 'string' && /^[0-9]{16,}$/.test(x)) return BigInt(x);
		throw new Failed(`${path}: vector ${what}: bad or missing '${k}'`);
	};
	const items = (o, k, what) => {
		const x = o && typeof o === 'object' ? o[k] : undefined;
		if (!Array.isArray(x) || !x.length) throw new Failed(`${path}: ${what}: '${k}' must be a non-empty list`);
		return x;
	};
	const unknown = Object.keys(v).filter((k) => !KNOWN.includes(k)).sort();
	if (v.version !== 1) throw new Failed(`${path}: version ${JSON.stringify(v.version)} (this verifier knows version 1)`);

	const labels = v.labels || {};
	for (const [name, want] of [['chain_hex', CHAIN_LABEL], ['turn_hex', TURN_LABEL], ['die_hex', DIE_LABEL]]) {
		check(equal(hx(labels, name, `labels.${name}`), want), `labels.${name}`);
		count++;
	}
	items(v, 'chain', 'chain').forEach((c, i) => {
		const what = `chain[${i}] (L=${c.chain_length})`;
		const secret = hx(c, 'secret_hex', what), length = Number(num(c, 'chain_length', what));
		const top = chainTop(secret);
		check(equal(top, hx(c, 'c_L_hex', what)), `${what} c_L`);
		const commitment = hashTimes(top, length);
		check(equal(commitment, hx(c, 'commitment_hex', what)), `${what} commitment`);
		count += 2;
		for (const k of items(c, 'turn_keys', what)) {
			const t = Number(num(k, 't', what));
			const kw = `${what} k_${t}`;
			const key = hx(k, 'key_hex', kw);
			check(equal(hashTimes(top, length - t), key), kw);
			check(equal(hashTimes(key, t), commitment), `${kw} (hashes to the commitment)`);
			check(!equal(hashTimes(key, t + 1), commitment), `${kw} (not with t+1 hashes)`);
			count++;
		}
	});
	const digests = {};
	for (const d of items(v, 'orders_digest', 'orders_digest')) {
		const what = `orders_digest ${d.name}`;
		const entries = items(d, 'players', what).map((p) => {
			const pw = `${what} player ${p.id}`;
			const h = p.file_hex !== null && p.file_hex !== undefined ? sha256(hx(p, 'file_hex', pw)) : null;
			check(equal(h || ZERO32, hx(p, 'file_sha256_hex', pw)), `${pw} file_sha256`);
			return [p.id, h];
		});
		const dg = ordersDigest(entries);
		check(equal(dg, hx(d, 'digest_hex', what)), what);
		digests[d.name] = dg;
		count++;
	}
	for (const sv of v.sealed || []) {
		const what = `sealed t=${sv.t}`;
		const secret = hx(sv, 'secret_hex', what), t = Number(num(sv, 't', what));
		const entries = items(sv, 'players', what).map((p) => {
			const pw = `${what} player ${p.id}`;
			let h = null;
			if (p.file_hex !== null && p.file_hex !== undefined) {
				const salt = orderSalt(secret, t, p.id);
				check(equal(salt, hx(p, 'salt_hex', pw)), `${pw} salt`);
				h = sealedHash(salt, hx(p, 'file_hex', pw));
			}
			check(equal(h || ZERO32, hx(p, 'sealed_sha256_hex', pw)), `${pw} sealed_sha256`);
			count++;
			return [p.id, h];
		});
		const dg = ordersDigest(entries);
		check(equal(dg, hx(sv, 'digest_hex', what)), `${what} digest`);
		digests.sealed = dg;
		count++;
	}
	for (const vv of v.views || []) {
		const secret = hx(vv, 'secret_hex', 'views'), t = Number(num(vv, 't', 'views'));
		for (const i of items(vv, 'items', 'views')) {
			const what = `views t=${t} ${i.player} ${i.item}`;
			const salt = viewSalt(secret, t, String(i.player), String(i.item));
			check(equal(salt, hx(i, 'salt_hex', what)), `${what} salt`);
			check(equal(sealedHash(salt, hx(i, 'content_hex', what)), hx(i, 'sha256_hex', what)), `${what} sha256`);
			count++;
		}
	}
	for (const s of items(v, 'turn_seed', 'turn_seed')) {
		const what = `turn_seed L=${s.chain_length} t=${s.t}`;
		const t = Number(num(s, 't', what)), key = hx(s, 'key_hex', what);
		const dg = hx(s, 'digest_hex', what), beacon = hx(s, 'beacon_hex', what);
		if (s.digest in digests) check(equal(digests[s.digest], dg), `${what} digest (named ${s.digest})`);
		check(equal(turnMessage(t, dg, beacon), hx(s, 'message_hex', what)), `${what} message`);
		check(equal(turnSeed(key, t, dg, beacon), hx(s, 'seed_hex', what)), `${what} seed`);
		count++;
	}
	const dice = v.dice && typeof v.dice === 'object' ? v.dice : {};
	const seed = hx(dice, 'seed_hex', 'dice');
	for (const c of items(dice, 'cases', 'dice')) {
		const n = num(c, 'sides', 'dice case');
		check(num(c, 'limit', `dice d${n}`) === TWO64 - (TWO64 % n), `dice d${n} limit`);
		for (const r of items(c, 'rolls', `dice d${n}`)) {
			const j = num(r, 'j', `dice d${n}`);
			const what = `dice d${n} j=${j}`;
			const { value, blocks } = dieBlocks(seed, j, n);
			check(value === num(r, 'value', what), `${what} value`);
			if ('attempts' in r) check(BigInt(blocks.length) === num(r, 'attempts', what), `${what} attempts`);
			count++;
		}
	}
	for (const r of items(v, 'rejection', 'rejection')) {
		const what = `rejection j=${r.j} d${r.sides}`;
		const seedR = hx(r, 'seed_hex', what), j = num(r, 'j', what), n = num(r, 'sides', what);
		const { value, blocks } = dieBlocks(seedR, j, n);
		check(num(r, 'limit', what) === TWO64 - (TWO64 % n), `${what} limit`);
		check(value === num(r, 'value', what), `${what} value`);
		check(BigInt(blocks.length) === num(r, 'attempts', what), `${what} attempts`);
		const want = items(r, 'blocks', what);
		check(want.length === blocks.length, `${what} number of blocks`);
		blocks.forEach((b, i) => {
			const bw = `${what} block a=${b.a}`;
			check(num(want[i], 'a', bw) === BigInt(b.a), `${bw} a`);
			check(equal(hx(want[i], 'message_hex', bw), dieMessage(j, b.a)), `${bw} message`);
			check(num(want[i], 'x', bw) === b.x && want[i].x_hex === b.x.toString(16).padStart(16, '0'), `${bw} x`);
			check(want[i].accepted === b.accepted, `${bw} accepted`);
		});
		count++;
	}
	for (const s of items(v, 'shuffle', 'shuffle')) {
		const seedS = hx(s, 'seed_hex', 'shuffle'), m = Number(num(s, 'm', 'shuffle'));
		const what = `shuffle m=${m}`;
		const perm = [...Array(m).keys()];
		const want = items(s, 'dice', what);
		check(want.length === m - 1, `${what} number of dice`);
		let j = 0;
		for (let i = m - 1; i >= 1; i--, j++) {
			const d = want[j];
			const r = die(seedS, j, i + 1);
			check(num(d, 'j', what) === BigInt(j) && num(d, 'sides', what) === BigInt(i + 1) && num(d, 'value', what) === r, `${what} die j=${j}`);
			[perm[i], perm[Number(r) - 1]] = [perm[Number(r) - 1], perm[i]];
		}
		check(JSON.stringify(s.perm) === JSON.stringify(perm), `${what} permutation`);
		count++;
	}
	for (const b of v.beacon_rounds || []) {
		const what = `beacon_rounds ${b.beacon}`;
		const [g, p, d, at] = ['genesis', 'period', 'delay', 'closed_at'].map((k) => Number(num(b, k, what)));
		const r = namedRound(g, p, d, at);
		check(BigInt(r) === num(b, 'round', what), `${what} round`);
		check(BigInt(roundAt(g, p, r)) === num(b, 'round_at', what), `${what} round_at`);
		count++;
	}
	for (const rv of v.reveals || []) {
		const what = `reveals ${JSON.stringify(String(rv.text || '').slice(0, 24))}`;
		const players = items(rv, 'players', what);
		const close = { orders: players.map((p) => ({ player: p.player, entropy: hx(p, 'commitment_hex', what) })) };
		let got;
		try {
			got = checkReveals(close, String(rv.text));
		} catch (e) {
			throw new Failed(`${path}: vector ${what} failed: ${e.message}`);
		}
		const open = players.filter((p) => p.nonce_hex !== null).map((p) => p.player);
		check(got.revealed.join(' ') === open.join(' ') && got.standing.join(' ') === players.filter((p) => p.nonce_hex === null).map((p) => p.player).join(' '), `${what} players`);
		check(equal(beaconHash(String(rv.text)), hx(rv, 'beacon_hex', what)), `${what} beacon`);
		count++;
	}
	for (const sv of v.beacon_signatures || []) {
		const what = `beacon_signatures round ${sv.round}`;
		const rand = sv && typeof sv === 'object' ? sv.randomness : undefined;
		check(typeof rand === 'string', `${what} randomness`);
		check(hex(sha256(hx(sv, 'signature_hex', what))) === rand, `${what} randomness`);
		check(equal(sha256(ascii(rand)), hx(sv, 'beacon_hex', what)), `${what} beacon`);
		count++;
	}
	return { count, unknown };
}

/** drand-rounds.json: every valid round passes the BLS check under its chain's key and its
 *  randomness is SHA256 of its signature; every invalid one fails for the reason recorded. */
function drandRounds(v, path) {
	if (v.version !== 1 || v.scheme !== SCHEME) {
		throw new Failed(`${path}: version ${JSON.stringify(v.version)}, scheme ${JSON.stringify(v.scheme)} (version 1, ${SCHEME} expected)`);
	}
	let count = 0;
	for (const e of [...(v.valid || []), ...(v.invalid || [])]) {
		const chain = v.chains && v.chains[e.chain];
		if (!chain) throw new Failed(`${path}: malformed vectors (no chain ${e.chain})`);
		const key = chain.public_key;
		const known = KNOWN_CHAINS[e.chain];
		if (known && known.key !== key) throw new Failed(`${path}: chain ${e.chain}'s key is not ${known.name}'s`);
		const why = checkRound(key, BigInt(e.round), String(e.signature));
		const what = `round ${e.round} of chain ${String(e.chain).slice(0, 16)}`;
		if ('why' in e) {
			if (why === null || !why.includes(e.why)) throw new Failed(`${path}: vector ${what} (${e.what}): ${why || 'ok'}, not '${e.why}'`);
		} else if (why !== null || randomnessOf(String(e.signature)) !== e.randomness) {
			throw new Failed(`${path}: vector ${what}: ${why || 'randomness'}`);
		}
		count++;
	}
	return count;
}

