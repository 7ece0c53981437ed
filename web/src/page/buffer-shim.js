// isomorphic-git uses node's Buffer; in the browser the `buffer` package stands in for it
// (injected by esbuild into the page's bundle only).
import { Buffer } from 'buffer';
export { Buffer };
