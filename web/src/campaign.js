// docs/fairness.md, "The files, field by field": campaign.yaml at tag turn-0000 (players,
// fairness: commitment, chain_length, fair, entropy, the beacon and its chain; visibility;
// schedule), as the Setup fixed it.
import { Failed, hex } from './bytes.js';
import { parseYaml, need, has, isMap } from './yaml.js';
import { KNOWN_CHAINS, SCHEME, QUICKNET, QUICKNET_SOURCE } from './beacon.js';

export const UMPIRE = 'umpire';
const ENTROPIES = ['none', 'beacon', 'players'];

/** The campaign from campaign.yaml's bytes: { id, rules, rulesRevision, players, commitment,
 *  chainLength, fair, entropy, beacon, beaconGenesis/Period/Delay, beaconChain, beaconKey,
 *  beaconDemo, sealed, timestamps (authority names), schedule, bytes }. Failed naming the key that is wrong. */
export function readCampaign(bytes) {
	const name = 'campaign.yaml (turn-0000)';
	const root = parseYaml(bytes, name);
	const players = [];
	for (const p of need(root, 'players', name, 'seq')) {
		const id = need(p, 'id', name, 'str');
		if (!/^[\x21-\x7e]+$/.test(id) || id === UMPIRE || players.includes(id)) {
			throw new Failed(`${name}: bad or repeated player id ${JSON.stringify(id)}`);
		}
		players.push(id);
	}
	const fair = need(root, 'fairness', name, 'map');
	const c = {
		bytes, id: need(root, 'id', name, 'str'), rules: need(root, 'rules', name, 'str'),
		rulesRevision: has(root, 'rules_revision') ? need(root, 'rules_revision', name, 'num') : 1,
		players,
		commitment: need(fair, 'commitment', name, 'hex'),
		chainLength: need(fair, 'chain_length', name, 'num'),
		fair: need(fair, 'fair', name, 'bool'),
		sealed: (has(root, 'visibility') ? need(root, 'visibility', name, 'str') : 'open') === 'sealed',
	};
	if (c.chainLength < 1 || c.chainLength > 2 ** 32 - 1) throw new Failed(`${name}: chain_length ${c.chainLength} out of range`);
	c.entropy = has(fair, 'entropy') ? need(fair, 'entropy', name, 'str') : 'none';
	if (!ENTROPIES.includes(c.entropy)) throw new Failed(`${name}: unknown entropy '${c.entropy}' (none, beacon or players expected)`);
	const beacon = has(fair, 'beacon') ? need(fair, 'beacon', name, 'str') : 'none';
	c.beacon = beacon === 'none' ? null : beacon;
	if (c.beacon !== null && c.entropy !== 'beacon') throw new Failed(`${name}: a beacon is named but entropy is not beacon`);
	if (c.entropy === 'beacon' && c.beacon === null) throw new Failed(`${name}: entropy is beacon but no beacon is named (fairness.beacon)`);
	for (const [k, low] of [['beacon_genesis', 0], ['beacon_period', 1], ['beacon_delay', 0]]) {
		const key = k.replace(/_(.)/g, (_, x) => x.toUpperCase());
		c[key] = null;
		if (c.entropy === 'beacon') {
			const v = need(fair, k, name, 'num');
			if (v < low || v > 2 ** 40) throw new Failed(`${name}: ${k} ${v} out of range (${low} to 2^40)`);
			c[key] = v;
		}
	}
	readChain(c, fair, name);
	c.timestamps = readTimestamps(fair, name);
	c.schedule = readSchedule(root, name);
	return c;
}

/** fairness.timestamps ("Time stamps"): the names of the RFC 3161 authorities each close is
 *  sent to, in campaign.yaml's order. */
function readTimestamps(fair, name) {
	const out = [];
	for (const a of has(fair, 'timestamps') ? need(fair, 'timestamps', name, 'seq') : []) {
		const n = need(a, 'name', name, 'str');
		if (!/^[A-Za-z0-9_.-]{1,64}$/.test(n) || out.includes(n)) throw new Failed(`${name}: time-stamp authority '${n}': a bad or repeated name`);
		out.push(n);
	}
	return out;
}

/** fairness.beacon_chain, beacon_scheme, beacon_public_key and beacon_demo ("The beacon's
 *  signature"): a known chain's hash takes its own key only. */
function readChain(c, fair, name) {
	c.beaconChain = c.beaconKey = null;
	c.beaconDemo = has(fair, 'beacon_demo') ? need(fair, 'beacon_demo', name, 'bool') : false;
	if (c.entropy !== 'beacon') return;
	const keys = ['beacon_chain', 'beacon_scheme', 'beacon_public_key'];
	if (!keys.some((k) => has(fair, k))) {
		if (c.beaconDemo) throw new Failed(`${name}: beacon_demo without the demo beacon's chain and key`);
		if (c.beacon === QUICKNET_SOURCE) {
			c.beaconChain = QUICKNET;
			c.beaconKey = KNOWN_CHAINS[QUICKNET].key;
		}
		return;
	}
	const [chain, scheme, key] = keys.map((k) => need(fair, k, name, 'str'));
	if (scheme !== SCHEME) throw new Failed(`${name}: beacon scheme '${scheme}': only ${SCHEME} is checked`);
	if (!/^[0-9a-f]{64}$/.test(chain)) throw new Failed(`${name}: beacon chain '${chain}' (64 lower-case hex digits expected)`);
	if (!/^[0-9a-f]{192}$/.test(key)) throw new Failed(`${name}: beacon public key '${key}' (192 lower-case hex digits expected)`);
	const known = KNOWN_CHAINS[chain];
	if (known && known.key !== key) throw new Failed(`${name}: beacon chain ${chain} is ${known.name}, whose public key is ${known.key}, not ${key}`);
	if ((known ? known.demo : false) !== c.beaconDemo) throw new Failed(`${name}: beacon chain ${chain}: beacon_demo must be ${known && known.demo}`);
	c.beaconChain = chain;
	c.beaconKey = key;
}

/** schedule as the late-close check needs it: { first, every, grace, missing } (seconds), or
 *  null without one (defaults: every 7d, grace 0, missing no-orders). */
function readSchedule(root, name) {
	const s = isMap(root) ? root.schedule : null;
	if (!isMap(s) || !has(s, 'first_deadline')) return null;
	const dur = (k, def) => {
		if (!has(s, k)) return def;
		const m = /^([0-9]+)([smhd]?)$/.exec(String(s[k]));
		if (!m) throw new Failed(`${name}: schedule.${k} '${s[k]}' is not a duration`);
		return Number(m[1]) * { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[m[2]];
	};
	const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2})(?::([0-9]{2}))?Z$/.exec(String(s.first_deadline));
	if (!m) throw new Failed(`${name}: schedule.first_deadline '${s.first_deadline}' is not a UTC time`);
	const first = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +(m[6] || 0)) / 1000;
	return { first, every: dur('every', 7 * 86400), grace: dur('grace', 0), missing: String(s.missing || 'no-orders'), extensions: dur('extensions', 0) };
}

export const commitmentHex = (c) => hex(c.commitment);
