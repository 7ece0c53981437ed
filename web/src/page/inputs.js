// What the player gives the page, put into a MemFS for isomorphic-git: a dropped folder (his
// clone), a `git bundle` file (git bundle create FILE --all), or the git host's URL (cloned
// over HTTP into memory: the only request the page makes, and only when he asks for it).
import git from 'isomorphic-git';
import http from 'isomorphic-git/http/web';
import { MemFS } from '../memfs.js';
import { Repo, keepingObjects } from '../repo.js';
import { Fatal, EX } from '../bytes.js';

/** files: [{ path (relative, e.g. clone/.git/HEAD), bytes (a Uint8Array, or a Blob read when
 *  the verifier needs the file) }] of a dropped folder. */
export async function repoFromFolder(files) {
	const fs = new MemFS();
	for (const f of files) fs.writeFile('/' + f.path, f.bytes);
	const tops = [...new Set(files.map((f) => f.path.split('/')[0]))];
	for (const dir of ['/', ...tops.map((t) => '/' + t)]) {
		try {
			const repo = await Repo.open(fs, dir === '/' ? '' : dir);
			await repo.preloadPacks();
			return repo;
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
	const objects = new Map();
	try {
		await keepingObjects(objects, () => git.clone({ fs, http, dir: '/repo', url, noCheckout: true, onProgress }));
	} catch (e) {
		throw new Fatal(EX.NOINPUT, `cannot clone ${url}: ${e.message} (the git host must allow this page to read it)`);
	}
	const repo = new Repo(fs, '/repo/.git');
	repo.preload(objects);
	return repo;
}
