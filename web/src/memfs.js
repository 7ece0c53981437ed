// An in-memory file system with the calls isomorphic-git makes (its `fs.promises` client): the
// page keeps a dropped folder, an unpacked `git bundle` or a clone over HTTP in it, and the
// verifier reads the history from it exactly as it reads a folder through node's fs. A file
// may be held as a Blob (a File of a dropped folder), read the first time it is asked for: of
// a clone's thousands of files only the objects the verifier needs are read.

// An ENOENT error made without a stack trace: isomorphic-git and the verifier look for many
// files that are not there (a loose object before the pack), and capturing the stack of each
// miss cost more than the lookups.
const enoent = (p) => Object.assign(Object.create(Error.prototype), { name: 'Error', message: `ENOENT: ${p}`, code: 'ENOENT' });
const norm = (p) => (typeof p === 'string' ? '/' + p.split('/').filter((s) => s && s !== '.').join('/') : null);
const parentOf = (p) => p.slice(0, p.lastIndexOf('/')) || '/';

export class MemFS {
	constructor() {
		this.files = new Map(); // path -> Uint8Array, or a Blob not read yet
		this.dirs = new Set(['/']);
		this.children = new Map([['/', new Set()]]); // directory -> the names in it
		const self = this;
		this.promises = {
			readFile: async (p, opts) => {
				const k = norm(p), f = self.files.get(k);
				if (f && !(f instanceof Uint8Array)) self.files.set(k, new Uint8Array(await f.arrayBuffer()));
				return self.readFile(p, opts);
			},
			writeFile: async (p, data) => self.writeFile(p, data),
			unlink: async (p) => { if (!self.files.delete(norm(p))) throw enoent(p); self.unlist(norm(p)); },
			readdir: async (p) => self.readdir(p),
			mkdir: async (p) => { self.mkdirp(norm(p)); },
			rmdir: async (p) => { if (self.dirs.delete(norm(p))) self.unlist(norm(p)); },
			stat: async (p) => self.stat(p),
			lstat: async (p) => self.stat(p),
			readlink: async (p) => { throw enoent(p); },
			symlink: async () => { throw new Error('symlinks are not kept'); },
			chmod: async () => {},
		};
	}
	mkdirp(p) {
		const missing = [];
		for (let d = p; d !== '/' && !this.dirs.has(d); d = parentOf(d)) missing.push(d);
		for (const d of missing.reverse()) {
			this.dirs.add(d);
			this.children.set(d, new Set());
			this.list(d);
		}
	}
	/** p's name listed in its directory (which exists). */
	list(p) {
		this.children.get(parentOf(p)).add(p.slice(p.lastIndexOf('/') + 1));
	}
	/** p's name no longer listed, unless a file or directory is still there. */
	unlist(p) {
		const c = this.children.get(parentOf(p));
		if (c && !this.files.has(p) && !this.dirs.has(p)) c.delete(p.slice(p.lastIndexOf('/') + 1));
		if (!this.dirs.has(p)) this.children.delete(p);
	}
	/** data: a string, bytes, or a Blob (read when the file is first read). */
	writeFile(p, data) {
		p = norm(p);
		this.mkdirp(parentOf(p));
		const blob = typeof Blob === 'function' && data instanceof Blob;
		this.files.set(p, typeof data === 'string' ? new TextEncoder().encode(data) : blob ? data : new Uint8Array(data));
		this.list(p);
	}
	readFile(p, opts) {
		const d = this.files.get(norm(p));
		if (!d) throw enoent(p);
		if (!(d instanceof Uint8Array)) throw new Error(`${p}: not read yet (promises.readFile reads it)`);
		const enc = typeof opts === 'string' ? opts : opts && opts.encoding;
		return enc ? new TextDecoder().decode(d) : d;
	}
	readdir(p) {
		p = norm(p);
		if (!this.dirs.has(p)) throw enoent(p);
		return [...this.children.get(p)].sort();
	}
	stat(p) {
		p = norm(p);
		const f = this.files.get(p);
		const dir = !f && this.dirs.has(p);
		if (!f && !dir) throw enoent(p);
		return {
			isFile: () => !!f, isDirectory: () => dir, isSymbolicLink: () => false,
			size: f ? (f instanceof Uint8Array ? f.length : f.size) : 0, mode: dir ? 0o40755 : 0o100644, mtimeMs: 0, ctimeMs: 0,
			uid: 0, gid: 0, ino: 0, dev: 0,
		};
	}
}
