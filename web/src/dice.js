// docs/fairness.md, "The derivation", steps 4, 6, 7 and 8: the orders digest D_t, the turn
// seed s_t = HMAC(k_t, "umpire/turn/v1" || be32(t) || D_t || B_t), die j with n faces by
// HMAC in counter mode with rejection sampling (no modulo bias), and Fisher-Yates shuffles.
import { sha256, hmac256, ascii, concat, be32, be64, byteOrder, ZERO32 } from './bytes.js';

export const TURN_LABEL = ascii('umpire/turn/v1');
export const DIE_LABEL = ascii('umpire/die/v1');
const TWO64 = 1n << 64n;

/** Step 4: D_t over [id, 32-byte hash or null for no file], in any order (sorted here by
 *  byte order of id): SHA256 of id || 0x00 || hash (32 zero bytes for none), concatenated. */
export function ordersDigest(entries) {
	const sorted = [...entries].sort((a, b) => byteOrder(a[0], b[0]));
	return sha256(concat(...sorted.map(([id, h]) => concat(ascii(id), new Uint8Array([0]), h || ZERO32))));
}

export function turnMessage(t, digest, beacon) {
	return concat(TURN_LABEL, be32(t), digest, beacon);
}
/** Step 6: the turn seed. */
export function turnSeed(key, t, digest, beacon) {
	return hmac256(key, turnMessage(t, digest, beacon));
}

export function dieMessage(j, a) {
	return concat(DIE_LABEL, be64(j), be32(a));
}

/** Step 7: die j (BigInt or number) with n faces (2 <= n < 2^64): { value, blocks: [{a, x,
 *  accepted}] } with BigInt value and x. Throws RangeError for n or j out of range. */
export function dieBlocks(seed, j, n) {
	n = BigInt(n);
	j = BigInt(j);
	if (n < 2n || n >= TWO64) throw new RangeError(`a die has 2 to 2^64-1 faces, not ${n}`);
	if (j < 0n || j >= TWO64) throw new RangeError(`die index ${j} out of range`);
	const limit = TWO64 - (TWO64 % n);
	const blocks = [];
	for (let a = 0; a < 2 ** 32; a++) {
		const h = hmac256(seed, dieMessage(j, a));
		const x = new DataView(h.buffer, h.byteOffset, 8).getBigUint64(0);
		const accepted = x < limit;
		blocks.push({ a, x, accepted });
		if (accepted) return { value: 1n + (x % n), blocks, limit };
	}
	throw new RangeError(`die ${j}: no block accepted`);
}

/** fair_die(s_t, j, n) as a BigInt. */
export function die(seed, j, n) {
	return dieBlocks(seed, j, n).value;
}

/** Step 8: a Fisher-Yates shuffle of m items from dice j0, j0+1, ...: { perm, dice }. */
export function shuffle(seed, m, j0 = 0) {
	const perm = [...Array(m).keys()];
	const dice = [];
	let j = j0;
	for (let i = m - 1; i >= 1; i--, j++) {
		const r = Number(die(seed, j, i + 1));
		dice.push({ j, sides: i + 1, value: r });
		[perm[i], perm[r - 1]] = [perm[r - 1], perm[i]];
	}
	return { perm, dice };
}
