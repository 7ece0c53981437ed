// A node worker thread of the pool (node-workers.js): answers each job with beacon.js's
// answer(), the code the browser's workers run.
import { parentPort } from 'node:worker_threads';
import { answer } from './beacon.js';

parentPort.on('message', (m) => parentPort.postMessage(answer(m)));
