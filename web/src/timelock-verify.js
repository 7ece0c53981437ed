// The JavaScript verifier's part of time-locked orders (issue 36 item 5; docs/fairness.md,
// "Time-locked orders"): the close of a campaign with `orders: timelocked` commits each player's
// ciphertext as timelocked/turn-NNNN/PLAYER.age; once the round the close names is signed, each
// is opened again with that signature (web/src/tlock.js, drand's tlock-js) and checked: the
// close fixed its SHA-256 (open campaigns; a sealed campaign's hashes are salted, checked at the
// reveal), it is locked to that round of the campaign's chain, and it opens to an order file of
// its player for the turn (sealed: to the inner age file, to the umpire's key, which stays shut).
import { Failed, sha256, hex, equal, tag } from './bytes.js';
import { UMPIRE } from './campaign.js';
import { inspect, open, isArmored, TlockError } from './tlock.js';
import { readCampaign as readTimelock } from './tlock-campaign.js';
import jsyaml from 'js-yaml';

export const TIMELOCK_DIR = 'timelocked';
const cache = new WeakMap();

/** timelockOf(camp): {timelocked, recipient, info} from the campaign's campaign.yaml bytes
 *  (cached); timelocked false when campaign.yaml does not say `orders: timelocked`. */
export function timelockOf(camp) {
	if (!cache.has(camp)) {
		let v = { timelocked: false, recipient: null, info: null };
		try {
			v = readTimelock(camp.bytes);
		} catch (e) {
			if (!(e instanceof TlockError)) throw e;
			if (/orders:\s*timelocked/.test(new TextDecoder().decode(camp.bytes))) throw new Failed(`campaign.yaml (turn-0000): ${e.message}`);
		}
		cache.set(camp, v);
	}
	return cache.get(camp);
}

/** isTimelockedFile(camp, t, change): whether a change of close t's commit (repo.diff's
 *  {status, path, mode}) is a time-locked file that close commits: added, a plain file,
 *  timelocked/turn-NNNN/PLAYER.age of a campaign with `orders: timelocked`. */
export function isTimelockedFile(camp, t, c) {
	const dir = `${TIMELOCK_DIR}/${tag(t)}/`;
	return c.path.startsWith(dir) && c.status === 'A' && c.mode === '100644' && /^[^/]+\.age$/.test(c.path.slice(dir.length)) && timelockOf(camp).timelocked;
}

/** The player a time-locked file is from, as umpire names it: base name without ".age", then
 *  without ".yaml" (src/core/timelock.h, timelock_player_of). */
export const playerOf = (name) => name.replace(/\.age$/, '').replace(/\.yaml$/, '');

/**
 * checkTimelockedFiles(camp, t, close, files, round, signature): files ({name: bytes}, the
 * names under timelocked/turn-NNNN/) checked against close (parseClose's record) and opened
 * with round's signature (hex, already checked against the chain's key). Every player the
 * close fixed a file for (the umpire's rulings aside) has one, and no other file is there.
 * Returns {opened, notes}: how many opened to their player's orders for turn t (sealed: to
 * an inner age file), and a line for each that does not (the turn counts no orders from him:
 * docs/fairness.md). Failed when a file is not the one the close fixed or not locked to it.
 */
export async function checkTimelockedFiles(camp, t, close, files, round, signature) {
	const tl = timelockOf(camp);
	const where = `${TIMELOCK_DIR}/${tag(t)}`;
	const fixed = new Map(close.orders.filter((o) => o.player !== UMPIRE).map((o) => [o.player, o]));
	const seen = new Set();
	const notes = [];
	let opened = 0;
	for (const name of Object.keys(files).sort()) {
		const path = `${where}/${name}`, pid = playerOf(name), bytes = files[name];
		const o = fixed.get(pid);
		if (!o || seen.has(pid)) throw new Failed(`${path}: committed at the close, but the close fixed no time-locked file of '${pid}'`);
		seen.add(pid);
		if (!camp.sealed && !equal(sha256(bytes), o.sha256)) throw new Failed(`${path}: SHA256 ${hex(sha256(bytes))}, the close fixed ${hex(o.sha256)} for ${pid}`);
		let h;
		try {
			h = inspect(bytes);
		} catch (e) {
			notes.push(`note: turn ${t}: ${path} is not a time-locked file (${e.message}): no orders from ${pid}`);
			continue;
		}
		if (h.round !== Number(round) || h.chain !== tl.info.hash) {
			notes.push(`note: turn ${t}: ${path} is locked to round ${h.round} of chain ${h.chain.slice(0, 16)}…, not the close's round ${round}: no orders from ${pid}`);
			continue;
		}
		let plain;
		try {
			plain = await open(bytes, { round: Number(round), signature, info: tl.info });
		} catch (e) {
			notes.push(`note: turn ${t}: ${path} does not open with round ${round}'s signature (${e.message}): no orders from ${pid}`);
			continue;
		}
		const why = camp.sealed ? (isArmored(plain) ? null : 'the inner layer is not an age file') : ordersOf(plain, pid, t);
		if (why) notes.push(`note: turn ${t}: ${path} opens to no order file of ${pid} for turn ${t} (${why}): no orders from ${pid}`);
		else opened++;
	}
	for (const pid of fixed.keys()) if (!seen.has(pid)) throw new Failed(`the close of turn ${t} fixed a file from ${pid}, but ${where}/ commits none of his`);
	return { opened, notes };
}

/** null when plain is an order file (YAML) naming player pid and turn t; else why not. */
function ordersOf(plain, pid, t) {
	let doc;
	try {
		doc = jsyaml.load(new TextDecoder('utf-8', { fatal: true }).decode(plain), { schema: jsyaml.FAILSAFE_SCHEMA });
	} catch (e) {
		return `not YAML: ${e.reason || e.message}`;
	}
	if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return 'not a mapping';
	if (doc.player !== pid) return `player '${doc.player}'`;
	if (doc.turn !== String(t)) return `turn ${doc.turn}`;
	return null;
}

/** checkTimelocked(repo, camp, t, commitId, close, round, signature): the time-locked files
 *  of turn t as committed at commitId (the close's, kept by the turn's), checked as above. */
export async function checkTimelocked(repo, camp, t, commitId, close, round, signature) {
	const where = `${TIMELOCK_DIR}/${tag(t)}`;
	const files = {};
	for (const [path, e] of Object.entries(await repo.files(commitId, where))) {
		if (e.type !== 'blob' || e.mode !== '100644') throw new Failed(`${path}: committed with mode ${e.mode}, not a plain file`);
		files[path.slice(where.length + 1)] = await repo.blob(commitId, path);
	}
	return checkTimelockedFiles(camp, t, close, files, round, signature);
}
