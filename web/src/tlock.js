// Time-locked order files (issue 36; the contract in docs/fairness.md, "Time-locked orders"):
// seal, open, inspect and keygen on drand's tlock-js (the tlock stanza, its IBE and the outer age
// layer) and typage, npm age-encryption (the armour and the inner X25519 layer). No network.
import { Buffer, timelockEncrypt } from 'tlock-js';
import { readAge } from 'tlock-js/age/age-reader-writer.js';
import { decryptAge } from 'tlock-js/age/age-encrypt-decrypt.js';
import { decryptOnG2 } from 'tlock-js/crypto/ibe.js';
import { armor, Encrypter, Decrypter, generateX25519Identity, identityToRecipient } from 'age-encryption';

/** Any reason a file does not seal, open or inspect: the message is one line, for the user. */
export class TlockError extends Error {}

/** The signature schemes whose rounds can be time-locked to (drand's unchained G1 chains). */
export const SCHEMES = ['bls-unchained-g1-rfc9380', 'bls-unchained-on-g1'];
/** Bounds on what is read: an order file is small (the C side bounds it at 1 MiB). */
export const MAX_FILE = 4 << 20;
const ARMOR_BEGIN = '-----BEGIN AGE ENCRYPTED FILE-----';
const AGE_RECIPIENT = /^age1[02-9ac-hj-np-z]{58}$/;
const AGE_IDENTITY = /^AGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]{58}$/;

const fail = (msg) => {
	throw new TlockError(msg);
};

/** parseRound(s): a round number as decimal text (1 .. 2^53-1) to a Number; TlockError otherwise. */
export function parseRound(s) {
	const t = String(s);
	if (!/^[1-9][0-9]{0,15}$/.test(t) || !Number.isSafeInteger(Number(t))) fail(`round "${t}" is not a round number (1, 2, ...)`);
	return Number(t);
}

/**
 * checkChainInfo(info): info (a parsed drand /info JSON object) checked for what tlock needs:
 * public_key (hex, 96 bytes for a G1-signature chain), hash (64 hex), period and genesis_time
 * (positive integers, seconds), schemeID (an unchained G1 scheme). Returns info; TlockError.
 */
export function checkChainInfo(info) {
	if (!info || typeof info !== 'object' || Array.isArray(info)) fail('chain info is not a JSON object');
	if (typeof info.public_key !== 'string' || !/^[0-9a-f]{192}$/.test(info.public_key)) fail('chain info: public_key is not 192 lower-case hex digits (a G2 point)');
	if (typeof info.hash !== 'string' || !/^[0-9a-f]{64}$/.test(info.hash)) fail('chain info: hash is not 64 lower-case hex digits');
	if (!Number.isSafeInteger(info.period) || info.period < 1) fail('chain info: period is not a positive integer');
	if (!Number.isSafeInteger(info.genesis_time) || info.genesis_time < 0) fail('chain info: genesis_time is not an integer');
	if (!SCHEMES.includes(info.schemeID)) fail(`chain info: schemeID "${String(info.schemeID)}" is not an unchained G1 scheme (${SCHEMES.join(', ')})`);
	return info;
}

/**
 * offlineClient(info, beacons): a drand-client ChainClient that never fetches: chain().info()
 * is info, get(R) is beacons[R] ({round, randomness, signature}) or an error. The options
 * keep drand-client's own check of each beacon's signature against info.public_key.
 */
export function offlineClient(info, beacons = {}) {
	const chain = { baseUrl: 'offline:', info: async () => info };
	const beacon = async (r) => {
		if (!Object.hasOwn(beacons, r)) throw new TlockError(`no signature for round ${r}`);
		return beacons[r];
	};
	return {
		options: { disableBeaconVerification: false, noCache: true, chainVerificationParams: { chainHash: info.hash, publicKey: info.public_key } },
		chain: () => chain,
		get: beacon,
		latest: async () => fail('an offline client has no latest round'),
	};
}

function asText(bytes) {
	if (bytes.length > MAX_FILE) fail(`the file is larger than ${MAX_FILE} bytes`);
	const s = Buffer.from(bytes).toString('latin1');
	for (let i = 0; i < s.length; i++) {
		const c = s.charCodeAt(i);
		if (c > 126 || (c < 32 && c !== 10 && c !== 13 && c !== 9)) fail(`byte ${i + 1} is not ASCII text: an armored age file is`);
	}
	return s;
}

/** decodeArmored(bytes): the binary age file inside an armored one (typage's strict armour parser). */
function decodeArmored(bytes) {
	const text = asText(bytes);
	if (!text.trimStart().startsWith(ARMOR_BEGIN)) fail(`not an armored age file (it does not begin with ${ARMOR_BEGIN})`);
	try {
		return armor.decode(text);
	} catch (e) {
		return fail(`damaged armour: ${e.message}`);
	}
}

/**
 * inspect(bytes): the round and chain hash of an armored age file (Uint8Array) whose header has
 * exactly one recipient stanza, tlock's (`tlock ROUND CHAINHASH`): {round (Number), chain (hex)}.
 * TlockError for anything else (not armoured, damaged, no or two stanzas, another kind).
 */
export function inspect(bytes) {
	const bin = decodeArmored(bytes);
	let hdr;
	try {
		hdr = readAge(Buffer.from(bin).toString('binary')).header;
	} catch (e) {
		return fail(`not an age file: ${e.message}`);
	}
	if (hdr.version !== 'age-encryption.org/v1') fail(`age version "${hdr.version}" (expected age-encryption.org/v1)`);
	const st = hdr.recipients;
	if (st.length !== 1) fail(`${st.length} recipient stanzas (expected exactly one, tlock's)`);
	if (st[0].type !== 'tlock') fail(`the recipient stanza is "${st[0].type}" (expected tlock)`);
	if (st[0].args.length !== 2) fail(`the tlock stanza has ${st[0].args.length} arguments (expected ROUND CHAINHASH)`);
	const [r, chain] = st[0].args;
	const round = parseRound(r);
	if (!/^[0-9a-f]{64}$/.test(chain)) fail(`the tlock stanza's chain hash "${chain}" is not 64 lower-case hex digits`);
	return { round, chain, body: st[0].body, binary: bin };
}

/**
 * seal(plain, {round, info, recipient}): plain (Uint8Array, the order file's bytes) time-locked
 * to round `round` of the chain `info` by tlock-js's timelockEncrypt; with `recipient` (age1...,
 * X25519) it is first encrypted to it with typage and armoured. Returns the armored file (string).
 */
export async function seal(plain, { round, info, recipient }) {
	checkChainInfo(info);
	round = parseRound(round);
	if (plain.length > MAX_FILE) fail(`the file is larger than ${MAX_FILE} bytes`);
	let payload = plain;
	if (recipient !== undefined && recipient !== null) {
		if (!AGE_RECIPIENT.test(recipient)) fail(`recipient "${recipient}" is not an age X25519 recipient (age1 and 58 characters)`);
		const e = new Encrypter();
		e.addRecipient(recipient);
		payload = new TextEncoder().encode(armor.encode(await e.encrypt(plain)));
	}
	return timelockEncrypt(round, Buffer.from(payload), offlineClient(info));
}

/** The ciphertext (U, V, W) in a tlock stanza's body, as tlock-js's own decrypter splits it. */
function stanzaCiphertext(body) {
	const n = 96; // a compressed G2 point: U = r·G2 for every G1-signature scheme
	if (body.length <= n || (body.length - n) % 2 !== 0) fail(`the tlock stanza's body is ${body.length} bytes (expected a G2 point and two equal halves)`);
	const rest = body.subarray(n);
	return { U: body.subarray(0, n), V: rest.subarray(0, rest.length / 2), W: rest.subarray(rest.length / 2) };
}

/**
 * open(bytes, {round, signature, info, identity}): the plaintext (Uint8Array) of an armored
 * time-locked file, given round `round`'s signature (hex; the caller has checked it against the
 * chain's key). The stanza must name that round and info.hash. With `identity`
 * (AGE-SECRET-KEY-1...) a plaintext that is an armored age file is opened with it too;
 * without, it is returned as is. TlockError when anything does not match or open.
 *
 * tlock-js's timelockDecrypt is not used here: it refuses a round later than this machine's
 * clock and prints the beacon on stdout; this runs its decryptAge with its IBE decryption.
 */
export async function open(bytes, { round, signature, info, identity }) {
	checkChainInfo(info);
	round = parseRound(round);
	if (typeof signature !== 'string' || !/^[0-9a-f]{96}$/.test(signature)) fail('the signature is not 96 lower-case hex digits (a compressed G1 point)');
	if (identity !== undefined && identity !== null && !AGE_IDENTITY.test(identity)) fail('the identity is not an age X25519 identity (AGE-SECRET-KEY-1...)');
	const h = inspect(bytes);
	if (h.round !== round) fail(`the file is locked to round ${h.round}, not round ${round}`);
	if (h.chain !== info.hash) fail(`the file is locked to chain ${h.chain}, not chain ${info.hash}`);
	const ct = stanzaCiphertext(h.body);
	const sig = Buffer.from(signature, 'hex');
	let plain;
	try {
		plain = await decryptAge(Buffer.from(h.binary).toString('binary'), async () => decryptOnG2(sig, ct));
	} catch (e) {
		return fail(`it does not open with round ${round}'s signature: ${e.message}`);
	}
	plain = new Uint8Array(plain);
	if (identity === undefined || identity === null) return plain;
	if (!isArmored(plain)) fail('an identity was given but the file inside is not an armored age file');
	return openInner(plain, identity);
}

/** isArmored(bytes): whether bytes begin (after white space) with the age armour's first line. */
export function isArmored(bytes) {
	const head = Buffer.from(bytes.subarray(0, 200)).toString('latin1');
	return head.trimStart().startsWith(ARMOR_BEGIN);
}

/**
 * checkInner(bytes): what the time-lock layer of a sealed campaign's file must open to (docs/
 * fairness.md, "Time-locked orders"): an armored age file with exactly one recipient stanza,
 * X25519's (one argument, the 32-byte share, and a 32-byte wrapped file key). Which key it is
 * for cannot be seen without the identity. TlockError saying what it is instead.
 */
export function checkInner(bytes) {
	if (!isArmored(bytes)) fail('the time-lock layer opens to no armored age file (a sealed campaign\'s file is encrypted to the umpire\'s key inside)');
	const bin = decodeArmored(bytes);
	let hdr;
	try {
		hdr = readAge(Buffer.from(bin).toString('binary')).header;
	} catch (e) {
		return fail(`the inner file is not an age file: ${e.message}`);
	}
	if (hdr.version !== 'age-encryption.org/v1') fail(`the inner file's age version is "${hdr.version}" (expected age-encryption.org/v1)`);
	const st = hdr.recipients;
	if (st.length !== 1 || st[0].type !== 'X25519') fail(`the inner file has ${st.map((x) => x.type).join(', ') || 'no'} recipient stanza${st.length === 1 ? '' : 's'} (expected exactly one, X25519, the umpire's key)`);
	if (st[0].args.length !== 1 || !/^[A-Za-z0-9+/]{43}$/.test(st[0].args[0]) || st[0].body.length !== 32) fail('the inner file\'s X25519 stanza is malformed (one 32-byte share and a 32-byte wrapped key expected)');
}

/** openInner(bytes, identity): the inner, X25519 layer (armored age file) opened by typage. */
export async function openInner(bytes, identity) {
	const bin = decodeArmored(bytes);
	const d = new Decrypter();
	d.addIdentity(identity);
	try {
		return await d.decrypt(bin);
	} catch (e) {
		return fail(`the inner age file does not open with the identity: ${e.message}`);
	}
}

/** keygen(): a new X25519 identity and its recipient, {identity, recipient}, by typage. */
export async function keygen() {
	const identity = await generateX25519Identity();
	return { identity, recipient: await identityToRecipient(identity) };
}
