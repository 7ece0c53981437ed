// A Web Worker of the page's pool (page/workers.js): answers each job with beacon.js's
// answer(), the code node's worker threads run.
import { answer } from '../beacon.js';

self.onmessage = (e) => self.postMessage(answer(e.data));
