// The pool of workers (workers.js) in node: worker_threads running bls-worker-node.js, from
// the source file beside this one, or from the text make web bundled into
// build/web/umpire-verify.mjs (one file, installed alone).
import { Worker } from 'node:worker_threads';
import os from 'node:os';
import process from 'node:process';
import { Pool } from './workers.js';

/* global __UMPIRE_BLS_WORKER__ */
const BUNDLED = typeof __UMPIRE_BLS_WORKER__ === 'string' ? __UMPIRE_BLS_WORKER__ : null;

/** How many threads verify: UMPIRE_VERIFY_THREADS (as umpire verify reads it), else the
 *  processors this process may use (at most 16): the main thread, which reads the history,
 *  and threads() - 1 workers checking rounds beside it (none when 1). */
export function threads() {
	const v = process.env.UMPIRE_VERIFY_THREADS;
	if (v !== undefined && /^[1-9][0-9]{0,2}$/.test(v)) return Number(v);
	return Math.max(1, Math.min(typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length, 16));
}

/** A pool of n node workers (default threads() - 1), or null when n is 0. */
export function nodePool(n = threads() - 1) {
	if (n < 1) return null;
	return new Pool(() => {
		const w = BUNDLED ? new Worker(BUNDLED, { eval: true }) : new Worker(new URL('./bls-worker-node.js', import.meta.url));
		return {
			post: (m) => w.postMessage(m),
			listen: (onMessage, onError) => {
				w.on('message', onMessage);
				w.on('error', onError);
				w.on('exit', (code) => onError(new Error(`a worker exited (${code})`)));
			},
			ref: () => w.ref(),
			unref: () => w.unref(),
			terminate: () => w.terminate(),
		};
	}, n);
}
