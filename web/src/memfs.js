// An in-memory file system with the calls isomorphic-git makes (its `fs.promises` client): the
// page keeps a dropped folder, an unpacked `git bundle` or a clone over HTTP in it, and the
// verifier reads the history from it exactly as it reads a folder through node's fs.
const enoent = (p) => Object.assign(new Error(`ENOENT: ${p}`), { code: 'ENOENT' });
const norm = (p) => '/' + p.split('/').filter((s) => s && s !== '.').join('/');

export class MemFS {
	constructor() {
		this.files = new Map(); // path -> Uint8Array
		this.dirs = new Set(['/']);
		const self = this;
		this.promises = {
			readFile: async (p, opts) => self.readFile(p, opts),
			writeFile: async (p, data) => self.writeFile(p, data),
			unlink: async (p) => { if (!self.files.delete(norm(p))) throw enoent(p); },
			readdir: async (p) => self.readdir(p),
			mkdir: async (p) => { self.mkdirp(norm(p)); },
			rmdir: async (p) => { self.dirs.delete(norm(p)); },
			stat: async (p) => self.stat(p),
			lstat: async (p) => self.stat(p),
			readlink: async (p) => { throw enoent(p); },
			symlink: async () => { throw new Error('symlinks are not kept'); },
			chmod: async () => {},
		};
	}
	mkdirp(p) {
		for (let d = p; d !== '/' && !this.dirs.has(d); d = d.slice(0, d.lastIndexOf('/')) || '/') this.dirs.add(d);
	}
	writeFile(p, data) {
		p = norm(p);
		this.mkdirp(p.slice(0, p.lastIndexOf('/')) || '/');
		this.files.set(p, typeof data === 'string' ? new TextEncoder().encode(data) : new Uint8Array(data));
	}
	readFile(p, opts) {
		const d = this.files.get(norm(p));
		if (!d) throw enoent(p);
		const enc = typeof opts === 'string' ? opts : opts && opts.encoding;
		return enc ? new TextDecoder().decode(d) : d;
	}
	readdir(p) {
		p = norm(p);
		if (!this.dirs.has(p)) throw enoent(p);
		const pre = p === '/' ? '/' : p + '/';
		const out = new Set();
		for (const k of [...this.files.keys(), ...this.dirs]) {
			if (k.startsWith(pre) && k.length > pre.length) out.add(k.slice(pre.length).split('/')[0]);
		}
		return [...out].sort();
	}
	stat(p) {
		p = norm(p);
		const f = this.files.get(p);
		const dir = !f && this.dirs.has(p);
		if (!f && !dir) throw enoent(p);
		return {
			isFile: () => !!f, isDirectory: () => dir, isSymbolicLink: () => false,
			size: f ? f.length : 0, mode: dir ? 0o40755 : 0o100644, mtimeMs: 0, ctimeMs: 0,
			uid: 0, gid: 0, ino: 0, dev: 0,
		};
	}
}
