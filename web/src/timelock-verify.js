// The JavaScript verifier's part of time-locked orders (issue 36 item 5; docs/fairness.md,
// "Time-locked orders"): the close of a campaign with `orders: timelocked` commits each player's
// ciphertext as timelocked/turn-NNNN/PLAYER.age; once the round the close names is signed, each
// is opened again with that signature (web/src/tlock.js, drand's tlock-js) and checked: the
// close fixed its SHA-256 (a sealed campaign's: its salted commitment, with the salt the close
// gives beside it), it is locked to that round of the campaign's chain, and it opens to an
// order file of its player for the turn (sealed: to an age file to one X25519 recipient, the
// umpire's key, which stays shut until the reveal); one that does not is a file the turn
// counted as none (the event "orders from P count as none: WHY").
import { Failed, sha256, hex, equal, tag } from './bytes.js';
import { UMPIRE } from './campaign.js';
import { inspect, open, openInner, checkInner, TlockError } from './tlock.js';
import { sealedHash } from './sealed.js';
import { voidFile } from './close.js';
import jsyaml from 'js-yaml';

export const TIMELOCK_DIR = 'timelocked';
/** isTimelockedFile(camp, t, change): whether a change of close t's commit (repo.diff's
 *  {status, path, mode}) is a time-locked file that close commits: added, a plain file,
 *  timelocked/turn-NNNN/PLAYER.age of a campaign with `orders: timelocked`. */
export function isTimelockedFile(camp, t, c) {
	const dir = `${TIMELOCK_DIR}/${tag(t)}/`;
	return c.path.startsWith(dir) && c.status === 'A' && c.mode === '100644' && /^[^/]+\.age$/.test(c.path.slice(dir.length)) && camp.timelocked;
}

/** The player a time-locked file is from, as umpire names it: base name without ".age", then
 *  without ".yaml" (src/core/timelock.h, timelock_player_of). */
export const playerOf = (name) => name.replace(/\.age$/, '').replace(/\.yaml$/, '');

/**
 * checkTimelockedFiles(camp, t, close, files, round, signature, events, identity): files ({name: bytes}, the
 * names under timelocked/turn-NNNN/) checked against close (parseClose's record) and opened
 * with round's signature (hex, already checked against the chain's key). Every player the
 * close fixed a file for (the umpire's rulings aside) has one, and no other file is there.
 * Returns {opened, notes}: how many opened to their player's orders for turn t (sealed: to
 * an inner age file), and a line for each that does not (the turn counts no orders from him:
 * docs/fairness.md). With identity (a sealed campaign's, published at the reveal) the inner
 * layer is opened too, to an order file of its player for turn t. Failed when a file is not
 * the one the close fixed, or, given the turn's events, gives no orders but the turn
 * journaled none of "orders from P count as none".
 */
export async function checkTimelockedFiles(camp, t, close, files, round, signature, events = null, identity = null) {
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
		checkHash(camp, t, path, pid, o, bytes);
		const note = (why) => {
			if (events && !voided(events, pid)) throw new Failed(`${path} ${why}, but the turn took orders from ${pid} (no event "${voidFile(pid)}…")`);
			notes.push(`note: turn ${t}: ${path} ${why}: no orders from ${pid}`);
		};
		let h;
		try {
			h = inspect(bytes);
		} catch (e) {
			note(`is not a time-locked file (${e.message})`);
			continue;
		}
		if (h.round !== Number(round) || h.chain !== camp.info.hash) {
			note(`is locked to round ${h.round} of chain ${h.chain.slice(0, 16)}…, not the close's round ${round}`);
			continue;
		}
		let plain;
		try {
			plain = await open(bytes, { round: Number(round), signature, info: camp.info });
		} catch (e) {
			note(`does not open with round ${round}'s signature (${e.message})`);
			continue;
		}
		const why = camp.sealed ? innerWhy(plain) : ordersOf(plain, pid, t);
		if (why) {
			note(camp.sealed ? `opens to no age file for the umpire's key (${why})` : `opens to no order file of ${pid} for turn ${t} (${why})`);
			continue;
		}
		// After the reveal, its identity opens the inner layer too: to the orders the turn used.
		if (camp.sealed && identity) {
			let inner;
			try {
				inner = await openInner(plain, identity);
			} catch (e) {
				if (!(e instanceof TlockError)) throw e;
				note(`does not open with the umpire's revealed identity (${e.message})`);
				continue;
			}
			const w = ordersOf(inner, pid, t);
			if (w) {
				note(`opens to no order file of ${pid} for turn ${t} (${w})`);
				continue;
			}
		}
		opened++;
	}
	for (const pid of fixed.keys()) if (!seen.has(pid)) throw new Failed(`the close of turn ${t} fixed a file from ${pid}, but ${where}/ commits none of his`);
	return { opened, notes };
}

/** The close fixed this file: its SHA-256 (open), or its salted commitment with the salt the
 *  close gives beside it (sealed: the file is public from the close on, so is its salt). */
function checkHash(camp, t, path, pid, o, bytes) {
	if (camp.sealed !== Boolean(o.salt)) throw new Failed(`the close of turn ${t} gives ${o.salt ? 'a' : 'no'} salt for ${pid}'s time-locked file (${camp.sealed ? 'a sealed' : 'an open'} campaign)`);
	const got = camp.sealed ? sealedHash(o.salt, bytes) : sha256(bytes);
	if (!equal(got, o.sha256)) throw new Failed(`${path}: ${camp.sealed ? 'salted commitment' : 'SHA256'} ${hex(got)}, the close fixed ${hex(o.sha256)} for ${pid}`);
}

/** Whether the turn's events say pid's file gave no orders (EVENTS_VOID_FILE). */
const voided = (events, pid) => events.some((e) => e && String(e.phase) === 'orders' && String(e.text).startsWith(voidFile(pid)));

/** null when the time-lock layer holds an age file to one X25519 recipient; else why not. */
function innerWhy(plain) {
	try {
		checkInner(plain);
		return null;
	} catch (e) {
		if (e instanceof TlockError) return e.message;
		throw e;
	}
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
export async function checkTimelocked(repo, camp, t, commitId, close, round, signature, events = null, identity = null) {
	const where = `${TIMELOCK_DIR}/${tag(t)}`;
	const files = {};
	for (const [path, e] of Object.entries(await repo.files(commitId, where))) {
		if (e.type !== 'blob' || e.mode !== '100644') throw new Failed(`${path}: committed with mode ${e.mode}, not a plain file`);
		files[path.slice(where.length + 1)] = await repo.blob(commitId, path);
	}
	return checkTimelockedFiles(camp, t, close, files, round, signature, events, identity);
}
