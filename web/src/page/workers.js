// The pool of workers (workers.js) in the browser: Web Workers running page/bls-worker.js,
// bundled by make web into verify.js as text and started from a blob: URL (a page opened
// from file:// cannot start a worker from a file; the page's Content-Security-Policy allows
// worker-src blob: for this, and nothing is fetched).
import { Pool } from '../workers.js';

/* global __UMPIRE_BLS_WORKER__ */
const BUNDLED = typeof __UMPIRE_BLS_WORKER__ === 'string' ? __UMPIRE_BLS_WORKER__ : null;

/** A pool of one worker fewer than the browser says it has processors (at most 15: the page's
 *  own thread reads the history), or null when the page cannot start any (no Worker, one
 *  processor, or no bundled worker). */
export function pagePool() {
	const n = Math.min((navigator.hardwareConcurrency || 1) - 1, 15);
	if (typeof Worker !== 'function' || !BUNDLED || n < 1) return null;
	const url = URL.createObjectURL(new Blob([BUNDLED], { type: 'text/javascript' }));
	return new Pool(() => {
		const w = new Worker(url);
		return {
			post: (m) => w.postMessage(m),
			listen: (onMessage, onError) => {
				w.onmessage = (e) => onMessage(e.data);
				w.onerror = (e) => { e.preventDefault(); onError(new Error(e.message || 'a worker failed')); };
			},
			ref: () => {},
			unref: () => {},
			terminate: () => w.terminate(),
		};
	}, n);
}
