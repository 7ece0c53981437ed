// The threads that check beacon rounds beside the one reading the history (beacon.js,
// RoundBatch): a pool of workers, each running beacon.js's answer() on the jobs it is sent.
// The same code in both homes: node's worker_threads (node-workers.js) and the browser's Web
// Workers (page/workers.js) each only start a worker and carry its messages.

const channel = typeof setImmediate !== 'function' && typeof MessageChannel === 'function' ? new MessageChannel() : null;
const waiting = [];
if (channel) channel.port1.onmessage = () => waiting.shift()();

/** Resolves in a task of its own, after the tasks already queued (the workers' answers, and in a
 *  page its drawing and input): setImmediate in node, a MessageChannel's message in a browser
 *  (setTimeout(0) waits at least 4 ms once nested). A verification whose reads all resolve at
 *  once would otherwise run as one task, the workers' answers and the page's lines waiting for
 *  its end. */
export function nextTask() {
	if (!channel) return new Promise((ok) => (typeof setImmediate === 'function' ? setImmediate(ok) : setTimeout(ok, 0)));
	return new Promise((ok) => {
		waiting.push(ok);
		channel.port2.postMessage(0);
	});
}

/**
 * A pool of n workers made by spawn() on first use, each { post(message), listen(onMessage,
 * onError), ref(), unref(), terminate() }. run(job) sends { id, job } to an idle worker (or
 * queues it) and resolves to the worker's answer ({ id, result } or { id, error }); it rejects
 * when the worker fails or none could start (the caller then runs the job itself). Node's
 * workers keep the process alive only while a job is out.
 */
export class Pool {
	constructor(spawn, n) {
		this.spawn = spawn;
		this.n = n;
		this.workers = null;
		this.idle = [];
		this.queue = [];
		this.out = new Map(); // id -> { resolve, reject, worker }
		this.next = 1;
		this.broken = null; // why the pool cannot run jobs, once it could not
	}

	start() {
		this.workers = [];
		try {
			for (let i = 0; i < this.n; i++) {
				const w = this.spawn();
				w.listen((m) => this.done(w, m), (e) => this.fail(w, e));
				w.unref();
				this.workers.push(w);
				this.idle.push(w);
			}
		} catch (e) {
			this.broken = e;
		}
	}

	run(job) {
		if (!this.workers) this.start();
		if (!this.workers.length) return Promise.reject(this.broken || new Error('no worker'));
		return new Promise((resolve, reject) => {
			this.queue.push({ id: this.next++, job, resolve, reject });
			this.pump();
		});
	}

	pump() {
		while (this.idle.length && this.queue.length) {
			const w = this.idle.pop(), q = this.queue.shift();
			this.out.set(q.id, { ...q, worker: w });
			w.ref();
			try {
				w.post({ id: q.id, job: q.job });
			} catch (e) {
				this.out.delete(q.id);
				this.idle.push(w);
				q.reject(e);
			}
		}
	}

	/** The last job queued and not sent to any worker yet taken back: rejected, so that its
	 *  caller runs it itself (as when no worker could). Whether there was one. */
	takeBack() {
		const q = this.queue.pop();
		if (!q) return false;
		q.reject(new Error('taken back by the caller'));
		return true;
	}

	done(w, m) {
		const q = this.out.get(m && m.id);
		if (!q) return;
		this.out.delete(m.id);
		this.idle.push(w);
		if (!this.out.size) for (const x of this.workers) x.unref();
		q.resolve(m);
		this.pump();
	}

	/** A worker that failed: its job rejected, the worker dropped (the others go on). */
	fail(w, e) {
		this.workers = this.workers.filter((x) => x !== w);
		this.idle = this.idle.filter((x) => x !== w);
		for (const [id, q] of this.out) {
			if (q.worker !== w) continue;
			this.out.delete(id);
			q.reject(e);
		}
		try {
			w.terminate();
		} catch { /* gone */ }
		if (!this.workers.length) for (const q of this.queue.splice(0)) q.reject(e);
		this.pump();
	}
}
