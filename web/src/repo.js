// Reading the clone (docs/fairness.md, "Checking a campaign": everything from a plain git clone)
// through isomorphic-git and a file-system object: node's fs for a folder, a MemFS for what
// the page was given. Objects are read as committed (no replace refs, no grafts: as libgit2)
// and bounded by umpire's limits (src/core/repo.h) before they are used: a loose object from
// its header, before it is inflated.
import git from 'isomorphic-git';
import { FileSystem } from 'isomorphic-git/models';
import pako from 'pako';
import { sha1 } from '@noble/hashes/legacy';
import { bytesToHex } from '@noble/hashes/utils';
import { Failed, Fatal, EX } from './bytes.js';
import { MemFS } from './memfs.js';

const LIMITS = { blob: 32 * 1024 * 1024, tree: 8 * 1024 * 1024, commit: 1024 * 1024, tag: 1024 * 1024 };
const dec = new TextDecoder();
const enc = new TextEncoder();
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const TREES = 64; // parsed trees kept: a turn's and its close's, and the trees between
const KEPT = 64 * 1024 * 1024; // bytes of objects kept once read (a 1,000-turn campaign: 3 MiB)

/** A tree entry's name: most are ASCII, made without a TextDecoder call. */
function nameOf(b, from, to) {
	let ascii = to - from <= 256;
	for (let i = from; ascii && i < to; i++) if (b[i] >= 0x80) ascii = false;
	return ascii ? String.fromCharCode.apply(null, b.subarray(from, to)) : dec.decode(b.subarray(from, to));
}
const MODES = new Map(['100644', '100755', '40000', '120000', '160000'].map((m) => [m, m]));
const tooBig = (type, oid, size) => `the ${type} object ${oid} is ${size} bytes, over the limit of ${(LIMITS[type] || LIMITS.commit) / (1024 * 1024)} MiB for a ${type} (a crafted repository?)`;

/** Where each entry of tree oid (bytes b) starts, the entries counted before any is looked at
 *  (a crafted tree costs no more than its bytes); throws when there are too many, or when an
 *  entry is not "MODE NAME\0" and 20 bytes. */
function scanTree(oid, b) {
	let n = 0;
	for (let i = 0; i < b.length; n++) {
		const nul = b.indexOf(0, i);
		if (nul < 0) break;
		i = nul + 21;
	}
	if (n > 262144) throw new Failed(`tree ${oid} has ${n} entries, over the limit of 262144 (a crafted repository?)`);
	const at = [];
	for (let i = 0; i < b.length;) {
		const sp = b.indexOf(0x20, i), nul = b.indexOf(0, sp);
		if (sp < 0 || nul < 0 || nul + 21 > b.length) throw new Failed(`tree ${oid} is malformed (a crafted repository?)`);
		at.push(i);
		i = nul + 21;
	}
	return at;
}

/** The inflater and SHA-1 of any platform: pako and @noble/hashes, in this thread. */
export const PORTABLE = {
	inflate: (b) => pako.inflate(b),
	head: (b) => {
		const inf = new pako.Inflate({ chunkSize: 64 });
		inf.push(b, false);
		return inf.chunks.length ? inf.chunks[0] : inf.result || new Uint8Array(0);
	},
	sha1: (b) => bytesToHex(sha1(b)),
};

const UNPACKED = 512 * 1024 * 1024; // bytes of resolved objects kept from the indexing (1,000 signed turns: 170 MiB)
const SMALL = 2048; // bytes hashed here, in this thread (a larger object: by the browser's SHA-1)
const HEAD = /^(blob|tree|commit|tag) ([0-9]{1,20})$/;

/**
 * Runs index() (isomorphic-git's indexPack) keeping every object it resolves, so the verifier
 * does not resolve each again from the pack (inflating it and its delta bases with pako, a
 * second time): indexPack hashes each object it resolves, wrapped as git hashes it ("type
 * size\0" and the bytes), with crypto.subtle.digest('SHA-1'), which is wrapped meanwhile to
 * keep each wrapped object in objects (oid -> { type, bytes }), at most limit bytes in all,
 * counted across every call given the same map (its owner's one budget: a Repo's packs, a
 * bundle, a clone; the count is kept on the map as objects.keptBytes),
 * and to hash the small ones with @noble/hashes in this thread (one promise, not a trip to the
 * browser's crypto thread each). An object is only kept under the SHA-1 of its own header and
 * bytes, computed here, whatever isomorphic-git passes (a larger object's by the browser's
 * digest, of the bytes as passed: isomorphic-git's wrap makes a new array for each object and
 * never writes to it again). The digest is restored before this returns.
 */
export async function keepingObjects(objects, index, limit = UNPACKED) {
	const subtle = globalThis.crypto && globalThis.crypto.subtle;
	if (!subtle) return index();
	const digest = subtle.digest;
	const dec = new TextDecoder('latin1');
	const keep = (data, h) => {
		const nul = data.indexOf(0);
		const m = nul > 0 && nul < 32 ? HEAD.exec(dec.decode(data.subarray(0, nul))) : null;
		const kept = objects.keptBytes || 0;
		if (!m || Number(m[2]) !== data.length - nul - 1 || kept + data.length > limit) return;
		const oid = bytesToHex(h);
		if (objects.has(oid)) return;
		objects.set(oid, { type: m[1], bytes: data.subarray(nul + 1) });
		objects.keptBytes = kept + data.length;
	};
	const hashing = function (algo, data) {
		const name = typeof algo === 'string' ? algo : algo && algo.name;
		if (name !== 'SHA-1' || !(data instanceof Uint8Array)) return digest.apply(this, arguments);
		if (data.length > SMALL) {
			// the browser's own SHA-1 (on its crypto thread) is faster on a tree's kilobytes
			return digest.call(this, algo, data).then((h) => {
				keep(data, new Uint8Array(h));
				return h;
			});
		}
		const h = sha1(data);
		keep(data, h);
		return Promise.resolve(h.slice().buffer); // its own 20 bytes, as digest() gives
	};
	subtle.digest = hashing;
	try {
		return await index();
	} finally {
		subtle.digest = digest;
	}
}

export class Repo {
	/** fs: an fs (node) or MemFS; gitdir: the repository's git directory in it; codec: how a
	 *  loose object is inflated and hashed ({ inflate(bytes) -> bytes, throwing when they are
	 *  not a zlib stream; head(bytes) -> what the first bytes of a stream inflate to, at least
	 *  its first 64 bytes when there are; sha1(bytes) -> hex }), PORTABLE unless the platform
	 *  has its own (node: its zlib and crypto, tools/umpire-verify.mjs). */
	constructor(fs, gitdir, codec = PORTABLE) {
		this.fs = fs;
		this.gitdir = gitdir;
		this.codec = codec;
		// isomorphic-git's fs wrapper made once (each call would wrap fs again, testing it) and
		// its cache (the parsed pack indexes), both passed to every call
		this.gfs = new FileSystem(fs);
		this.cache = {};
		this.objects = new Map(); // oid -> { type, bytes }: every object read, each read once
		this.kept = 0; // bytes in objects (the oldest dropped past KEPT)
		this.trees = new Map(); // tree oid -> entries (the last TREES parsed)
		this.packed = null; // packed-refs: name -> id, read at the first ref looked up
		this.unpacked = null; // oid -> { type, bytes }: a pack's objects resolved when it was indexed (preload)
	}

	/** Objects already resolved and hashed (oid -> { type, bytes }, each bytes' SHA-1 with its
	 *  header checked to be oid by the caller), read from here before the loose objects and
	 *  isomorphic-git: the page's bundle, whose objects its indexing resolves (inputs.js).
	 *  The map is the Repo's from now on. */
	preload(objects) {
		this.unpacked = objects;
	}

	/** The clone's packs (objects/pack/*.pack, as a clone from a git host has its history)
	 *  indexed again in memory by isomorphic-git's indexPack, keeping the objects it resolves
	 *  (keepingObjects), so that each is not resolved again from the pack when it is read
	 *  (pako inflating it and every delta base, a second time: a 1,000-turn packed clone took
	 *  14 s in node where its loose objects took 5). Nothing is written to the clone (the
	 *  indexing writes its .idx into a MemFS of its own); a pack that cannot be indexed, or
	 *  objects past keepingObjects' bound, are read from the clone as before. */
	async preloadPacks() {
		let names;
		try {
			names = (await this.fs.promises.readdir(`${this.gitdir}/objects/pack`)).filter((n) => /^[^/]+\.pack$/.test(n)).sort();
		} catch {
			return;
		}
		const objects = this.unpacked || new Map();
		for (const name of names) {
			try {
				const bytes = await this.fs.promises.readFile(`${this.gitdir}/objects/pack/${name}`);
				const mem = new MemFS();
				mem.writeFile('/p/.git/objects/pack/p.pack', bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes));
				await keepingObjects(objects, () => git.indexPack({ fs: mem, dir: '/p', gitdir: '/p/.git', filepath: '.git/objects/pack/p.pack' }));
			} catch {
				/* read as before, object by object, where the errors are said */
			}
		}
		if (objects.size) this.preload(objects);
	}

	/** Finds the git directory of a clone at dir (dir/.git, or dir itself when bare). */
	static async open(fs, dir, codec) {
		const p = fs.promises;
		for (const gd of [`${dir}/.git`, dir]) {
			try {
				await p.stat(`${gd}/HEAD`);
				await p.stat(`${gd}/objects`);
				return new Repo(fs, gd, codec);
			} catch { /* next */ }
		}
		throw new Fatal(EX.NOINPUT, `${dir}: not a git repository (no .git/HEAD, no HEAD and objects/)`);
	}

	/** A loose object's type and size from its header, the first bytes of its file (raw)
	 *  inflated only (as umpire reads an object's header before the object): null when the
	 *  header is not one. */
	looseHeader(raw) {
		const head = this.codec.head(raw.subarray(0, 256));
		const nul = head.indexOf(0);
		const m = nul > 0 && nul < 64 ? /^(blob|tree|commit|tag) ([0-9]{1,20})$/.exec(dec.decode(head.subarray(0, nul))) : null;
		return m ? { type: m[1], size: Number(m[2]) } : null;
	}

	/** A loose object read in one go: its file read once, its header checked against the
	 *  limits before it is inflated, then inflated and its SHA-1 checked. null when it is not
	 *  loose, or not sound (isomorphic-git reads it then, and says what is wrong). */
	async loose(oid) {
		const path = `${this.gitdir}/objects/${oid.slice(0, 2)}/${oid.slice(2)}`;
		let raw;
		try {
			// node's fs: one blocking read, not four trips through its thread pool per object
			raw = this.fs.readFileSync ? this.fs.readFileSync(path) : await this.fs.promises.readFile(path);
		} catch {
			return null;
		}
		// deflate makes at most 1032 bytes of one: a smaller file cannot hold an object over a
		// limit, and is inflated whole at once (its header read from the result)
		const small = raw.length * 1032 <= LIMITS.commit;
		let h = null;
		if (!small) {
			h = this.looseHeader(raw);
			if (!h) return null;
			if (h.size > (LIMITS[h.type] || LIMITS.commit)) throw new Failed(tooBig(h.type, oid, h.size));
		}
		let all;
		try {
			all = this.codec.inflate(raw);
		} catch {
			return null;
		}
		const nul = all.indexOf(0);
		if (small) {
			const m = nul > 0 && nul < 64 ? /^(blob|tree|commit|tag) ([0-9]{1,20})$/.exec(dec.decode(all.subarray(0, nul))) : null;
			h = m ? { type: m[1], size: Number(m[2]) } : null;
		}
		// SHA-1 at once (PORTABLE: @noble/hashes'; WebCrypto's digest is a promise per object,
		// which costs more than hashing most objects)
		if (!h || nul < 0 || all.length - nul - 1 !== h.size || this.codec.sha1(all) !== oid) return null;
		return { type: h.type, bytes: all.subarray(nul + 1) };
	}

	async read(oid, want) {
		let o = this.objects.get(oid);
		if (!o && this.unpacked) {
			o = this.unpacked.get(oid);
			if (o && o.bytes.length > (LIMITS[o.type] || LIMITS.commit)) throw new Failed(tooBig(o.type, oid, o.bytes.length));
		}
		if (!o) {
			o = await this.loose(oid);
			if (!o) {
				let r;
				try {
					r = await git.readObject({ fs: this.gfs, gitdir: this.gitdir, oid, format: 'content', cache: this.cache });
				} catch (e) {
					if (e && e.code === 'NotFoundError') return null;
					throw new Fatal(EX.IOERR, `git: cannot read object ${oid}: ${e.message}`);
				}
				if (r.object.length > (LIMITS[r.type] || LIMITS.commit)) throw new Failed(tooBig(r.type, oid, r.object.length));
				o = { type: r.type, bytes: r.object };
			}
			this.keep(oid, o);
		}
		if (want && o.type !== want) throw new Failed(`object ${oid} is a ${o.type}, a ${want} expected (a crafted repository?)`);
		return o;
	}

	/** o ({ type, bytes }) kept as object oid, the oldest kept dropped past KEPT bytes. */
	keep(oid, o) {
		this.objects.set(oid, o);
		this.kept += o.bytes.length;
		for (const [k, x] of this.objects) {
			if (this.kept <= KEPT || k === oid) break;
			this.objects.delete(k);
			this.kept -= x.bytes.length;
		}
	}

	/** A file of the git directory as text, or null when there is none. */
	async text(path) {
		try {
			const b = this.fs.readFileSync ? this.fs.readFileSync(path) : await this.fs.promises.readFile(path);
			return typeof b === 'string' ? b : dec.decode(b);
		} catch {
			return null;
		}
	}

	/** The id a full ref name (refs/...) names as isomorphic-git's resolveRef finds it first
	 *  (its loose file, else its line of packed-refs, read once here where isomorphic-git
	 *  reads and parses the file again for each ref: a 1,000-turn clone has 2,000 tags), or
	 *  undefined when it holds no plain id there (isomorphic-git is asked then). */
	async quickRef(ref) {
		if (!ref.startsWith('refs/')) return undefined;
		const loose = await this.text(`${this.gitdir}/${ref}`);
		let v = loose === null ? null : loose.trim();
		if (v === null || v === '') {
			if (!this.packed) {
				// as isomorphic-git's GitPackedRefs: "OID NAME" lines, "^OID" a peeled tag, # comments
				this.packed = new Map();
				for (const line of ((await this.text(`${this.gitdir}/packed-refs`)) || '').trim().split('\n')) {
					if (/^\s*#/.test(line) || line.startsWith('^')) continue;
					const i = line.indexOf(' ');
					this.packed.set(line.slice(i + 1), line.slice(0, i));
				}
			}
			v = this.packed.get(ref);
		}
		return v && /^[0-9a-f]{40}$/.test(v) ? v : undefined;
	}

	/** The commit id a ref names (tags peeled), or null. */
	async commitId(ref) {
		let oid = await this.quickRef(ref);
		if (!oid) {
			try {
				oid = await git.resolveRef({ fs: this.gfs, gitdir: this.gitdir, ref });
			} catch {
				return null;
			}
		}
		for (let i = 0; i < 8; i++) {
			const o = await this.read(oid);
			if (!o) return null;
			if (o.type === 'commit') return oid;
			if (o.type !== 'tag') return null;
			const m = /^object ([0-9a-f]{40})\n/.exec(dec.decode(o.bytes));
			if (!m) return null;
			oid = m[1];
		}
		return null;
	}

	/** Refused before anything is read, as umpire verify refuses them: replace refs and a grafts
	 *  file (git's command line would show other objects or parents than the committed ones). */
	async refuseReplacements() {
		const replaced = await git.listRefs({ fs: this.gfs, gitdir: this.gitdir, filepath: 'refs/replace' }).catch(() => []);
		if (replaced.length) throw new Failed(`the clone has replace refs (refs/replace/${replaced[0]}): git would show other objects than the ones committed; remove them (git replace -d) and verify again`);
		try {
			await this.fs.promises.stat(`${this.gitdir}/info/grafts`);
		} catch {
			return;
		}
		throw new Failed('the clone has a grafts file (.git/info/grafts): git would show other parents than the ones committed; remove it and verify again');
	}

	/** Writes ref (e.g. refs/umpire/verified) to point at oid. */
	async writeRef(ref, oid) {
		await git.writeRef({ fs: this.gfs, gitdir: this.gitdir, ref, value: oid, force: true });
	}

	/** Names under refs/tags/. */
	async tags() {
		return git.listTags({ fs: this.gfs, gitdir: this.gitdir });
	}

	/** A commit: { oid, tree, parents, author, committer, message, raw }. */
	async commit(oid) {
		const o = await this.read(oid, 'commit');
		if (!o) throw new Failed(`commit ${oid} is missing from the clone`);
		const raw = dec.decode(o.bytes);
		const at = raw.indexOf('\n\n');
		const head = at < 0 ? raw : raw.slice(0, at);
		const c = { oid, tree: null, parents: [], author: null, committer: null, message: at < 0 ? '' : raw.slice(at + 2), raw };
		for (const line of head.split('\n')) {
			if (line.startsWith(' ')) continue;
			const sp = line.indexOf(' ');
			const k = line.slice(0, sp), v = line.slice(sp + 1);
			if (k === 'tree') c.tree = v;
			else if (k === 'parent') c.parents.push(v);
			else if (k === 'author' || k === 'committer') c[k] = v;
		}
		return c;
	}

	/** A tree's bytes and where each entry starts ({ b, at: [start..., end], entries: parsed
	 *  or null }), the whole tree checked as before (the entry count, then each entry's form)
	 *  without making an entry: a lookup or a diff parses only the entries it needs (the
	 *  journal's tree grows by two entries a turn, and each turn reads two of them). */
	async treeInfo(oid) {
		let t = this.trees.get(oid);
		if (t) return t;
		const o = await this.read(oid, 'tree');
		if (!o) throw new Failed(`tree ${oid} is missing from the clone`);
		const b = o.bytes;
		// one pass: where each entry starts (no entry made), while its first NUL follows its
		// mode's space and the entries stay under the limit; any other tree scanned again as
		// before (scanTree), for its reason
		let at = [];
		for (let i = 0; i < b.length;) {
			const sp = b.indexOf(0x20, i), nul = b.indexOf(0, i);
			if (sp < 0 || nul < sp || nul + 21 > b.length || at.length === 262144) {
				at = scanTree(oid, b);
				break;
			}
			at.push(i);
			i = nul + 21;
		}
		at.push(b.length);
		t = { b, at, entries: null };
		if (this.trees.size >= TREES) this.trees.delete(this.trees.keys().next().value);
		this.trees.set(oid, t);
		return t;
	}

	/** Entry k of a tree (treeInfo). */
	static entryAt(t, k) {
		const b = t.b, i = t.at[k];
		const sp = b.indexOf(0x20, i), nul = b.indexOf(0, sp);
		const m = nameOf(b, i, sp), mode = MODES.get(m) || m;
		let id = '';
		for (let j = nul + 1; j < nul + 21; j++) id += HEX[b[j]];
		return { mode, path: nameOf(b, sp + 1, nul), oid: id, type: mode === '40000' ? 'tree' : mode === '160000' ? 'commit' : 'blob' };
	}

	/** A tree's entries: [{ mode, path (name), oid, type }]. */
	async tree(oid) {
		const t = await this.treeInfo(oid);
		if (!t.entries) t.entries = t.at.slice(0, -1).map((_, k) => Repo.entryAt(t, k));
		return t.entries;
	}

	/** The first entry named name in tree oid, or undefined; its name's bytes compared in
	 *  place (no entry made but the one found). */
	async named(oid, name) {
		const t = await this.treeInfo(oid);
		if (t.entries) return t.entries.find((x) => x.path === name);
		const want = enc.encode(name), b = t.b;
		for (let k = 0; k + 1 < t.at.length; k++) {
			const sp = b.indexOf(0x20, t.at[k]), nul = t.at[k + 1] - 21;
			if (nul - sp - 1 !== want.length) continue;
			let j = 0;
			while (j < want.length && b[sp + 1 + j] === want[j]) j++;
			if (j === want.length) {
				const e = Repo.entryAt(t, k);
				if (e.path === name) return e;
			}
		}
		return undefined;
	}

	/** The entry { mode, oid, type } at path in commit cid, or null. */
	async entry(cid, path) {
		let tree = (await this.commit(cid)).tree;
		const parts = path.split('/');
		for (const [i, name] of parts.entries()) {
			const e = await this.named(tree, name);
			if (!e) return null;
			if (i === parts.length - 1) return e;
			if (e.type !== 'tree') return null;
			tree = e.oid;
		}
		return null;
	}

	/** The bytes of the file at path in commit cid, or null when there is none. */
	async blob(cid, path) {
		const e = await this.entry(cid, path);
		if (!e) return null;
		if (e.type !== 'blob') throw new Failed(`${path} at ${cid} is not a file`);
		return (await this.read(e.oid, 'blob')).bytes;
	}

	/** { path: { mode, oid, type } } of every file under dir (a folder path) in commit cid. */
	async files(cid, dir) {
		const out = {};
		const e = dir ? await this.entry(cid, dir) : { type: 'tree', oid: (await this.commit(cid)).tree };
		if (!e || e.type !== 'tree') return out;
		const walk = async (tid, pre) => {
			for (const x of await this.tree(tid)) {
				const p = pre ? `${pre}/${x.path}` : x.path;
				if (x.type === 'tree') await walk(x.oid, p);
				else out[p] = { mode: x.mode, oid: x.oid, type: x.type };
			}
		};
		await walk(e.oid, dir || '');
		return out;
	}

	/** The entries of trees ta and tb (either null: none) that are not byte for byte the same
	 *  entry at both ends, by name: the common leading and trailing entries (git keeps a
	 *  tree's entries sorted, so two versions of journal/ differ in the middle) are skipped
	 *  unparsed, as the diff skips equal entries. */
	async differing(ta, tb) {
		const A = ta ? await this.treeInfo(ta) : null, B = tb ? await this.treeInfo(tb) : null;
		const na = A ? A.at.length - 1 : 0, nb = B ? B.at.length - 1 : 0;
		// the bytes both share from the start, then the entries wholly in them (the same bytes
		// parse to the same entries at the same places); the bytes both share from the end, then
		// the entries wholly in them at the same distance from the end (each entry compared as
		// a whole, byte for byte, gives the same p and q)
		let p = 0, q = 0;
		if (na && nb) {
			const a = A.b, b = B.b, la = a.length, lb = b.length, n = Math.min(la, lb);
			let d = 0;
			while (d < n && a[d] === b[d]) d++;
			while (p < na && p < nb && A.at[p + 1] <= d) p++;
			// (no further than the entries after the first p: only those can end the trees)
			const m = Math.min(la - A.at[p], lb - B.at[p]);
			let r = 0;
			while (r < m && a[la - 1 - r] === b[lb - 1 - r]) r++;
			while (q < na - p && q < nb - p && la - A.at[na - 1 - q] <= r && la - A.at[na - 1 - q] === lb - B.at[nb - 1 - q]) q++;
		}
		const pick = (t, from, to) => {
			const m = new Map();
			for (let k = from; k < to; k++) {
				const e = Repo.entryAt(t, k);
				if (!m.has(e.path)) m.set(e.path, e);
			}
			return m;
		};
		return [A ? pick(A, p, na - q) : new Map(), B ? pick(B, p, nb - q) : new Map()];
	}

	/** [{ status: 'A'|'M'|'D', mode, path }] between commits a and b (equal subtrees skipped). */
	async diff(a, b) {
		const out = [];
		const walk = async (ta, tb, pre) => {
			const [ea, eb] = await this.differing(ta, tb);
			// the names whose entries differ, in order (equal ones are skipped: no need to sort them)
			const names = [];
			for (const [n, x] of ea) {
				const y = eb.get(n);
				if (!(y && x.oid === y.oid && x.mode === y.mode)) names.push(n);
			}
			for (const n of eb.keys()) if (!ea.has(n)) names.push(n);
			names.sort();
			for (const n of names) {
				const x = ea.get(n), y = eb.get(n);
				const p = pre ? `${pre}/${n}` : n;
				if (x && y && x.oid === y.oid && x.mode === y.mode) continue;
				const xt = x && x.type === 'tree' ? x.oid : null, yt = y && y.type === 'tree' ? y.oid : null;
				if (xt || yt) await walk(xt, yt, p);
				if (x && x.type !== 'tree' && !(y && y.type !== 'tree')) out.push({ status: 'D', mode: x.mode, path: p });
				else if (y && y.type !== 'tree') out.push({ status: x && x.type !== 'tree' ? 'M' : 'A', mode: y.mode, path: p });
			}
		};
		await walk((await this.commit(a)).tree, (await this.commit(b)).tree, '');
		return out;
	}

	/** main's first-parent history, oldest first: [{ oid, parents }]. */
	async firstParents(cid, limit = 1e7) {
		const out = [];
		const seen = new Set();
		for (let oid = cid; oid && out.length < limit;) {
			if (seen.has(oid)) throw new Failed(`history: commit ${oid} is its own ancestor (a crafted repository?)`);
			seen.add(oid);
			const c = await this.commit(oid);
			out.push(c);
			oid = c.parents[0];
		}
		return out.reverse();
	}

	/** Whether commit a is b or an ancestor of b (any parent). */
	async isAncestor(a, b) {
		const todo = [b], seen = new Set();
		while (todo.length) {
			const o = todo.pop();
			if (o === a) return true;
			if (seen.has(o)) continue;
			seen.add(o);
			todo.push(...(await this.commit(o)).parents);
		}
		return false;
	}
}
