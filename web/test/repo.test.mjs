// repo.js's tree reading against the straightforward forms it replaced (kept here as the
// reference): treeInfo's one pass (the same starts, the same reasons for an odd tree) and
// differing()'s shared ends found from the bytes (the same entries as comparing entry by
// entry), on random trees and random damage to them (a fixed seed), and the entry limit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Repo, keepingObjects } from '../src/repo.js';
import { MemFS } from '../src/memfs.js';

const enc = new TextEncoder();
/** A deterministic generator: an LCG's high bits. */
function random(seed) {
	return (n) => {
		seed = (seed * 1103515245 + 12345) % 2147483648;
		return Math.floor(seed / 65536) % n;
	};
}
/** A Repo whose objects are the trees of `trees` (oid -> bytes). */
function repoOf(trees) {
	const r = new Repo(new MemFS(), '/x');
	r.read = async (oid) => (trees.has(oid) ? { type: 'tree', bytes: trees.get(oid) } : null);
	return r;
}
/** A tree of [mode, name, id] entries: ids 0 and 1 (and 2 and 3) differ in their last byte only. */
function treeBytes(entries) {
	const parts = [];
	for (const [mode, name, id] of entries) {
		parts.push(enc.encode(`${mode} ${name}\0`), Uint8Array.from({ length: 20 }, (_, i) => (i === 19 ? id : (id >> 1) * 7 + i) & 0xff));
	}
	const b = new Uint8Array(parts.reduce((a, x) => a + x.length, 0));
	let o = 0;
	for (const x of parts) {
		b.set(x, o);
		o += x.length;
	}
	return b;
}
// the reference: treeInfo's scan as it was (count by NULs, then parse)
function scanBefore(oid, b) {
	let n = 0;
	for (let i = 0; i < b.length; n++) {
		const nul = b.indexOf(0, i);
		if (nul < 0) break;
		i = nul + 21;
	}
	if (n > 262144) throw new Error(`tree ${oid} has ${n} entries, over the limit of 262144 (a crafted repository?)`);
	const at = [];
	for (let i = 0; i < b.length;) {
		const sp = b.indexOf(0x20, i), nul = b.indexOf(0, sp);
		if (sp < 0 || nul < 0 || nul + 21 > b.length) throw new Error(`tree ${oid} is malformed (a crafted repository?)`);
		at.push(i);
		i = nul + 21;
	}
	at.push(b.length);
	return at;
}
const outcome = async (f) => {
	try {
		return JSON.stringify(await f());
	} catch (e) {
		return e.message;
	}
};

test('treeInfo: the same entry starts and the same reasons as the scan before it', async () => {
	const rnd = random(7);
	let odd = 0;
	for (let it = 0; it < 5000; it++) {
		const s = [];
		for (let e = rnd(6); e > 0; e--) {
			s.push(...enc.encode(`100644 n${e}\0`));
			for (let j = 0; j < 20; j++) s.push(rnd(3) ? rnd(256) : [0, 32][rnd(2)]);
		}
		for (let m = rnd(4); m > 0 && s.length; m--) {
			const w = rnd(3), at = rnd(s.length);
			if (w === 0) s[at] = [0, 32, 65][rnd(3)];
			else if (w === 1) s.splice(at, 1);
			else s.splice(at, 0, [0, 32][rnd(2)]);
		}
		const b = Uint8Array.from(s);
		const want = await outcome(() => scanBefore('t', b));
		if (!want.startsWith('[')) odd++;
		assert.equal(await outcome(async () => (await repoOf(new Map([['t', b]])).treeInfo('t')).at), want, `tree bytes ${s}`);
	}
	assert.ok(odd > 100, `${odd} odd trees among the cases`);
});

test('treeInfo: 262,144 entries pass, one more does not', async () => {
	const one = enc.encode('100644 a\0' + 'x'.repeat(20));
	for (const n of [262144, 262145]) {
		const b = new Uint8Array(one.length * n);
		for (let i = 0; i < n; i++) b.set(one, i * one.length);
		const got = await outcome(async () => (await repoOf(new Map([['t', b]])).treeInfo('t')).at.length);
		assert.equal(got, n === 262144 ? '262145' : 'tree t has 262145 entries, over the limit of 262144 (a crafted repository?)');
	}
});

test('differing: the same entries as comparing the trees entry by entry from each end', async () => {
	const rnd = random(1);
	let changed = 0;
	for (let it = 0; it < 5000; it++) {
		const name = () => 'n' + 'x'.repeat(rnd(3)) + rnd(9);
		const base = Array.from({ length: rnd(8) }, (_, i) => [rnd(3) ? '100644' : '40000', 'n' + 'x'.repeat(rnd(3)) + i, rnd(4)]);
		const other = base.map((e) => [...e]);
		for (let k = rnd(4); k > 0; k--) {
			const w = rnd(5);
			// (a crafted mode: differs from 100644 in its first byte alone)
			if (w === 4 && other.length) other[rnd(other.length)][0] = ['100644', '100755', '40000', '000644'][rnd(4)];
			else if (w === 0 && other.length) other.splice(rnd(other.length), 1);
			else if (w === 1) other.splice(rnd(other.length + 1), 0, ['100644', name(), rnd(4)]);
			else if (w === 2 && other.length) other[rnd(other.length)][2] = rnd(4);
			else if (other.length) other[rnd(other.length)][1] += 'y'.repeat(rnd(2));
		}
		const r = repoOf(new Map([['a', treeBytes(base)], ['b', treeBytes(other)]]));
		const A = await r.treeInfo('a'), B = await r.treeInfo('b');
		// the reference: entries compared whole, from the start, then from the end
		const na = A.at.length - 1, nb = B.at.length - 1;
		const same = (ka, kb) => {
			const a0 = A.at[ka], a1 = A.at[ka + 1], b0 = B.at[kb];
			if (a1 - a0 !== B.at[kb + 1] - b0) return false;
			for (let j = 0; j < a1 - a0; j++) if (A.b[a0 + j] !== B.b[b0 + j]) return false;
			return true;
		};
		let p = 0, q = 0;
		while (p < na && p < nb && same(p, p)) p++;
		while (q < na - p && q < nb - p && same(na - 1 - q, nb - 1 - q)) q++;
		const pick = (t, from, to) => {
			const m = new Map();
			for (let k = from; k < to; k++) {
				const e = Repo.entryAt(t, k);
				if (!m.has(e.path)) m.set(e.path, e);
			}
			return [...m];
		};
		const [ea, eb] = await r.differing('a', 'b');
		if (ea.size || eb.size) changed++;
		assert.deepEqual([[...ea], [...eb]], [pick(A, p, na - q), pick(B, p, nb - q)], `${JSON.stringify(base)} -> ${JSON.stringify(other)}`);
	}
	assert.ok(changed > 1000, `${changed} pairs of trees differ among the cases`);
});

/** Hashes each object as isomorphic-git's indexPack does: "blob SIZE\0" and the bytes, by crypto.subtle.digest. */
async function indexing(blobs) {
	for (const b of blobs) {
		const head = enc.encode(`blob ${b.length}\0`);
		const data = new Uint8Array(head.length + b.length);
		data.set(head);
		data.set(b, head.length);
		await globalThis.crypto.subtle.digest('SHA-1', data);
	}
}

test('keepingObjects: one budget for every indexing into the same map', async () => {
	const next = random(7);
	const pack = () => Array.from({ length: 20 }, () => Uint8Array.from({ length: 4000 }, () => next(256)));
	const objects = new Map();
	const limit = 60000;
	await keepingObjects(objects, () => indexing(pack()), limit);
	const first = objects.size;
	await keepingObjects(objects, () => indexing(pack()), limit);
	let bytes = 0;
	for (const [oid, o] of objects) {
		assert.equal(o.type, 'blob');
		const head = enc.encode(`blob ${o.bytes.length}\0`);
		const data = new Uint8Array(head.length + o.bytes.length);
		data.set(head);
		data.set(o.bytes, head.length);
		const h = Buffer.from(await globalThis.crypto.subtle.digest('SHA-1', data)).toString('hex');
		assert.equal(h, oid, 'an object kept under the SHA-1 of its own header and bytes');
		bytes += data.length;
	}
	assert.ok(first > 0, 'the first indexing keeps objects');
	assert.equal(objects.size, first, 'the second indexing keeps none past the one budget');
	assert.ok(bytes <= limit && objects.keptBytes === bytes, `${bytes} bytes kept, the budget ${limit}`);
});
