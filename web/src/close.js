// docs/fairness.md, "Closed turns": the close file journal/turn-NNNN.close.yaml (at tag
// close-NNNN) in the form `umpire close` writes, its commit "Turn N: orders closed", the round
// it names (out strictly after the close), the late close under a schedule, what it fixed
// against what the turn used, and under entropy players the reveals text.
import { sha1 } from '@noble/hashes/legacy';
import { Failed, sha256, hex, equal, utc, byteOrder, closeTag, tag, concat } from './bytes.js';
import { parseYaml, need, needRange, onlyKeys, has } from './yaml.js';
import { roundAt, namedRound } from './beacon.js';
import { UMPIRE, NO_SHIFT, parseOverride, deadlineOf, turnRound } from './campaign.js';
import { isTimelockedFile } from './timelock-verify.js';

export const closePath = (t) => `journal/turn-${String(t).padStart(4, '0')}.close.yaml`;
const CLOSE_KEYS = ['campaign', 'turn', 'closed_at', 'closed_at_utc', 'entropy', 'orders_digest', 'orders', 'missing', 'beacon', 'overrides'];
export const SIGNATURE = 'umpire <umpire@localhost>';
export const LATE_SLACK = 3600;

/** A close file's fields: { bytes, campaign, turn, closedAt, entropy, digest, orders: [{player,
 *  sha256, entropy}], missing, round, roundAt }. */
export function parseClose(bytes, path) {
	const root = parseYaml(bytes, path);
	onlyKeys(root, CLOSE_KEYS, path);
	const r = {
		bytes, campaign: need(root, 'campaign', path, 'str'), turn: needRange(root, 'turn', path, 1, 999999),
		closedAt: needRange(root, 'closed_at', path, 0, 2 ** 50), entropy: need(root, 'entropy', path, 'str'),
		digest: need(root, 'orders_digest', path, 'hex'), orders: [], missing: [], round: null, roundAt: null,
	};
	if (r.entropy !== 'beacon' && r.entropy !== 'players') throw new Failed(`${path}: entropy '${r.entropy}' (beacon or players expected)`);
	for (const o of need(root, 'orders', path, 'seq')) {
		onlyKeys(o, ['player', 'sha256', 'salt', 'entropy'], path);
		r.orders.push({
			player: need(o, 'player', path, 'str'), sha256: need(o, 'sha256', path, 'hex'),
			salt: has(o, 'salt') ? need(o, 'salt', path, 'hex') : null, entropy: has(o, 'entropy') ? need(o, 'entropy', path, 'hex') : null,
		});
	}
	for (const p of need(root, 'missing', path, 'seq')) {
		if (typeof p !== 'string') throw new Failed(`${path}: a player id expected in missing`);
		r.missing.push(p);
	}
	if (r.entropy === 'beacon') {
		const b = need(root, 'beacon', path, 'map');
		onlyKeys(b, ['source', 'round', 'round_at', 'round_at_utc'], path);
		r.round = needRange(b, 'round', path, 1, 2 ** 50);
		r.roundAt = needRange(b, 'round_at', path, 0, 2 ** 50);
	}
	r.overrides = (has(root, 'overrides') ? need(root, 'overrides', path, 'seq') : []).map((o) => parseOverride(o, path));
	return r;
}

/** The overrides turn t's close carries: made while the turn was open, none moving a deadline
 *  that had passed when made; extensions within schedule.extensions, pauses and resumes
 *  shifting by what they say. */
function checkOverrides(camp, t, r) {
	camp.overrides = camp.overrides || new Map();
	camp.closedAt = camp.closedAt || new Map();
	const prev = camp.closedAt.get(t - 1);
	const flat = [...camp.overrides.keys()].filter((u) => u < t).sort((a, b) => a - b).flatMap((u) => camp.overrides.get(u));
	camp.closedAt.set(t, r.closedAt);
	camp.overrides.set(t, r.overrides);
	const s = camp.schedule;
	r.overrides.forEach((o, i) => {
		if (o.at > r.closedAt || (prev !== undefined && o.at < prev)) throw new Failed(`an override made at ${o.at}, outside the time turn ${t} was open (from ${prev} to its close at ${r.closedAt})`);
		if (!NO_SHIFT.includes(o.kind)) {
			if (!s) throw new Failed(`a ${o.kind} without a schedule`);
			const dl = deadlineOf(camp, t, [t, i]);
			if (o.at >= dl) throw new Failed(`the ${o.kind} made at ${utc(o.at)} moves turn ${t}'s deadline ${utc(dl)}, which had passed then (a change recorded after a deadline cannot move it)`);
		}
		const before = flat.concat(r.overrides.slice(0, i));
		const last = before.filter((p) => p.kind === 'pause' || p.kind === 'resume').pop();
		if (o.kind === 'extend') {
			const used = before.concat([o]).filter((p) => p.kind === 'extend' && p.player === o.player).reduce((a, p) => a + p.shift, 0);
			if (o.shift <= 0 || used > s.extensions) throw new Failed(`an extension of ${o.shift} s for ${o.player} brings his extensions to ${used} s, over the budget schedule.extensions gives (${s.extensions} s)`);
		} else if (o.kind === 'pause' && (o.until <= o.at || o.shift !== o.until - o.at)) {
			throw new Failed(`a pause made at ${utc(o.at)} must end later and shift every deadline by its length`);
		} else if (o.kind === 'resume' && (!last || last.kind !== 'pause' || last.until <= o.at || o.shift !== o.at - last.until)) {
			throw new Failed(`a resume at ${utc(o.at)} ends no pause running then, or moves the deadlines by other than the pause's unused time`);
		}
	});
}

// The form of umpire's YAML emitter (libyaml): a string is written plain when it is safe to,
// else double-quoted with YAML's escapes.
function plainSafe(s) {
	if (!s || s[0] === ' ' || s[s.length - 1] === ' ') return false;
	if (['y', 'n', 'yes', 'no', 'true', 'false', 'on', 'off', 'null', '~'].includes(s.toLowerCase())) return false;
	const c0 = s.codePointAt(0);
	if (c0 < 0x80 && !/[A-Za-z0-9_/]/.test(s[0])) return false;
	let numeric = true;
	for (const ch of s) {
		const o = ch.codePointAt(0);
		if (o < 0x80 && !/[A-Za-z0-9_\-./ ]/.test(ch)) return false;
		if (!'0123456789_.:eE+-'.includes(ch)) numeric = false;
		if ((o >= 0x80 && o <= 0xa0) || ch === '\u2028' || ch === '\u2029' || ch === '\ufeff') return false;
	}
	if (s[0] >= '0' && s[0] <= '9' && (numeric || (s[0] === '0' && s.length > 1 && 'xXoObB'.includes(s[1])))) return false;
	return true;
}
const printable = (o) => o === 0x0a || (o >= 0x20 && o <= 0x7e) || (o >= 0xa0 && o <= 0xd7ff) || (o >= 0xe000 && o <= 0xfffd && o !== 0xfeff);
const ESC = { 0: '0', 7: 'a', 8: 'b', 9: 't', 10: 'n', 11: 'v', 12: 'f', 13: 'r', 27: 'e', 34: '"', 92: '\\', 0x85: 'N', 0xa0: '_', 0x2028: 'L', 0x2029: 'P' };
export function emitStr(s) {
	if (plainSafe(s) && [...s].every((c) => printable(c.codePointAt(0)))) return s;
	let out = '"';
	for (const c of s) {
		const o = c.codePointAt(0);
		if (!printable(o) || '\r\n\x85\u2028\u2029"\\'.includes(c)) {
			const e = ESC[o];
			out += e ? '\\' + e : o <= 0xff ? '\\x' + o.toString(16).toUpperCase().padStart(2, '0')
				: o <= 0xffff ? '\\u' + o.toString(16).toUpperCase().padStart(4, '0') : '\\U' + o.toString(16).toUpperCase().padStart(8, '0');
		} else out += c;
	}
	return out + '"';
}

/** The close file as `umpire close` writes it. */
export function renderClose(r, camp) {
	const out = ['# umpire close: the inputs of this turn, fixed before its randomness is known',
		'campaign: ' + emitStr(r.campaign), `turn: ${r.turn}`, `closed_at: ${r.closedAt}`,
		'closed_at_utc: ' + emitStr(utc(r.closedAt)), 'entropy: ' + emitStr(r.entropy), 'orders_digest: ' + emitStr(hex(r.digest))];
	out.push(r.orders.length ? 'orders:' : 'orders: []');
	for (const o of r.orders) {
		out.push('- player: ' + emitStr(o.player), '  sha256: ' + emitStr(hex(o.sha256)));
		if (o.salt) out.push('  salt: ' + emitStr(hex(o.salt)));
		if (o.entropy) out.push('  entropy: ' + emitStr(hex(o.entropy)));
	}
	out.push(r.missing.length ? 'missing:' : 'missing: []');
	for (const p of r.missing) out.push('- ' + emitStr(p));
	if (r.entropy === 'beacon') {
		out.push('beacon:', '  source: ' + emitStr(camp.beacon || ''), `  round: ${r.round}`, `  round_at: ${r.roundAt}`, '  round_at_utc: ' + emitStr(utc(r.roundAt)));
	}
	if (r.overrides.length) out.push('overrides:');
	for (const o of r.overrides) {
		out.push('- kind: ' + o.kind, `  at: ${o.at}`, '  at_utc: ' + emitStr(utc(o.at)));
		if (o.player !== null) out.push('  player: ' + emitStr(o.player));
		if (!NO_SHIFT.includes(o.kind)) out.push(`  shift: ${o.shift}`);
		if (o.kind === 'pause') out.push(`  until: ${o.until}`);
		if (o.sshKey !== null) out.push('  ssh_key: ' + emitStr(o.sshKey));
		out.push('  reason: ' + emitStr(o.reason));
	}
	return new TextEncoder().encode(out.join('\n') + '\n');
}

/** The close commit's message. */
export function closeMessage(r, camp) {
	const what = r.entropy === 'beacon' ? `beacon round ${r.round}` : "the players' reveals";
	return `Turn ${r.turn}: orders closed\n\n${r.orders.length} order files, ${r.missing.length} without; randomness: ${what}\n\n` +
		`Turn: ${r.turn}\nOrders-Digest: ${hex(r.digest)}\nCommitment: ${hex(camp.commitment)}\n`;
}

/** The close's own checks: its form, the round it names (out strictly after the close, at the
 *  time genesis and period give), the late close, a commitment under players. */
export function checkCloseFile(camp, t, r) {
	const path = closePath(t);
	if (r.turn !== t || r.campaign !== camp.id || r.entropy !== camp.entropy) {
		throw new Failed(`${path} at ${closeTag(t)} is the close of turn ${r.turn} of campaign '${r.campaign}' (entropy ${r.entropy}), not of this turn (entropy ${camp.entropy})`);
	}
	for (const [key, ids] of [['orders', r.orders.map((o) => o.player)], ['missing', r.missing]]) {
		const sorted = [...new Set(ids)].sort(byteOrder);
		if (ids.length !== sorted.length || ids.some((p, i) => p !== sorted[i])) {
			throw new Failed(`${path} (tag ${closeTag(t)}): ${key} is not sorted${key === 'orders' ? ' by player' : ''}, or lists a player twice`);
		}
	}
	if (!equal(renderClose(r, camp), r.bytes)) throw new Failed(`${path} at ${closeTag(t)} is not in the form umpire close writes`);
	if (r.entropy === 'beacon') {
		const want = roundAt(camp.beaconGenesis, camp.beaconPeriod, r.round);
		if (r.roundAt !== want) throw new Failed(`${path}: beacon round ${r.round} is out at ${want} (genesis ${camp.beaconGenesis}, period ${camp.beaconPeriod}), not at ${r.roundAt}`);
		const named = namedRound(camp.beaconGenesis, camp.beaconPeriod, camp.beaconDelay, r.closedAt);
		// Time-locked orders: the close names R(t), the round the files were locked to, never
		// one earlier than a close at closed_at could name (docs/fairness.md, "Time-locked orders").
		// R(t) from the schedule as this close's overrides and the earlier ones move it.
		camp.overrides = camp.overrides || new Map();
		camp.overrides.set(t, r.overrides);
		const locked = camp.timelocked ? turnRound(camp, t) : 0;
		if (r.roundAt > r.closedAt && locked && (r.round !== locked || r.round < named)) {
			throw new Failed(`${path}: beacon round ${r.round}, but turn ${t}'s orders are time-locked to round ${locked}, which a close at ${r.closedAt} ${locked < named ? 'cannot name (it is out too soon after)' : 'must name'}`);
		}
		if (r.roundAt > r.closedAt && !locked && r.round !== named) {
			throw new Failed(`${path}: beacon round ${r.round}, but a close at ${r.closedAt} names round ${named}, the first out ${camp.beaconDelay} s after it (a later round leaves time to close again)`);
		}
		if (r.roundAt <= r.closedAt) {
			const first = namedRound(camp.beaconGenesis, camp.beaconPeriod, camp.beaconDelay, r.closedAt);
			throw new Failed(`${path}: beacon round ${r.round} is out at ${r.roundAt}, not after the close (${r.closedAt}): its value may have been known at the close (round ${first}, the first out ${camp.beaconDelay} seconds and more after it, expected)`);
		}
	}
	checkOverrides(camp, t, r);
	const s = camp.schedule;
	if (s && s.missing === 'no-orders') {
		const deadline = deadlineOf(camp, t);
		if (r.closedAt > deadline + s.grace + LATE_SLACK) {
			throw new Failed(`closed at ${utc(r.closedAt)}, more than ${LATE_SLACK} s after its deadline ${utc(deadline)} plus grace ${s.grace} s: umpire run closes a turn at its first pass after them, so this close was made late by hand, or redone (a re-close, the first one's receipts held back)`);
		}
	}
	if (r.entropy === 'players' && !r.orders.some((o) => o.entropy)) {
		throw new Failed(`no order file of the close carries an entropy: commitment (entropy players): its reveals would be empty and B_t = SHA256("") known before the close (${path} at ${closeTag(t)})`);
	}
}

/** The close commit: subject, trailers, one parent (turn t-1's commit prevId), exactly its
 *  file and its time stamps (tokens: the paths of the tokens it holds, "Time stamps") added,
 *  and the commit as umpire makes it (its raw bytes rebuilt from those). */
export async function checkCloseCommit(repo, camp, t, commit, r, prevId, tokens = []) {
	const tg = closeTag(t);
	const subject = commit.message.split('\n')[0];
	if (subject !== `Turn ${t}: orders closed`) throw new Failed(`the commit of ${tg} is "${subject}", not "Turn ${t}: orders closed"`);
	for (const [k, want] of [['Turn', String(t)], ['Orders-Digest', hex(r.digest)], ['Commitment', hex(camp.commitment)]]) {
		const got = trailer(commit.message, k);
		if (got !== want) throw new Failed(`the commit of ${tg} says '${k}: ${got ?? ''}', ${want} expected`);
	}
	if (commit.parents.length !== 1 || commit.parents[0] !== prevId) throw new Failed(`the parent of ${tg} is ${commit.parents.join(' ') || 'none'}, not ${prevId}`);
	const ch = (await repo.diff(prevId, commit.oid)).filter((c) => !isTimelockedFile(camp, t, c)); // issue 36
	const files = [closePath(t), ...tokens];
	const added = ch.filter((c) => c.status === 'A' && c.mode === '100644').map((c) => c.path).sort();
	if (ch.length !== files.length || added.join('\n') !== [...files].sort().join('\n')) {
		throw new Failed(`${tg} changes ${ch.map((c) => `${c.status} ${c.path}`).join(', ') || 'nothing'}: a close commit adds exactly ${files.join(' and ')} to ${tag(t - 1)}`);
	}
	const when = /^umpire <umpire@localhost> (\d+) \+0000$/.exec(commit.committer || '');
	const sig = `${SIGNATURE} ${when ? when[1] : 0} +0000`;
	const raw = `tree ${commit.tree}\nparent ${prevId}\nauthor ${sig}\ncommitter ${sig}\n\n${closeMessage(r, camp)}`;
	if (raw !== commit.raw) {
		const body = new TextEncoder().encode(raw);
		const rebuilt = hex(sha1(concat(new TextEncoder().encode(`commit ${body.length}\0`), body)));
		throw new Failed(`${tg} is commit ${commit.oid}, but the close rebuilds to ${rebuilt}: it holds other files, another message or another parent than the close's (its file and its time stamps)`);
	}
}

/** The last `Key: value` line of a commit message, or null. */
export function trailer(message, key) {
	let found = null;
	for (const line of message.split('\n')) if (line.startsWith(key + ': ')) found = line.slice(key.length + 2);
	return found;
}

const ENTROPY_LINE = /^entropy:[ ]+(?:"([^"\n]*)"|'([^'\n]*)'|([^\s#'"]+))[ ]*(?:#[^\n]*)?$/gm;
/** The top-level `entropy:` commitment of an order file, null without one, false when it is
 *  not 64 hex digits (or there are several). */
export function orderEntropy(bytes) {
	const text = new TextDecoder().decode(bytes);
	const found = [...text.matchAll(ENTROPY_LINE)].map((m) => m[1] || m[2] || m[3]);
	if (!found.length && !/^entropy:/m.test(text)) return null;
	if (found.length !== 1 || !/^[0-9a-fA-F]{64}$/.test(found[0])) return false;
	return Uint8Array.from(found[0].match(/../g), (h) => parseInt(h, 16));
}

/** What the close fixed against what turn t committed (open campaigns): D_t, the set of files
 *  and each hash, the players without orders, the entropy commitments. */
export function checkAgainstTurn(camp, t, close, files, digest, odir) {
	const cp = `${closePath(t)} (tag ${closeTag(t)})`;
	if (!equal(close.digest, digest)) throw new Failed(`${cp} fixed D_t ${hex(close.digest)}, the committed order files give ${hex(digest)}`);
	const closed = new Map();
	for (const o of close.orders) {
		if (closed.has(o.player)) throw new Failed(`${cp} lists ${o.player} twice`);
		closed.set(o.player, o);
	}
	for (const pid of Object.keys(files).sort()) {
		const path = `${odir}/${pid}.yaml`;
		const o = closed.get(pid);
		if (!o) throw new Failed(`${path}: committed, but ${cp} fixed no file from ${pid}`);
		if (!equal(sha256(files[pid]), o.sha256)) throw new Failed(`${path}: SHA256 ${hex(sha256(files[pid]))}, ${cp} fixed ${hex(o.sha256)}`);
		const e = orderEntropy(files[pid]);
		let want = null;
		if (camp.entropy === 'players' && pid !== UMPIRE) {
			if (!e) throw new Failed(`${path}: no entropy: line of 64 hex digits (entropy players: every player commits to a nonce)`);
			want = e;
		}
		if (e !== null && want === null) throw new Failed(`${path}: an entropy: line, but ${pid === UMPIRE ? "the umpire's file carries none" : 'this campaign takes no entropy from the players'}`);
		if (!(o.entropy === null ? want === null : want !== null && equal(o.entropy, want))) {
			throw new Failed(`${path}: entropy ${want ? hex(want) : 'none'}, ${cp} fixed ${o.entropy ? hex(o.entropy) : 'none'}`);
		}
	}
	for (const [pid, o] of closed) if (!(pid in files)) throw new Failed(`${cp} fixed a file from ${pid} (sha256 ${hex(o.sha256)}), which is not committed in ${odir}`);
	checkMissing(camp, close, cp, (p) => p in files);
}

/** The event text of a due player closed without orders (src/core/events.h EVENTS_NO_ORDERS). */
export const NO_ORDERS = 'no orders from ';
/** The event text of a player whose file the close fixed but which gives no orders (a
 *  time-locked file that did not open: EVENTS_VOID_FILE): voidFile(P) is its start. */
export const voidFile = (p) => `orders from ${p} count as none: `;

/** The close's missing list is who turn t journaled as sending no orders (an event "no orders
 *  from P" of phase orders each, src/core/turn.c step_resolve): the turns a seat missed and
 *  civil disorder are counted from the closes, so a close rewritten to hide a miss must
 *  disagree with its turn. Every event of phase orders that begins so is exactly that text. */
export function checkMissingEvents(t, close, events, jpath) {
	const said = (Array.isArray(events) ? events : [])
		.filter((e) => e && typeof e === 'object' && String(e.phase) === 'orders' && String(e.text).startsWith(NO_ORDERS))
		.map((e) => String(e.text).slice(NO_ORDERS.length))
		.sort();
	const want = [...close.missing].sort();
	if (said.join('\n') !== want.join('\n')) {
		throw new Failed(`${closePath(t)} (tag ${closeTag(t)}) lists without orders [${close.missing.join(', ')}], the turn's ${jpath} journaled no orders from [${said.join(', ')}]`);
	}
}

function checkMissing(camp, close, cp, sent) {
	const m = close.missing;
	const sorted = [...new Set(m)].sort(byteOrder);
	if (m.length !== sorted.length || m.some((p, i) => p !== sorted[i])) throw new Failed(`${cp}: missing is not sorted, or lists a player twice`);
	for (const pid of m) {
		if (!camp.players.includes(pid) || sent(pid)) throw new Failed(`${cp}: missing lists ${pid}, ${sent(pid) ? 'who sent a file' : 'not a player'}`);
	}
}

/** Sealed: the close fixed D_t and exactly the salted hashes the export shows. */
export function checkSealedAgainstTurn(camp, t, close, salted, digest) {
	const cp = `${closePath(t)} (tag ${closeTag(t)})`;
	const same = close.orders.length === Object.keys(salted).length && close.orders.every((o) => salted[o.player] && equal(salted[o.player], o.sha256));
	if (!equal(close.digest, digest) || !same) throw new Failed(`${cp} fixed other salted hashes or another D_t than the export's`);
	checkMissing(camp, close, cp, (p) => p in salted);
}

/** entropy players: the turn's beacon_value is the reveals text: for each file of the close
 *  with a commitment, in the close's order, "PLAYER nonce HEX" (SHA256(nonce) is the
 *  commitment) or "PLAYER committed HEX" (the commitment standing in). Returns
 *  { standing: [players standing in], revealed: [players who revealed] }. */
export function checkReveals(close, value) {
	const words = value ? value.split(' ') : [];
	const standing = [], revealed = [];
	let i = 0;
	for (const o of close.orders) {
		if (!o.entropy) continue;
		const pid = o.player;
		if (words[i] !== pid || words.length < i + 3) throw new Failed(`reveals: the reveals do not list ${pid} where the close's order says ("PLAYER nonce|committed HEX" in player order expected)`);
		const kind = words[i + 1], hx = words[i + 2];
		i += 3;
		if (!/^[0-9a-f]{64}$/.test(hx)) throw new Failed(`reveals: the reveal of ${pid} is not 64 lower-case hex digits`);
		const v = Uint8Array.from(hx.match(/../g), (h) => parseInt(h, 16));
		if (kind === 'nonce') {
			if (!equal(sha256(v), o.entropy)) throw new Failed(`reveals: the nonce of ${pid} does not hash to the entropy its order file committed to (SHA256 ${hex(sha256(v))}, committed ${hex(o.entropy)})`);
			revealed.push(pid);
		} else if (kind === 'committed' && equal(v, o.entropy)) standing.push(pid);
		else throw new Failed(`reveals: the reveal of ${pid} is neither its nonce nor its committed entropy`);
	}
	if (i !== words.length) throw new Failed('reveals: the reveals list more than the close\'s players');
	return { standing, revealed };
}
