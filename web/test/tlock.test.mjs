// umpire-tlock (tools/umpire-tlock.mjs and its bundle build/web/umpire-tlock.mjs, issue 36):
// every command and every refusal, by running the command line as umpire does; and interop
// with drand's own tlock both ways: files drand's tools made (tests/vectors/tlock/) open, and
// files it seals open with tlock-js's own timelockDecrypt; on real quicknet rounds
// (tests/vectors/drand-rounds.json) and on the demo beacon (tools/demo-beacon signs).
import '../src/node-crypto.js'; // first: Web Crypto for node 18
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { timelockEncrypt, timelockDecrypt, Buffer } from 'tlock-js';
import { createTimelockEncrypter } from 'tlock-js/drand/timelock-encrypter.js';
import { Encrypter, armor } from 'age-encryption';
import { offlineClient, inspect, seal, open, keygen, TlockError } from '../src/tlock.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const V = JSON.parse(readFileSync(path.join(ROOT, 'tests/vectors/tlock/vectors.json'), 'utf8'));
const D = JSON.parse(readFileSync(path.join(ROOT, 'tests/vectors/drand-rounds.json'), 'utf8'));
const QN = V.chains.quicknet, DEMO = V.chains['demo-beacon'];
const Q = D.valid.find((r) => r.chain === QN.hash && r.round === 657413);
const Q3 = D.valid.find((r) => r.chain === QN.hash && r.round === 3);
const TMP = mkdtempSync(path.join(tmpdir(), 'umpire-tlock-test-'));
process.on('exit', () => rmSync(TMP, { recursive: true, force: true }));
const tmp = (name, data) => {
	const p = path.join(TMP, name);
	if (data !== undefined) writeFileSync(p, data);
	return p;
};
const QN_INFO = tmp('quicknet.json', JSON.stringify(QN));
const DEMO_INFO = tmp('demo.json', JSON.stringify(DEMO));
const ORDERS = Buffer.from('# orders of north for turn 3\nturn: 3\nplayer: north\norders:\n  - unit: 1-inf\n    move: [4, 7]\n');

// The command lines tested: the source, and the bundle umpire runs when make web built it.
const TOOLS = [path.join(ROOT, 'tools/umpire-tlock.mjs')];
if (existsSync(path.join(ROOT, 'build/web/umpire-tlock.mjs'))) TOOLS.push(path.join(ROOT, 'build/web/umpire-tlock.mjs'));

/** run(args, stdin, tool): {code, out (Buffer), err (string)} of one umpire-tlock run. */
function run(args, stdin = Buffer.alloc(0), tool = TOOLS[0]) {
	const r = spawnSync(process.execPath, [tool, ...args], { input: stdin, maxBuffer: 64 << 20 });
	return { code: r.status, out: r.stdout, err: r.stderr.toString() };
}
const refused = (r, code, re) => {
	assert.equal(r.code, code, `exit ${r.code}, ${code} expected (${r.err})`);
	assert.equal(r.out.length, 0, 'nothing on stdout when refused');
	assert.match(r.err, re);
	assert.equal(r.err.trim().split('\n')[0].startsWith('umpire-tlock: '), true);
};

/** The demo beacon's signature of round r, from tools/demo-beacon (null without the BLS helper). */
function demoSignature(r) {
	const bls = process.env.UMPIRE_BLS || path.join(ROOT, 'build/release/umpire-bls');
	if (!existsSync(bls)) return null;
	const p = spawnSync(path.join(ROOT, 'tools/demo-beacon'), [String(r)], { env: { ...process.env, UMPIRE_BLS: bls } });
	assert.equal(p.status, 0, p.stderr.toString());
	const [randomness, signature] = p.stdout.toString().trim().split('\n');
	return { round: r, randomness, signature };
}

// A file sealed by tlock-js's own API to quicknet round 657413 (reused below).
const QSEALED = await timelockEncrypt(Q.round, ORDERS, offlineClient(QN));

// Every refusal through the source; the bundle (what umpire runs) seals, opens and inspects.
for (const tool of TOOLS) {
	const name = path.relative(ROOT, tool);
	const full = tool === TOOLS[0];
	if (full) test(`${name}: inspect names the round and chain; refuses what is not one tlock stanza`, () => {
		const r = run(['inspect', tmp('q.age', QSEALED)], undefined, tool);
		assert.equal(r.code, 0, r.err);
		assert.equal(r.out.toString(), `round ${Q.round}\nchain ${QN.hash}\n`);
		refused(run(['inspect', tmp('plain.yaml', ORDERS)], undefined, tool), 65, /not an armored age file/);
		refused(run(['inspect', path.join(TMP, 'absent.age')], undefined, tool), 66, /no such file/);
		refused(run(['inspect'], undefined, tool), 64, /inspect takes one FILE/);
		refused(run(['frobnicate'], undefined, tool), 64, /unknown command/);
	});

	test(`${name}: seal then open (quicknet round ${Q.round}, its recorded signature)`, () => {
		const s = run(['seal', '--round', String(Q.round), '--chain-info', QN_INFO], ORDERS, tool);
		assert.equal(s.code, 0, s.err);
		assert.match(s.out.toString(), /^-----BEGIN AGE ENCRYPTED FILE-----\n/);
		assert.ok(!s.out.includes(Buffer.from('north')), 'the ciphertext does not show the orders');
		const o = run(['open', '--round', String(Q.round), '--signature', Q.signature, '--chain-info', QN_INFO], s.out, tool);
		assert.equal(o.code, 0, o.err);
		assert.deepEqual(o.out, ORDERS);
	});

	if (full) test(`${name}: open refuses a wrong round, chain, signature, damaged armour`, () => {
		const args = (round, sig, info) => ['open', '--round', String(round), '--signature', sig, '--chain-info', info];
		const f = Buffer.from(QSEALED);
		refused(run(args(Q.round + 1, Q.signature, QN_INFO), f, tool), 65, /locked to round 657413, not round 657414/);
		refused(run(args(Q.round, Q.signature, DEMO_INFO), f, tool), 65, /locked to chain 52db9ba7.*, not chain 50607b1c/);
		refused(run(args(Q.round, Q3.signature, QN_INFO), f, tool), 65, /does not open with round 657413's signature/);
		// one base64 character changed inside the body, then the end line cut off
		const lines = QSEALED.split('\n');
		const i = lines.length - 3;
		lines[i] = (lines[i][0] === 'A' ? 'B' : 'A') + lines[i].slice(1);
		refused(run(args(Q.round, Q.signature, QN_INFO), Buffer.from(lines.join('\n')), tool), 65, /does not open|damaged|not an age file/);
		refused(run(args(Q.round, Q.signature, QN_INFO), Buffer.from(QSEALED.replace('-----END AGE ENCRYPTED FILE-----\n', '')), tool), 65, /damaged armour/);
		refused(run(args(Q.round, Q.signature, QN_INFO), Buffer.from(QSEALED.replace('\n', '\n!!!!\n')), tool), 65, /damaged armour/);
		refused(run(args(Q.round, 'zz', QN_INFO), f, tool), 64, /--signature takes 96 hex digits/);
		refused(run(['open', '--round', String(Q.round), '--chain-info', QN_INFO], f, tool), 64, /--signature HEX is required/);
		refused(run(args(Q.round, Q.signature, path.join(TMP, 'none.json')), f, tool), 66, /no such file/);
		refused(run(args(Q.round, Q.signature, tmp('bad-info.json', '{"hash": 1}')), f, tool), 65, /public_key/);
	});

	if (full) test(`${name}: keygen, then a sealed file (inner layer to the recipient)`, () => {
		const k = run(['keygen'], undefined, tool);
		assert.equal(k.code, 0, k.err);
		const m = /^(AGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58})\n# public key: (age1[02-9ac-hj-np-z]{58})\n$/.exec(k.out.toString());
		assert.ok(m, k.out.toString());
		const idFile = tmp('id.txt', k.out);
		const s = run(['seal', '--round', String(Q.round), '--chain-info', QN_INFO, '--recipient', m[2]], ORDERS, tool);
		assert.equal(s.code, 0, s.err);
		const base = ['open', '--round', String(Q.round), '--signature', Q.signature, '--chain-info', QN_INFO];
		// without --identity: the inner armored age file, to the recipient (not the orders)
		const outer = run(base, s.out, tool);
		assert.equal(outer.code, 0, outer.err);
		assert.match(outer.out.toString(), /^-----BEGIN AGE ENCRYPTED FILE-----\n/);
		assert.ok(!outer.out.includes(Buffer.from('north')));
		const both = run([...base, '--identity', idFile], s.out, tool);
		assert.equal(both.code, 0, both.err);
		assert.deepEqual(both.out, ORDERS);
		// another identity: refused; an identity for a file with no inner layer: refused
		const other = tmp('other.txt', run(['keygen'], undefined, tool).out);
		refused(run([...base, '--identity', other], s.out, tool), 65, /inner age file does not open/);
		refused(run([...base, '--identity', idFile], Buffer.from(QSEALED), tool), 65, /not an armored age file/);
		refused(run([...base, '--identity', tmp('notid.txt', 'hello\n')], s.out, tool), 65, /not an age identity file/);
		refused(run(['seal', '--round', '1', '--chain-info', QN_INFO, '--recipient', 'age1nope'], ORDERS, tool), 65, /not an age X25519 recipient/);
		refused(run(['seal', '--round', '0', '--chain-info', QN_INFO], ORDERS, tool), 64, /--round/);
	});
}

test('inspect refuses two stanzas, and a stanza that is not tlock', async () => {
	const client = offlineClient(QN);
	const tl = createTimelockEncrypter(client, Q.round);
	// the tlock stanza as a typage recipient (tlock-js writes no file of two stanzas)
	const tlockRecipient = { wrapFileKey: async (fk) => (await tl(fk)).map((s) => ({ args: ['tlock', ...s.args], body: s.body })) };
	const typage = new Encrypter();
	typage.addRecipient(tlockRecipient);
	const one = armor.encode(await typage.encrypt(ORDERS));
	assert.deepEqual(Buffer.from(await open(Buffer.from(one), { round: Q.round, signature: Q.signature, info: QN })), ORDERS);
	typage.addRecipient(tlockRecipient);
	const two = armor.encode(await typage.encrypt(ORDERS));
	assert.throws(() => inspect(Buffer.from(two)), /2 recipient stanzas \(expected exactly one, tlock's\)/);
	refused(run(['inspect', tmp('two.age', two)]), 65, /2 recipient stanzas/);
	const { recipient } = await keygen();
	const e = new Encrypter();
	e.addRecipient(recipient);
	const x = armor.encode(await e.encrypt(ORDERS));
	assert.throws(() => inspect(Buffer.from(x)), /the recipient stanza is "X25519" \(expected tlock\)/);
	await assert.rejects(open(Buffer.from(two), { round: Q.round, signature: Q.signature, info: QN }), TlockError);
});

test("drand's vectors (tests/vectors/tlock/) open with umpire-tlock open", () => {
	for (const v of V.files) {
		const info = tmp(`${v.chain}.json`, JSON.stringify(V.chains[v.chain]));
		const bytes = readFileSync(path.join(ROOT, 'tests/vectors/tlock', v.file));
		const i = run(['inspect', path.join(ROOT, 'tests/vectors/tlock', v.file)]);
		assert.equal(i.out.toString(), `round ${v.round}\nchain ${V.chains[v.chain].hash}\n`, v.file);
		for (const tool of TOOLS) {
			const o = run(['open', '--round', String(v.round), '--signature', v.signature, '--chain-info', info], bytes, tool);
			assert.equal(o.code, 0, `${v.file}: ${o.err}`);
			assert.equal(o.out.toString('utf8'), v.plaintext, v.file);
		}
	}
});

test("files umpire-tlock seals open with tlock-js's timelockDecrypt (it checks the round's signature)", async () => {
	const s = run(['seal', '--round', String(Q.round), '--chain-info', QN_INFO], ORDERS);
	assert.equal(s.code, 0, s.err);
	const plain = await quiet(() => timelockDecrypt(s.out.toString(), offlineClient(QN, { [Q.round]: Q })));
	assert.deepEqual(Buffer.from(plain), ORDERS);
	// and a wrong signature makes tlock-js refuse it too
	await assert.rejects(quiet(() => timelockDecrypt(s.out.toString(), offlineClient(QN, { [Q.round]: { ...Q3, round: Q.round } }))));
});

test('the demo beacon: seal to round R, open with the signature tools/demo-beacon prints', async (t) => {
	const R = 1000; // 2026-01-01T00:49:57Z: tlock-js's own decrypter refuses a round later than the clock
	const b = demoSignature(R);
	if (!b) return t.skip('no BLS helper (make builds build/release/umpire-bls; or set UMPIRE_BLS)');
	const s = run(['seal', '--round', String(R), '--chain-info', DEMO_INFO], ORDERS);
	assert.equal(s.code, 0, s.err);
	assert.equal(run(['inspect', tmp('demo.age', s.out)]).out.toString(), `round ${R}\nchain ${DEMO.hash}\n`);
	for (const tool of TOOLS) {
		const o = run(['open', '--round', String(R), '--signature', b.signature, '--chain-info', DEMO_INFO], s.out, tool);
		assert.equal(o.code, 0, o.err);
		assert.deepEqual(o.out, ORDERS);
	}
	// a round far in the future opens too once its signature is given (umpire's clock decides)
	const far = demoSignature(2_000_000_000);
	const sf = await seal(ORDERS, { round: far.round, info: DEMO });
	assert.deepEqual(Buffer.from(await open(Buffer.from(sf), { round: far.round, signature: far.signature, info: DEMO })), ORDERS);
	// tlock-js opens it too, checking the demo beacon's signature as a quicknet one
	const plain = await quiet(() => timelockDecrypt(s.out.toString(), offlineClient(DEMO, { [R]: b })));
	assert.deepEqual(Buffer.from(plain), ORDERS);
	refused(run(['open', '--round', String(R), '--signature', demoSignature(R + 1).signature, '--chain-info', DEMO_INFO], s.out), 65, /does not open/);
});

/** quiet(f): f() with console.log silenced (tlock-js's decrypter logs every beacon it gets). */
async function quiet(f) {
	const log = console.log;
	console.log = () => {};
	try {
		return await f();
	} finally {
		console.log = log;
	}
}

test('R(turn) from campaign.yaml: integer arithmetic, the first round at or after the time, the overrides moving it', async () => {
	const { readCampaign, readOverrides, turnRound, formerRounds, parseUtc, parseDuration, firstRound } = await import('../src/campaign.js');
	const { Failed } = await import('../src/bytes.js');
	// parseUtc against the platform's calendar, day by day over leap years and centuries
	for (let d = 0; d < 200 * 365; d += 97) {
		const t = new Date(Date.UTC(1970, 0, 1) + d * 86400000 + 45296000).toISOString().replace('.000Z', 'Z');
		assert.equal(parseUtc(t), Date.parse(t) / 1000, t);
	}
	assert.equal(parseUtc('2026-12-06T18:00Z'), 1796580000);
	for (const bad of ['2026-02-29T00:00Z', '2026-13-01T00:00Z', '2026-12-06 18:00Z', '1969-12-31T23:59:59Z', '2026-12-06T24:00Z'])
		assert.equal(parseUtc(bad), null, bad);
	assert.equal(parseDuration('90'), 90);
	assert.equal(parseDuration('45m'), 2700);
	assert.equal(parseDuration('7d'), 604800);
	assert.equal(parseDuration('1w'), null);
	const R = 'age1' + 'q'.repeat(58);
	const yaml = (extra) => Buffer.from(`id: x\nrules: hm-events\nplayers:\n- id: a\nfairness:\n  commitment: ${'ab'.repeat(32)}\n  chain_length: 10\n  fair: true\n  entropy: beacon\n  beacon: umpire demo beacon\n  beacon_genesis: 1000\n  beacon_period: 3\n  beacon_delay: 600\n  beacon_chain: ${DEMO.hash}\n  beacon_scheme: bls-unchained-g1-rfc9380\n  beacon_public_key: ${DEMO.public_key}\n  beacon_demo: true\nvisibility: sealed\n${extra}`);
	const c = readCampaign(yaml(`schedule:\n  first_deadline: 1970-01-01T01:00:00Z\n  every: 1h\n  grace: 10m\norders: timelocked\ntimelock:\n  recipient: ${R}\n`));
	assert.equal(c.timelocked, true);
	assert.equal(c.recipient, R);
	assert.deepEqual(c.info, { public_key: DEMO.public_key, period: 3, genesis_time: 1000, hash: DEMO.hash, schemeID: 'bls-unchained-g1-rfc9380', metadata: { beaconID: 'umpire-demo' } });
	// turn 1: 3600 + 600 + 300 + 600 = 5100 = 1000 + 3 * 1366 + 2: the round out at 5101, 1368
	assert.equal(turnRound(c, 1), 1368);
	// turn 2: 8700 = 1000 + 3 * 2566 + 2: round 2568 (out at 8701)
	assert.equal(turnRound(c, 2), 2568);
	// at a round's own time: that round; at or before genesis: round 1
	assert.equal(firstRound(c, 1000 + 3 * 10), 11);
	assert.equal(firstRound(c, 1000), 1);
	assert.equal(firstRound(c, 0), 1);
	assert.throws(() => turnRound(c, 0), Failed);
	// the overrides (src/core pbem_deadline): an extension of 1h made in turn 2 and a pause of
	// 2h in turn 3 move turn 2 by 1h, turn 3 and later by 3h; turn 1 stays
	readOverrides(c, Buffer.from('overrides:\n- turn: 2\n  kind: extend\n  at: 4000\n  at_utc: "1970-01-01T01:06:40Z"\n  player: a\n  shift: 3600\n  reason: asked\n- turn: 3\n  kind: pause\n  at: 9000\n  at_utc: "1970-01-01T02:30:00Z"\n  shift: 7200\n  until: 16200\n  reason: holidays\n'), 'overrides.yaml');
	assert.equal(turnRound(c, 1), 1368);
	assert.equal(turnRound(c, 2), 2568 + 1200);
	assert.equal(turnRound(c, 3), firstRound(c, 3600 * 3 + 10800 + 1500));
	assert.deepEqual(formerRounds(c, 3), [firstRound(c, 3600 * 3 + 1500), firstRound(c, 3600 * 3 + 3600 + 1500)]);
	assert.deepEqual(formerRounds(c, 1), []);
	assert.throws(() => readCampaign(yaml('orders: timelocked\n')), /needs a schedule/);
	assert.throws(() => readCampaign(yaml('schedule:\n  first_deadline: 1970-01-01T01:00:00Z\norders: timelocked\n')), /needs timelock.recipient/);
	assert.equal(readCampaign(yaml('')).timelocked, false);
});

test("the JavaScript verifier: a close's time-locked files, opened with the round's signature", async () => {
	const { checkTimelockedFiles, isTimelockedFile, playerOf } = await import('../src/timelock-verify.js');
	const { readCampaign: campaignOf } = await import('../src/campaign.js');
	const { Failed, sha256 } = await import('../src/bytes.js');
	const kp = await keygen(), recipient = kp.recipient;
	const yaml = (vis) => Buffer.from(`id: x\nrules: hm-events\nplayers:\n- id: north\n- id: south\n- id: west\noptions: {}\nfairness:\n  commitment: ${'ab'.repeat(32)}\n  chain_length: 10\n  fair: true\n  entropy: beacon\n  beacon: drand quicknet\n  beacon_genesis: ${QN.genesis_time}\n  beacon_period: 3\n  beacon_delay: 600\n  beacon_chain: ${QN.hash}\n  beacon_scheme: bls-unchained-g1-rfc9380\n  beacon_public_key: ${QN.public_key}\nschedule:\n  first_deadline: 2023-01-01T00:00:00Z\nvisibility: ${vis}\norders: timelocked\n${vis === 'sealed' ? `timelock:\n  recipient: ${recipient}\n` : ''}`);
	const camp = campaignOf(yaml('open'));
	const orders = (p, t) => Buffer.from(`campaign: x\nturn: ${t}\nplayer: ${p}\norders: []\n`);
	const files = {
		'north.yaml.age': Buffer.from(await seal(orders('north', 2), { round: Q.round, info: QN })),
		'south.age': Buffer.from(await seal(orders('west', 2), { round: Q.round, info: QN })), // another player's orders
		'west.age': Buffer.from(await seal(orders('west', 2), { round: Q.round + 1, info: QN })), // another round
	};
	const close = { orders: Object.entries(files).map(([n, b]) => ({ player: n.replace(/\..*/, ''), sha256: sha256(b) })) };
	close.orders.push({ player: 'umpire', sha256: sha256(Buffer.from('rulings')) });
	const r = await checkTimelockedFiles(camp, 2, close, files, String(Q.round), Q.signature);
	assert.equal(r.opened, 1);
	assert.equal(r.notes.length, 2);
	assert.match(r.notes[0], /south\.age opens to no order file of south for turn 2 \(player 'west'\): no orders from south/);
	assert.match(r.notes[1], /west\.age is locked to round 657414 .*not the close's round 657413/);
	// given the turn's events: each file that gives no orders is one the turn counted as none
	const none = (p) => ({ phase: 'orders', text: `orders from ${p} count as none: why` });
	await assert.rejects(checkTimelockedFiles(camp, 2, close, files, String(Q.round), Q.signature, [none('south')]), /west\.age is locked to round .* but the turn took orders from west/);
	assert.equal((await checkTimelockedFiles(camp, 2, close, files, String(Q.round), Q.signature, [none('south'), none('west')])).opened, 1);
	// a file that is not the one the close fixed; a fixed file not committed; one more file
	const edited = { ...files, 'north.yaml.age': Buffer.from(files['south.age']) };
	await assert.rejects(checkTimelockedFiles(camp, 2, close, edited, String(Q.round), Q.signature), (e) => e instanceof Failed && /north\.yaml\.age: SHA256 .* the close fixed/.test(e.message));
	const fewer = { ...files };
	delete fewer['west.age'];
	await assert.rejects(checkTimelockedFiles(camp, 2, close, fewer, String(Q.round), Q.signature), /fixed a file from west, but timelocked\/turn-0002\/ commits none/);
	await assert.rejects(checkTimelockedFiles(camp, 2, close, { ...files, 'east.age': files['west.age'] }, String(Q.round), Q.signature), /fixed no time-locked file of 'east'/);
	// sealed: the close gives each file's salt, and its salted commitment must be the file's;
	// the outer layer opens to the inner age file (to the umpire's key), which stays shut
	const { sealedHash } = await import('../src/sealed.js');
	const sealedCamp = campaignOf(yaml('sealed'));
	const sfiles = {
		'north.age': Buffer.from(await seal(orders('north', 2), { round: Q.round, info: QN, recipient })),
		'south.age': Buffer.from(await seal(orders('south', 2), { round: Q.round, info: QN })), // no inner layer
	};
	const salt = new Uint8Array(32).fill(7);
	const sclose = { orders: Object.entries(sfiles).map(([n, b]) => ({ player: playerOf(n), sha256: sealedHash(salt, b), salt })) };
	const sr = await checkTimelockedFiles(sealedCamp, 2, sclose, sfiles, String(Q.round), Q.signature, [none('south')]);
	assert.equal(sr.opened, 1);
	assert.match(sr.notes[0], /south\.age opens to no age file for the umpire's key \(the time-lock layer opens to no armored age file/);
	await assert.rejects(checkTimelockedFiles(sealedCamp, 2, sclose, sfiles, String(Q.round), Q.signature, []), /south\.age opens to no age file .* but the turn took orders from south/);
	// after the reveal, with the umpire's identity: the inner layer opens to the orders
	assert.equal((await checkTimelockedFiles(sealedCamp, 2, sclose, sfiles, String(Q.round), Q.signature, [none('south')], kp.identity)).opened, 1);
	const other = { ...sfiles, 'north.age': Buffer.from(await seal(orders('north', 3), { round: Q.round, info: QN, recipient })) };
	const oclose = { orders: Object.entries(other).map(([n, b]) => ({ player: playerOf(n), sha256: sealedHash(salt, b), salt })) };
	await assert.rejects(checkTimelockedFiles(sealedCamp, 2, oclose, other, String(Q.round), Q.signature, [none('south')], kp.identity), /north\.age opens to no order file of north for turn 2 \(turn 3\), but the turn took orders from north/);
	// a ciphertext other than the one the close fixed (sealed to the same round and key)
	const swapped = { ...sfiles, 'north.age': Buffer.from(await seal(orders('north', 2), { round: Q.round, info: QN, recipient })) };
	await assert.rejects(checkTimelockedFiles(sealedCamp, 2, sclose, swapped, String(Q.round), Q.signature, [none('south')]), /north\.age: salted commitment .* the close fixed/);
	await assert.rejects(checkTimelockedFiles(sealedCamp, 2, { orders: [{ player: 'north', sha256: sclose.orders[0].sha256, salt: null }] }, { 'north.age': sfiles['north.age'] }, String(Q.round), Q.signature), /gives no salt for north's time-locked file \(a sealed campaign\)/);
	// the close commit may add them; not in a campaign without orders: timelocked
	const c = { status: 'A', mode: '100644', path: 'timelocked/turn-0002/north.age' };
	assert.equal(isTimelockedFile(camp, 2, c), true);
	assert.equal(isTimelockedFile(camp, 3, c), false);
	assert.equal(isTimelockedFile(campaignOf(Buffer.from(yaml('open').toString().replace('orders: timelocked\n', ''))), 2, c), false);
});
