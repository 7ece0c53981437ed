// docs/fairness.md, "The files, field by field": campaign.yaml at tag turn-0000 (players,
// fairness: commitment, chain_length, fair, entropy, the beacon and its chain; visibility;
// schedule; orders: timelocked and the umpire's age recipient), as the Setup fixed it; and the
// schedule as its overrides move it ("Schedule changes"): turn N's deadline and R(N), the round
// time-locked orders for turn N are sealed to ("Time-locked orders"), as src/core computes them
// (pbem_deadline, campaign_turn_round). The one reader of campaign.yaml in JavaScript: the
// verifier, the sealing page and their tests use it.
import { Failed, hex } from './bytes.js';
import { parseYaml, need, needRange, onlyKeys, has, isMap } from './yaml.js';
import { KNOWN_CHAINS, SCHEME, QUICKNET, QUICKNET_SOURCE } from './beacon.js';

export const UMPIRE = 'umpire';
const ENTROPIES = ['none', 'beacon', 'players'];
/** The close window (src/core/campaign.h CLOSE_WITNESS_WINDOW), seconds. */
export const CLOSE_WITNESS_WINDOW = 300;
export const OVERRIDE_KINDS = ['extend', 'pause', 'resume', 'replace', 'end'];
export const NO_SHIFT = ['replace', 'end']; // overrides that move no deadline

/** The campaign from campaign.yaml's bytes: { id, rules, rulesRevision, players, commitment,
 *  chainLength, fair, entropy, beacon, beaconGenesis/Period/Delay, beaconChain, beaconKey,
 *  beaconDemo, sealed, timestamps (authority names), schedule, timelocked, recipient (the
 *  umpire's age1… or null), info (the chain in drand's /info shape, or null), overrides (a Map
 *  turn => [override], empty: the closes fill it as they are checked, or readOverrides), bytes }.
 *  Failed naming the key that is wrong. */
export function readCampaign(bytes, name = 'campaign.yaml (turn-0000)') {
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
	readTimelock(c, root, name);
	c.overrides = new Map();
	return c;
}

/** `orders:` (plain or timelocked) and `timelock: { recipient }`, as src/core/campaign.c reads
 *  them: a time-locked campaign needs a schedule and a signed chain, a sealed one the umpire's
 *  recipient. */
function readTimelock(c, root, name) {
	const orders = has(root, 'orders') ? need(root, 'orders', name, 'str') : 'plain';
	if (orders !== 'plain' && orders !== 'timelocked') throw new Failed(`${name}: unknown orders '${orders}' (plain or timelocked expected)`);
	c.timelocked = orders === 'timelocked';
	c.recipient = null;
	if (has(root, 'timelock')) {
		const tl = need(root, 'timelock', name, 'map');
		onlyKeys(tl, ['recipient'], name);
		c.recipient = need(tl, 'recipient', name, 'str');
		if (!/^age1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{58}$/.test(c.recipient)) throw new Failed(`${name}: timelock.recipient '${c.recipient}' is not an age X25519 recipient (age1...)`);
	}
	c.info = c.beaconChain && c.beaconKey ? {
		public_key: c.beaconKey, period: c.beaconPeriod, genesis_time: c.beaconGenesis, hash: c.beaconChain,
		schemeID: SCHEME, metadata: { beaconID: c.beaconDemo ? 'umpire-demo' : 'quicknet' },
	} : null;
	if (!c.timelocked) return;
	if (!c.schedule) throw new Failed(`${name}: orders timelocked needs a schedule (its rounds come from the deadlines)`);
	if (!c.info) throw new Failed(`${name}: orders timelocked needs a signed beacon (fairness.beacon_chain and beacon_public_key: drand quicknet or the demo beacon)`);
	if (c.sealed && !c.recipient) throw new Failed(`${name}: a sealed campaign with orders timelocked needs timelock.recipient (the umpire's age1...)`);
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

/** parseUtc(s): "YYYY-MM-DDTHH:MM[:SS]Z" (1970..9999) as UTC seconds, as pbem_parse_utc; null
 *  when it is not one. */
export function parseUtc(s) {
	const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2})(?::([0-9]{2}))?Z$/.exec(String(s));
	if (!m) return null;
	const [y, mo, d, h, mi, sec] = m.slice(1).map((x) => (x === undefined ? 0 : Number(x)));
	const mdays = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
	const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
	if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || (mo === 2 && d === 29 && !leap) || h > 23 || mi > 59 || sec > 59) return null;
	return Date.UTC(y, mo - 1, d, h, mi, sec) / 1000; // whole seconds: exact
}

/** parseDuration(s): "90", "90s", "45m", "12h", "7d" (at most 100000000 units) as seconds, as
 *  pbem_parse_duration; null when it is not one. */
export function parseDuration(s) {
	const m = /^([0-9]{1,9})([smhd]?)$/.exec(String(s));
	if (!m || Number(m[1]) > 100000000) return null;
	return Number(m[1]) * { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[m[2]];
}

/** schedule: { first, every, grace, missing, extensions } (seconds), or null without one
 *  (defaults: every 7d, grace 0, missing no-orders, extensions 0). */
function readSchedule(root, name) {
	const s = isMap(root) ? root.schedule : null;
	if (!isMap(s) || !has(s, 'first_deadline')) return null;
	const dur = (k, def) => {
		if (!has(s, k)) return def;
		const v = parseDuration(s[k]);
		if (v === null) throw new Failed(`${name}: schedule.${k} '${s[k]}' is not a duration like 90s, 45m, 12h or 7d`);
		return v;
	};
	const first = parseUtc(s.first_deadline);
	if (first === null) throw new Failed(`${name}: schedule.first_deadline '${s.first_deadline}' is not a UTC time like 2026-12-06T18:00:00Z`);
	return { first, every: dur('every', 7 * 86400), grace: dur('grace', 0), missing: String(s.missing || 'no-orders'), extensions: dur('extensions', 0) };
}

/** One item of an `overrides:` list (a close's, or with withTurn the umpire's pending file,
 *  docs/formats.md "Umpire's overrides"): { kind, turn (withTurn), at, player, shift, until,
 *  sshKey, reason }. Failed naming file and key. */
export function parseOverride(o, path, withTurn = false) {
	onlyKeys(o, [...(withTurn ? ['turn'] : []), 'kind', 'at', 'at_utc', 'player', 'shift', 'until', 'ssh_key', 'reason'], path);
	const kind = need(o, 'kind', path, 'str');
	if (!OVERRIDE_KINDS.includes(kind)) throw new Failed(`${path}: kind '${kind}' (${OVERRIDE_KINDS.join(', ')} expected)`);
	return {
		kind, turn: withTurn ? needRange(o, 'turn', path, 1, 999999) : null, at: needRange(o, 'at', path, 0, 2 ** 50),
		player: has(o, 'player') ? need(o, 'player', path, 'str') : null,
		shift: !NO_SHIFT.includes(kind) ? needRange(o, 'shift', path, -(2 ** 40), 2 ** 40) : 0,
		until: kind === 'pause' ? needRange(o, 'until', path, 0, 2 ** 50) : null,
		sshKey: has(o, 'ssh_key') ? need(o, 'ssh_key', path, 'str') : null, reason: need(o, 'reason', path, 'str'),
	};
}

/** readOverrides(camp, bytes, name): the overrides of an `overrides:` file whose items carry
 *  their `turn` (the umpire's .umpire/overrides.yaml, or the sealing page's overrides.yaml
 *  `umpire site` writes: every override, committed and pending) into camp.overrides, in the
 *  order listed. Failed naming the file. */
export function readOverrides(camp, bytes, name) {
	const root = parseYaml(bytes, name);
	onlyKeys(root, ['overrides'], name);
	const m = new Map();
	for (const item of need(root, 'overrides', name, 'seq')) {
		const o = parseOverride(item, name, true);
		if (!m.has(o.turn)) m.set(o.turn, []);
		m.get(o.turn).push(o);
	}
	camp.overrides = m;
	return camp;
}

/** Turn t's deadline (docs/fairness.md "Schedule changes"; pbem_deadline): first + (t - 1) *
 *  every, moved by every override of turn t or an earlier one that camp.overrides holds;
 *  before = [turn, index]: only those made before that one. */
export function deadlineOf(camp, t, before = null) {
	const s = camp.schedule;
	const ov = camp.overrides || new Map();
	let d = s.first + (t - 1) * s.every;
	const turns = [...ov.keys()].sort((a, b) => a - b);
	for (const u of turns) {
		const list = ov.get(u);
		for (let i = 0; i < list.length; i++) {
			if (before && (u > before[0] || (u === before[0] && i >= before[1]))) return d;
			if (u <= t) d += list[i].shift;
		}
	}
	return d;
}

/** firstRound(camp, at): the first round of camp's chain out at or after `at` (seconds). */
export function firstRound(camp, at) {
	if (at <= camp.beaconGenesis) return 1;
	return Math.floor((at - camp.beaconGenesis + camp.beaconPeriod - 1) / camp.beaconPeriod) + 1;
}

/** roundTime(camp, round): when round is out, UTC seconds. */
export const roundTime = (camp, round) => camp.beaconGenesis + (round - 1) * camp.beaconPeriod;

/**
 * turnRound(camp, t): R(t), the round time-locked orders for turn t (>= 1) are sealed to and
 * its close names (campaign_turn_round): the first round out at or after deadline(t) + grace
 * + CLOSE_WITNESS_WINDOW + beacon_delay, deadline(t) from deadlineOf, so the overrides
 * camp.overrides holds move it. Failed without a schedule or a signed beacon.
 */
export function turnRound(camp, t) {
	if (!Number.isSafeInteger(t) || t < 1) throw new Failed(`turn ${t} is not a turn (1, 2, ...)`);
	if (!camp.schedule) throw new Failed('campaign.yaml has no schedule: time-locked orders need one (the round comes from the deadline)');
	if (!camp.info) throw new Failed('campaign.yaml has no signed beacon chain: time-locked orders need one');
	return firstRound(camp, deadlineOf(camp, t) + camp.schedule.grace + CLOSE_WITNESS_WINDOW + camp.beaconDelay);
}

/** The rounds R(t) was before each override of turn t or earlier moved it (a file sealed then
 *  was sealed to one of them), oldest first, without R(t) as it stands. */
export function formerRounds(camp, t) {
	const now = turnRound(camp, t), out = [], ov = camp.overrides || new Map();
	const turns = [...ov.keys()].filter((u) => u <= t).sort((a, b) => a - b);
	for (const u of turns) {
		ov.get(u).forEach((o, i) => {
			if (NO_SHIFT.includes(o.kind)) return;
			const r = firstRound(camp, deadlineOf(camp, t, [u, i]) + camp.schedule.grace + CLOSE_WITNESS_WINDOW + camp.beaconDelay);
			if (r !== now && !out.includes(r)) out.push(r);
		});
	}
	return out;
}
export const commitmentHex = (c) => hex(c.commitment);
