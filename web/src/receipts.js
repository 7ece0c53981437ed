// docs/fairness.md, "Receipts": a close receipt (or reveal receipt) the player kept, as the
// bare text or as the mail saved as it came (.eml, read with postal-mime): the close it names
// must be main's close-NNNN with his commitment and D_t, and the mail's topmost Received:
// date (written by his own mail server) must lie between closed_at and the round's round_at.
import PostalMime from 'postal-mime';
import { Failed, hex, equal, utc, ZERO32 } from './bytes.js';
import { parseYaml, need, needRange, onlyKeys, has } from './yaml.js';
import { deadlineOf } from './campaign.js';

const MARK = '# umpire receipt';
/** A witness under a schedule (missing: no-orders) comes within this of the deadline plus grace. */
export const WITNESS_WINDOW = 300;
const KEYS = ['receipt', 'campaign', 'turn', 'player', 'file_sha256', 'salt', 'commitment', 'orders_digest', 'close_commit', 'closed_at', 'beacon_round', 'round_at', 'randomness', 'nonce'];

/** Reads a receipt file { name, bytes }: { kind, campaign, turn, player, ..., mail, received
 *  (UTC seconds of the topmost Received: header, or null) }. */
export async function readReceipt({ name, bytes }) {
	if (bytes.length > 4 * 1024 * 1024) throw new Failed(`receipt ${name}: larger than 4 MiB`);
	let text, mail = false, received = null;
	const head = new TextDecoder().decode(bytes.subarray(0, MARK.length));
	if (head === MARK) {
		text = new TextDecoder().decode(bytes);
	} else {
		mail = true;
		const m = await PostalMime.parse(bytes);
		const rcv = m.headers.find((h) => h.key === 'received');
		if (rcv) {
			const v = rcv.value.replace(/\s+/g, ' ');
			const at = v.lastIndexOf(';');
			const when = at < 0 ? NaN : Date.parse(v.slice(at + 1).trim());
			if (Number.isNaN(when)) throw new Failed(`receipt ${name}: its topmost Received: header has no date umpire can read (RFC 5322, after the last ';')`);
			received = Math.floor(when / 1000);
		}
		const att = (m.attachments || []).find((a) => /\.ya?ml$/i.test(a.filename || '') || /yaml/.test(a.mimeType || ''));
		text = att ? (typeof att.content === 'string' ? att.content : new TextDecoder().decode(att.content)) : (m.text || '');
		text = text.replace(/\r\n/g, '\n');
		const at = text.search(/^# umpire receipt/m);
		if (at < 0) throw new Failed(`receipt ${name}: neither a receipt nor a mail holding one (a line '# umpire receipt' expected)`);
		text = text.slice(at);
		const cut = text.indexOf('\n-- \n');
		if (cut >= 0) text = text.slice(0, cut + 1);
	}
	const root = parseYaml(new TextEncoder().encode(text.replace(/\r\n/g, '\n')), name);
	onlyKeys(root, KEYS, name);
	const kind = need(root, 'receipt', name, 'str');
	if (kind !== 'close' && kind !== 'reveal') throw new Failed(`${name}: receipt '${kind}' (close or reveal expected)`);
	const r = { kind, name, mail, received, campaign: need(root, 'campaign', name, 'str'), turn: needRange(root, 'turn', name, 1, 999999), player: need(root, 'player', name, 'str') };
	if (kind === 'reveal') {
		r.nonce = need(root, 'nonce', name, 'hex');
		return r;
	}
	const hashOrNone = (k) => (need(root, k, name, 'str') === 'none' ? null : need(root, k, name, 'hex'));
	r.file = hashOrNone('file_sha256');
	r.commitment = hashOrNone('commitment');
	r.salt = has(root, 'salt') ? need(root, 'salt', name, 'hex') : null;
	if (r.file === null && r.commitment !== null) throw new Failed(`${name}: commitment of no file (file_sha256: none)`);
	if (r.file && !r.salt && r.commitment && !equal(r.commitment, r.file)) throw new Failed(`${name}: commitment differs from file_sha256, and there is no salt (an open campaign commits to the file's SHA-256)`);
	r.digest = need(root, 'orders_digest', name, 'hex');
	r.commit = need(root, 'close_commit', name, 'str');
	if (!/^[0-9a-f]{40}$/.test(r.commit)) throw new Failed(`${name}: close_commit is not a commit id (40 hex digits expected)`);
	r.closedAt = needRange(root, 'closed_at', name, 0, 2 ** 50);
	return r;
}

/** A close receipt against main's closes (closes: turn -> { commit, close }): returns
 *  { witnessed, lacks, line, note }. Failed on a rewritten history or a witness out of time. */
export function checkCloseReceipt(rc, closes, camp) {
	const { name, turn: t, player } = rc;
	const got = closes.get(t);
	if (!got) return { lacks: true, witnessed: false, line: `receipt ${name}: turn ${t}'s close ${rc.commit} is not on this clone's main` };
	const { commit, close } = got;
	if (commit !== rc.commit) throw new Failed(`receipt ${name}: turn ${t} was closed in commit ${rc.commit}, but the history's close-${String(t).padStart(4, '0')} is commit ${commit}: the history was rewritten (a re-close)`);
	const o = close.orders.find((x) => x.player === player);
	const want = o ? o.sha256 : ZERO32, have = rc.file ? rc.commitment : ZERO32;
	if (!equal(have, want)) throw new Failed(`receipt ${name}: ${player}'s file for turn ${t} has commitment ${hex(have)} on the receipt, ${hex(want)} in the close`);
	if (!equal(rc.digest, close.digest)) throw new Failed(`receipt ${name}: turn ${t}'s orders digest is ${hex(rc.digest)} on the receipt, ${hex(close.digest)} in the close`);
	if (rc.received === null) {
		const note = rc.mail ? `note: receipt ${name} has no Received: header: when it arrived is not checked`
			: `note: receipt ${name} is the bare text, not the saved mail: when it arrived is not checked`;
		return { witnessed: false, line: `receipt ${name}: ok: ${player}'s orders for turn ${t} are the ones closed in ${commit}`, note };
	}
	if (rc.received < close.closedAt) {
		throw new Failed(`receipt ${name}: turn ${t}'s close says it was made at ${utc(close.closedAt)}, but this receipt reached your mail server at ${utc(rc.received)}, before it: the close's time is not when it was made`);
	}
	if (close.entropy === 'beacon' && close.roundAt <= rc.received) {
		throw new Failed(`receipt ${name}: turn ${t}'s close names beacon round ${close.round}, out at ${utc(close.roundAt)}, but this receipt reached your mail server at ${utc(rc.received)}: the round's value was public before the close was receipted (a backdated close)`);
	}
	const s = camp && camp.schedule;
	if (close.entropy === 'beacon' && s && s.missing === 'no-orders') {
		const deadline = deadlineOf(camp, t);
		if (rc.received > deadline + s.grace + WITNESS_WINDOW) {
			throw new Failed(`receipt ${name}: turn ${t}'s close reached your mail server at ${utc(rc.received)}, more than ${WITNESS_WINDOW} s after its deadline ${utc(deadline)} plus grace ${s.grace} s: time enough to see the outcome of a close at the deadline and close again (a re-close)`);
		}
	}
	const when = close.entropy === 'beacon' ? `; received ${utc(rc.received)}, before beacon round ${close.round} (out at ${utc(close.roundAt)})` : `; received ${utc(rc.received)}`;
	return { witnessed: true, line: `receipt ${name}: ok: ${player}'s orders for turn ${t} are the ones closed in ${commit}${when}` };
}

/** A reveal receipt: the turn's reveals text (beacon_value, or null when the turn is not
 *  resolved) lists the player's nonce, not his commitment standing in. */
export function checkRevealReceipt(rc, beaconValue) {
	const { name, turn: t, player } = rc;
	if (beaconValue === null) return `receipt ${name}: ok: ${player}'s nonce for turn ${t} was taken; the turn is not resolved yet`;
	const words = beaconValue.split(' ');
	let found = false, standing = false;
	for (let i = 0; i + 2 < words.length; i += 3) {
		if (words[i] !== player) continue;
		if (words[i + 1] === 'nonce' && words[i + 2] === hex(rc.nonce)) found = true;
		if (words[i + 1] === 'committed') standing = true;
	}
	if (!found) throw new Failed(`receipt ${name}: the umpire took ${player}'s nonce for turn ${t} (reveal receipt), but the turn's reveals ${standing ? 'stand his commitment in ("no reveal from" him)' : 'do not list it'}: ${beaconValue}`);
	return `receipt ${name}: ok: ${player}'s nonce for turn ${t} is in the turn's reveals`;
}
