// The verifier's derivation against tests/vectors/fairness.json and its BLS check against
// tests/vectors/drand-rounds.json (real drand quicknet rounds and broken signatures), with
// node's test runner. Integers above 2^53 are read exactly (as BigInt).
import '../src/node-crypto.js'; // first: Web Crypto for node 18
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { hex, unhex, ascii, sha256, equal, be64 } from '../src/bytes.js';
import { chainTop, hashTimes, keyChains, CHAIN_LABEL } from '../src/chain.js';
import { ordersDigest, turnSeed, turnMessage, dieBlocks, die, dieMessage, shuffle, TURN_LABEL, DIE_LABEL } from '../src/dice.js';
import { checkRound, RoundBatch, useWorkers, unclearedHash, DST, randomnessOf, beaconHash, namedRound, roundAt, KNOWN_CHAINS } from '../src/beacon.js';
import { nodePool } from '../src/node-workers.js';
import { bls12_381 } from '@noble/curves/bls12-381';
import { orderSalt, viewSalt, sealedHash } from '../src/sealed.js';
import { checkReveals } from '../src/close.js';
import { turnList, decide, verdictLines } from '../src/verdict.js';

const vectors = (name) => {
	const text = readFileSync(fileURLToPath(new URL(`../../tests/vectors/${name}`, import.meta.url)), 'utf8');
	return JSON.parse(text.replace(/([:\[,]\s*)(\d{16,})(?=\s*[,}\]])/g, '$1"$2"'));
};
const V = vectors('fairness.json');
const D = vectors('drand-rounds.json');

test('labels', () => {
	assert.equal(hex(CHAIN_LABEL), V.labels.chain_hex);
	assert.equal(hex(TURN_LABEL), V.labels.turn_hex);
	assert.equal(hex(DIE_LABEL), V.labels.die_hex);
});

test('chain: c_L, the commitment and every turn key', () => {
	for (const c of V.chain) {
		const top = chainTop(unhex(c.secret_hex));
		assert.equal(hex(top), c.c_L_hex);
		const C = hashTimes(top, Number(c.chain_length));
		assert.equal(hex(C), c.commitment_hex);
		for (const k of c.turn_keys) {
			assert.equal(hex(hashTimes(top, Number(c.chain_length) - k.t)), k.key_hex);
			assert.ok(keyChains(unhex(k.key_hex), k.t, C));
			assert.ok(!keyChains(unhex(k.key_hex), k.t + 1, C));
		}
	}
});

test('orders digest (byte order of ids, zeros for no file, an empty file is a file)', () => {
	for (const d of V.orders_digest) {
		const entries = d.players.map((p) => {
			const h = p.file_hex === null ? null : sha256(unhex(p.file_hex));
			assert.equal(hex(h || new Uint8Array(32)), p.file_sha256_hex, `${d.name} ${p.id}`);
			return [p.id, h];
		});
		assert.equal(hex(ordersDigest(entries)), d.digest_hex, d.name);
	}
});

test('sealed files and views: salts and salted commitments', () => {
	for (const s of V.sealed) {
		const secret = unhex(s.secret_hex);
		const entries = s.players.map((p) => {
			let h = null;
			if (p.file_hex !== null) {
				const salt = orderSalt(secret, s.t, p.id);
				assert.equal(hex(salt), p.salt_hex);
				h = sealedHash(salt, unhex(p.file_hex));
			}
			assert.equal(hex(h || new Uint8Array(32)), p.sealed_sha256_hex);
			return [p.id, h];
		});
		assert.equal(hex(ordersDigest(entries)), s.digest_hex);
	}
	for (const v of V.views) {
		for (const i of v.items) {
			const salt = viewSalt(unhex(v.secret_hex), v.t, i.player, i.item);
			assert.equal(hex(salt), i.salt_hex);
			assert.equal(hex(sealedHash(salt, unhex(i.content_hex))), i.sha256_hex);
		}
	}
});

test('turn seeds', () => {
	for (const s of V.turn_seed) {
		const [k, dg, b] = [unhex(s.key_hex), unhex(s.digest_hex), unhex(s.beacon_hex)];
		assert.equal(hex(turnMessage(s.t, dg, b)), s.message_hex);
		assert.equal(hex(turnSeed(k, s.t, dg, b)), s.seed_hex);
	}
});

test('dice, every size and index, with the number of blocks', () => {
	const seed = unhex(V.dice.seed_hex);
	let n = 0;
	for (const c of V.dice.cases) {
		for (const r of c.rolls) {
			const { value, blocks, limit } = dieBlocks(seed, r.j, BigInt(c.sides));
			assert.equal(limit, BigInt(c.limit));
			assert.equal(value, BigInt(r.value), `d${c.sides} j=${r.j}`);
			if (r.attempts !== undefined) assert.equal(blocks.length, Number(r.attempts));
			n++;
		}
	}
	assert.ok(n >= 50);
	assert.throws(() => die(seed, 0, 1n), RangeError);
	assert.throws(() => die(seed, 0, 1n << 64n), RangeError);
});

test('rejection sampling, block by block', () => {
	for (const r of V.rejection) {
		const { value, blocks } = dieBlocks(unhex(r.seed_hex), r.j, BigInt(r.sides));
		assert.equal(value, BigInt(r.value));
		assert.equal(blocks.length, r.blocks.length);
		r.blocks.forEach((b, i) => {
			assert.equal(hex(dieMessage(r.j, b.a)), b.message_hex);
			assert.equal(blocks[i].x, BigInt(b.x));
			assert.equal(blocks[i].x.toString(16).padStart(16, '0'), b.x_hex);
			assert.equal(blocks[i].accepted, b.accepted);
		});
	}
});

test('Fisher-Yates shuffle', () => {
	for (const s of V.shuffle) {
		const { perm, dice } = shuffle(unhex(s.seed_hex), s.m);
		assert.deepEqual(perm, s.perm);
		assert.deepEqual(dice, s.dice.map((d) => ({ j: d.j, sides: d.sides, value: d.value })));
	}
});

test('the round a close names, out strictly after it', () => {
	for (const b of V.beacon_rounds) {
		const r = namedRound(b.genesis, b.period, b.delay, b.closed_at);
		assert.equal(r, b.round, b.beacon);
		assert.equal(roundAt(b.genesis, b.period, r), b.round_at);
	}
});

test("players' reveals text and its B_t", () => {
	for (const v of V.reveals) {
		const close = { orders: v.players.map((p) => ({ player: p.player, entropy: unhex(p.commitment_hex) })) };
		const { standing, revealed } = checkReveals(close, v.text);
		assert.deepEqual(standing, v.players.filter((p) => p.nonce_hex === null).map((p) => p.player));
		assert.deepEqual(revealed, v.players.filter((p) => p.nonce_hex !== null).map((p) => p.player));
		assert.equal(hex(beaconHash(v.text)), v.beacon_hex);
		// a nonce one bit off no longer opens its commitment
		assert.throws(() => checkReveals(close, v.text.replace(/0101$/, '0100')), /does not hash/);
	}
});

test("beacon signatures: randomness = SHA-256(signature), B_t = SHA-256(randomness)", () => {
	for (const s of V.beacon_signatures) {
		assert.equal(randomnessOf(s.signature_hex), s.randomness);
		assert.equal(hex(beaconHash(s.randomness)), s.beacon_hex);
		assert.ok(!checkRound(KNOWN_CHAINS[Object.keys(KNOWN_CHAINS)[0]].key, s.round, s.signature_hex));
	}
});

test('drand rounds: every valid round passes the BLS check, every broken one fails for its reason', () => {
	assert.equal(D.scheme, 'bls-unchained-g1-rfc9380');
	for (const [h, c] of Object.entries(D.chains)) if (KNOWN_CHAINS[h]) assert.equal(KNOWN_CHAINS[h].key, c.public_key);
	for (const e of D.valid) {
		assert.equal(checkRound(D.chains[e.chain].public_key, e.round, e.signature), null, `round ${e.round}`);
		assert.equal(randomnessOf(e.signature), e.randomness);
	}
	for (const e of D.invalid) {
		const why = checkRound(D.chains[e.chain].public_key, e.round, e.signature);
		assert.ok(why && why.includes(e.why), `${e.what}: ${why}`);
	}
});

// One test for both homes of a batch's shares: this thread (no pool) and two node workers.
const batchTest = async (t, pool) => {
	useWorkers(pool);
	t.after(() => useWorkers(null));
	const quick = Object.keys(D.chains).find((h) => D.valid.filter((e) => e.chain === h).length > 1);
	const key = D.chains[quick].public_key;
	const good = D.valid.filter((e) => e.chain === quick);
	const b = new RoundBatch(key);
	good.forEach((e, i) => assert.equal(b.add(i, BigInt(e.round), e.signature), null));
	assert.equal(b.size, good.length);
	assert.equal(await b.settle(), null);
	assert.equal(b.size, 0);
	assert.equal(await b.settle(), null); // nothing kept: nothing to fail
	for (const e of D.invalid.filter((x) => x.chain === quick)) {
		const alone = checkRound(key, BigInt(e.round), e.signature);
		good.forEach((g, i) => b.add(`good ${i}`, BigInt(g.round), g.signature));
		assert.equal(b.add('bad', BigInt(e.round), e.signature), null, e.what); // kept, checked at settle()
		b.add('after', BigInt(good[0].round), good[0].signature);
		const got = await b.settle();
		assert.equal(await b.settle(), null, e.what); // nothing kept once the bad one was named
		assert.equal(got.key, 'bad', e.what);
		assert.equal(got.why, alone, e.what);
		assert.ok(got.why.includes(e.why), `${e.what}: ${got.why}`);
	}
	// a batch of many chunks (rounds handed out 32 at a time as they are added): the first bad
	// round in order is named, a bad decoding after a bad pairing as one before it
	const pairing = D.invalid.find((x) => x.chain === quick && x.why.includes('pairing'));
	const decoding = D.invalid.find((x) => x.chain === quick && x.why.includes('not a point'));
	const many = (n) => { for (let i = 0; i < n; i++) b.add(`good ${i}`, BigInt(good[i % good.length].round), good[i % good.length].signature); };
	for (const [first, second] of [[pairing, decoding], [decoding, pairing]]) {
		many(70);
		b.add('first bad', BigInt(first.round), first.signature);
		many(40);
		b.add('second bad', BigInt(second.round), second.signature);
		many(20);
		assert.deepEqual(await b.settle(), { key: 'first bad', round: BigInt(first.round), signature: first.signature, why: checkRound(key, BigInt(first.round), first.signature) });
	}
	many(100);
	assert.equal(await b.settle(), null);
};

test('drand rounds in one batch (RoundBatch), in this thread: good ones pass together, the first bad one is named as checkRound names it', (t) => batchTest(t, null));

test('drand rounds in one batch (RoundBatch), on two worker threads: the same answers', async (t) => {
	const pool = nodePool(2);
	await batchTest(t, pool);
	assert.ok(pool.workers && pool.workers.length === 2, 'the batches ran on the workers');
	assert.equal(pool.broken, null);
});

test('H(m) of a round: unclearedHash cleared is @noble/curves\' hash_to_curve', () => {
	for (const r of [1n, 2n, 657413n, 5928395n]) {
		const want = bls12_381.shortSignatures.hash(sha256(be64(r)), DST);
		assert.ok(unclearedHash(r).clearCofactor().equals(want), `round ${r}`);
	}
});

test('the verdict: TURNS lists, the order of reasons, exit statuses', () => {
	assert.equal(turnList([7, 1, 2, 3]), '1-3, 7');
	assert.equal(turnList([4]), '4');
	const v = decide({ 'no-schedule': {}, 'entropy-none': {}, 'unwitnessed-close': { turns: [2, 1] } }, null);
	assert.equal(v.exit, 3);
	assert.deepEqual(v.reasons.map((r) => r.code), ['entropy-none', 'no-schedule', 'unwitnessed-close']);
	assert.deepEqual(v.reasons[2].turns, [1, 2]);
	assert.deepEqual(verdictLines(decide({}, null)), ['verdict: fair']);
	assert.equal(decide({ 'unwitnessed-close': { turns: [] } }, null).exit, 0);
	assert.deepEqual(verdictLines(decide({ 'entropy-none': {} }, 'turn 2: broken')), ['verify: FAILED: turn 2: broken', 'verdict: failed']);
});

test('a flipped die value or digest byte is caught (the checks can fail)', () => {
	const seed = unhex(V.dice.seed_hex);
	assert.notEqual(die(seed, 3, 6n), BigInt(V.dice.cases[1].rolls[3].value) % 6n + 1n);
	const d = V.orders_digest[0];
	const entries = d.players.map((p) => [p.id, p.file_hex === null ? null : sha256(unhex(p.file_hex + '0a'))]);
	assert.ok(!equal(ordersDigest(entries), unhex(d.digest_hex)));
	assert.ok(!equal(ascii('x'), ascii('y')));
});

test('--vectors (vectors.js): every vector of both files re-derives; one changed value is named', async () => {
	const { checkVectors, parseVectors } = await import('../src/vectors.js');
	const text = (name) => readFileSync(fileURLToPath(new URL(`../../tests/vectors/${name}`, import.meta.url)), 'utf8');
	const f = checkVectors(parseVectors(text('fairness.json'), 'f'), 'f');
	assert.ok(f.count >= 100);
	assert.deepEqual(f.unknown, []);
	assert.equal(checkVectors(parseVectors(text('drand-rounds.json'), 'd'), 'd').count, 17);
	const bad = parseVectors(text('fairness.json'), 'b');
	bad.dice.cases[0].rolls[0].value = (Number(bad.dice.cases[0].rolls[0].value) % Number(bad.dice.cases[0].sides)) + 1;
	assert.throws(() => checkVectors(bad, 'b'), /vector dice d\d+ j=\d+ value failed/);
	assert.throws(() => parseVectors('{', 'x'), /x: not JSON/);
});
