// docs/fairness.md, "Sealed turns": a file's salted commitment H = SHA256("umpire/sealed/v1" ||
// salt || bytes), the salts (orders and each player's report and view), the export's `views`
// and, after the reveal, reveal/turn-NNNN/ (salts.yaml and the withheld order files).
import { Failed, sha256, hmac256, ascii, concat, be32, equal, byteOrder, tag } from './bytes.js';
import { parseYaml, need, has } from './yaml.js';

export const SEALED_LABEL = ascii('umpire/sealed/v1');
export const sealedHash = (salt, bytes) => sha256(concat(SEALED_LABEL, salt, bytes));
/** salt = HMAC(S, "umpire/salt/v1" || be32(t) || P). */
export const orderSalt = (secret, t, player) => hmac256(secret, concat(ascii('umpire/salt/v1'), be32(t), ascii(player)));
/** salt_ITEM = HMAC(S, "umpire/view-salt/v1" || be32(t) || P || 0x00 || ITEM). */
export const viewSalt = (secret, t, player, item) => hmac256(secret, concat(ascii('umpire/view-salt/v1'), be32(t), ascii(player), new Uint8Array([0]), ascii(item)));

/** The export's views: every player once, by id, in a sealed campaign; none in an open one.
 *  Returns { player: [report_sha256, state_sha256] }. */
export function exportViews(root, camp, jpath) {
	if (!camp.sealed) {
		if (has(root, 'views')) throw new Failed(`${jpath}: views in the export of an open campaign`);
		return {};
	}
	const out = {};
	const list = need(root, 'views', jpath, 'seq');
	for (const e of list) out[need(e, 'player', jpath, 'str')] = [need(e, 'report_sha256', jpath, 'hex'), need(e, 'state_sha256', jpath, 'hex')];
	const ids = [...camp.players].sort(byteOrder);
	if (Object.keys(out).length !== list.length || list.map((e) => e.player).join('\n') !== ids.join('\n')) {
		throw new Failed(`${jpath}: views does not list every player once, sorted by id (${ids.join(', ')} expected)`);
	}
	return out;
}

/** After the reveal (tag reveal): { files: { player: H of the revealed file and salt },
 *  views: { player: [report, state] } } of turn t, or null before it. */
export async function revealed(repo, revealId, t) {
	if (!revealId) return null;
	const rdir = `reveal/${tag(t)}`;
	const data = await repo.blob(revealId, `${rdir}/salts.yaml`);
	if (!data) throw new Failed(`reveal: no ${rdir}/salts.yaml`);
	const root = parseYaml(data, `${rdir}/salts.yaml`);
	const files = {};
	for (const e of need(root, 'salts', rdir, 'seq')) {
		const pid = need(e, 'player', rdir, 'str');
		const f = await repo.blob(revealId, `${rdir}/orders/${pid}.yaml`);
		if (f) files[pid] = sealedHash(need(e, 'salt', rdir, 'hex'), f);
	}
	const views = {};
	for (const e of has(root, 'views') ? need(root, 'views', rdir, 'seq') : []) {
		views[need(e, 'player', rdir, 'str')] = [need(e, 'report_sha256', rdir, 'hex'), need(e, 'state_sha256', rdir, 'hex')];
	}
	return { files, views };
}

export function sameViews(a, b) {
	const ka = Object.keys(a), kb = Object.keys(b);
	return ka.length === kb.length && ka.every((k) => b[k] && equal(a[k][0], b[k][0]) && equal(a[k][1], b[k][1]));
}
