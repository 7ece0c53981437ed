// What the player gives the page, put into a MemFS for isomorphic-git: a dropped folder (his
// clone), a `git bundle` file (git bundle create FILE --all), or the git host's URL (cloned
// over HTTP into memory: the only request the page makes, and only when he asks for it).
import git from 'isomorphic-git';
import http from 'isomorphic-git/http/web';
import { MemFS } from '../memfs.js';
import { Repo } from '../repo.js';
import { Fatal, EX } from '../bytes.js';
import { sha1 } from '@noble/hashes/legacy';

const UNPACKED = 512 * 1024 * 1024; // bytes of resolved objects kept from the indexing (1,000 signed turns: 170 MiB)
const SMALL = 2048; // bytes hashed here, in this thread (a larger object: by the browser's SHA-1)
const HEAD = /^(blob|tree|commit|tag) ([0-9]{1,20})$/;

/**
 * Runs index() (isomorphic-git's indexPack) keeping every object it resolves, so the verifier
 * does not resolve each again from the pack (inflating it and its delta bases with pako, a
 * second time): indexPack hashes each object it resolves, wrapped as git hashes it ("type
 * size\0" and the bytes), with crypto.subtle.digest('SHA-1'), which is wrapped meanwhile to
 * keep each wrapped object in objects (oid -> { type, bytes }), at most UNPACKED bytes in all,
 * and to hash the small ones with @noble/hashes in this thread (one promise, not a trip to the
 * browser's crypto thread each). An object is only kept under the SHA-1 of its own header and
 * bytes, computed here, whatever isomorphic-git passes (a larger object's by the browser's
 * digest, of the bytes as passed: isomorphic-git's wrap makes a new array for each object and
 * never writes to it again). The digest is restored before this returns.
 */
async function keepingObjects(objects, index) {
	const subtle = globalThis.crypto && globalThis.crypto.subtle;
	if (!subtle) return index();
	const digest = subtle.digest;
	let kept = 0;
	const dec = new TextDecoder('latin1');
	const keep = (data, h) => {
		const nul = data.indexOf(0);
		const m = nul > 0 && nul < 32 ? HEAD.exec(dec.decode(data.subarray(0, nul))) : null;
		if (!m || Number(m[2]) !== data.length - nul - 1 || kept + data.length > UNPACKED) return;
		let oid = '';
		for (const b of h) oid += (b < 16 ? '0' : '') + b.toString(16);
		if (objects.has(oid)) return;
		objects.set(oid, { type: m[1], bytes: data.subarray(nul + 1) });
		kept += data.length;
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

/** files: [{ path (relative, e.g. clone/.git/HEAD), bytes (a Uint8Array, or a Blob read when
 *  the verifier needs the file) }] of a dropped folder. */
export async function repoFromFolder(files) {
	const fs = new MemFS();
	for (const f of files) fs.writeFile('/' + f.path, f.bytes);
	const tops = [...new Set(files.map((f) => f.path.split('/')[0]))];
	for (const dir of ['/', ...tops.map((t) => '/' + t)]) {
		try {
			return await Repo.open(fs, dir === '/' ? '' : dir);
		} catch { /* next */ }
	}
	throw new Fatal(EX.NOINPUT, 'the folder holds no git repository (drop the clone\'s folder, with its .git inside)');
}

/** A `git bundle` (v2 or v3) of the whole history: its refs and its pack, indexed. */
export async function repoFromBundle(bytes) {
	const text = new TextDecoder('latin1').decode(bytes.subarray(0, Math.min(bytes.length, 1 << 20)));
	const sig = /^# v([23]) git bundle\n/.exec(text);
	if (!sig) throw new Fatal(EX.NOINPUT, 'not a git bundle (its first line is not "# v2 git bundle")');
	const end = text.indexOf('\n\n');
	if (end < 0) throw new Fatal(EX.NOINPUT, 'the bundle\'s header has no end');
	const fs = new MemFS();
	const gd = '/repo/.git';
	let head = null;
	for (const line of text.slice(sig[0].length, end).split('\n')) {
		if (line.startsWith('@')) continue;
		if (line.startsWith('-')) throw new Fatal(EX.NOINPUT, 'the bundle needs commits it does not hold: make it of the whole history (git bundle create FILE --all)');
		const m = /^([0-9a-f]{40}) (\S+)$/.exec(line);
		if (!m) throw new Fatal(EX.NOINPUT, `the bundle's header has a line "${line}"`);
		if (m[2] === 'HEAD') head = m[1];
		else if (m[2].startsWith('refs/')) fs.writeFile(`${gd}/${m[2]}`, m[1] + '\n');
	}
	fs.writeFile(`${gd}/HEAD`, head ? head + '\n' : 'ref: refs/heads/main\n');
	fs.writeFile(`${gd}/objects/pack/pack-bundle.pack`, bytes.subarray(end + 2));
	fs.mkdirp(`${gd}/refs/heads`);
	const objects = new Map();
	await keepingObjects(objects, () => git.indexPack({ fs, dir: '/repo', gitdir: gd, filepath: '.git/objects/pack/pack-bundle.pack' }));
	const repo = new Repo(fs, gd);
	repo.preload(objects);
	return repo;
}

/** The git host's URL, cloned over HTTP into memory (history only, no work tree). */
export async function repoFromUrl(url, onProgress) {
	const fs = new MemFS();
	try {
		await git.clone({ fs, http, dir: '/repo', url, noCheckout: true, onProgress });
	} catch (e) {
		throw new Fatal(EX.NOINPUT, `cannot clone ${url}: ${e.message} (the git host must allow this page to read it)`);
	}
	return new Repo(fs, '/repo/.git');
}
