// Notation (docs/fairness.md, "Notation"): SHA-256, HMAC-SHA256, be32/be64, hex, ASCII strings,
// and the one exception every other module throws when a check fails (Failed) or cannot run
// (Fatal, with its sysexits code). Hashes come from @noble/hashes; nothing here is crypto.
import { sha256 as nobleSha256 } from '@noble/hashes/sha2';
import { hmac } from '@noble/hashes/hmac';
import { bytesToHex, hexToBytes, concatBytes, utf8ToBytes } from '@noble/hashes/utils';

export const EX = { OK: 0, NOTFAIR: 3, USAGE: 64, DATAERR: 65, NOINPUT: 66, UNAVAILABLE: 69, IOERR: 74 };

/** A check failed: the message names the first broken item (verdict: failed, exit 65). */
export class Failed extends Error {}
/** The verifier cannot run at all: code is the exit status (64, 66, 74). */
export class Fatal extends Error {
	constructor(code, msg) { super(msg); this.code = code; }
}

export const ZERO32 = new Uint8Array(32);
export const hex = (b) => bytesToHex(b);
export const unhex = (s) => hexToBytes(s);
export const concat = (...parts) => concatBytes(...parts);
export const ascii = (s) => utf8ToBytes(s);
export const sha256 = (b) => nobleSha256(b);
export const hmac256 = (key, msg) => hmac(nobleSha256, key, msg);

/** be32(v): v (0 <= v < 2^32) as 4 bytes, big-endian. */
export function be32(v) {
	const b = new Uint8Array(4);
	new DataView(b.buffer).setUint32(0, Number(v));
	return b;
}
/** be64(v): v (a BigInt or a safe integer, 0 <= v < 2^64) as 8 bytes, big-endian. */
export function be64(v) {
	const b = new Uint8Array(8);
	new DataView(b.buffer).setBigUint64(0, BigInt(v));
	return b;
}
export function equal(a, b) {
	if (a.length !== b.length) return false;
	for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
	return true;
}
/** Byte order of ASCII/UTF-8 ids, as C strcmp (LC_ALL=C sort). */
export function byteOrder(a, b) {
	const x = ascii(a), y = ascii(b);
	for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
	return x.length - y.length;
}
/** UTC seconds as 2026-01-01T00:00:00Z. */
export function utc(t) {
	const d = new Date(Number(t) * 1000);
	return isNaN(d) ? String(t) : d.toISOString().replace('.000Z', 'Z');
}
export function ordinal(n) {
	if (n % 100 >= 11 && n % 100 <= 13) return 'th';
	return { 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] || 'th';
}
export const tag = (t) => `turn-${String(t).padStart(4, '0')}`;
export const closeTag = (t) => `close-${String(t).padStart(4, '0')}`;
