// What sealing an order file needs from campaign.yaml (issue 36; docs/fairness.md, "Time-locked
// orders"): whether it takes time-locked orders, the umpire's age recipient, the beacon chain in
// drand's /info shape, and R(turn), the round turn N's close names, from the schedule, in integer
// arithmetic exactly as umpire's campaign_turn_round (src/core/timelock.c) computes it.
import jsyaml from 'js-yaml';
import { TlockError } from './tlock.js';

/** The close window (src/core/campaign.h CLOSE_WITNESS_WINDOW), seconds. */
export const CLOSE_WITNESS_WINDOW = 300n;

const fail = (msg) => {
	throw new TlockError(msg);
};
const isMap = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** parseUtc(s): "YYYY-MM-DDTHH:MM[:SS]Z" (1970..9999) as UTC seconds (BigInt), as pbem_parse_utc. */
export function parseUtc(s) {
	const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2})(?::([0-9]{2}))?Z$/.exec(String(s));
	if (!m) return fail(`'${s}' is not a UTC time like 2026-12-06T18:00:00Z`);
	const [y, mo, d, h, mi, sec] = m.slice(1).map((x) => (x === undefined ? 0 : Number(x)));
	const mdays = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
	const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
	if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || (mo === 2 && d === 29 && !leap) || h > 23 || mi > 59 || sec > 59)
		fail(`'${s}' is not a UTC time like 2026-12-06T18:00:00Z`);
	// days from civil (Howard Hinnant's algorithm, as src/core/pbem.c), all integers
	const yy = BigInt(mo <= 2 ? y - 1 : y), era = yy / 400n, yoe = yy - era * 400n;
	const mp = BigInt((mo + 9) % 12), doy = (153n * mp + 2n) / 5n + BigInt(d) - 1n;
	const doe = yoe * 365n + yoe / 4n - yoe / 100n + doy;
	const days = era * 146097n + doe - 719468n;
	return days * 86400n + BigInt(h * 3600 + mi * 60 + sec);
}

/** parseDuration(s): "90", "90s", "45m", "12h", "7d" (at most 100000000 units) as seconds, BigInt. */
export function parseDuration(s) {
	const m = /^([0-9]{1,9})([smhd]?)$/.exec(String(s));
	if (!m || Number(m[1]) > 100000000) return fail(`'${s}' is not a duration like 90s, 45m, 12h or 7d`);
	return BigInt(m[1]) * { '': 1n, s: 1n, m: 60n, h: 3600n, d: 86400n }[m[2]];
}

function int(v, what) {
	if (!/^(0|[1-9][0-9]{0,17})$/.test(String(v))) fail(`campaign.yaml: ${what} is not a non-negative integer`);
	return BigInt(String(v));
}

/**
 * readCampaign(bytes): campaign.yaml (UTF-8 bytes) read for sealing: {id, rules, players (ids),
 * visibility, timelocked (orders: timelocked), recipient (timelock.recipient or null), info (the
 * chain in drand's /info shape), genesis, period, delay (BigInt seconds), schedule {first, every,
 * grace} (BigInt seconds) or null}. TlockError naming what is missing.
 */
export function readCampaign(bytes) {
	let c;
	try {
		c = jsyaml.load(new TextDecoder('utf-8', { fatal: true }).decode(bytes), { schema: jsyaml.FAILSAFE_SCHEMA, filename: 'campaign.yaml' });
	} catch (e) {
		return fail(`campaign.yaml: ${e.mark ? `${e.mark.line + 1}:${e.mark.column + 1}: ${e.reason}` : e.message}`);
	}
	if (!isMap(c) || typeof c.id !== 'string' || typeof c.rules !== 'string') fail('campaign.yaml: not a campaign (no id or rules)');
	const players = Array.isArray(c.players) ? c.players.filter(isMap).map((p) => p.id) : [];
	const f = isMap(c.fairness) ? c.fairness : {};
	const s = isMap(c.schedule) ? c.schedule : null;
	const tl = isMap(c.timelock) ? c.timelock : {};
	const out = {
		id: c.id, rules: c.rules, players, visibility: c.visibility === 'open' ? 'open' : 'sealed',
		timelocked: c.orders === 'timelocked', recipient: typeof tl.recipient === 'string' ? tl.recipient : null,
		schedule: s && {
			first: parseUtc(s.first_deadline),
			every: s.every === undefined ? 7n * 86400n : parseDuration(s.every),
			grace: s.grace === undefined ? 0n : parseDuration(s.grace),
		},
		info: null,
	};
	if (f.entropy === 'beacon') {
		const need = ['beacon_genesis', 'beacon_period', 'beacon_delay', 'beacon_chain', 'beacon_public_key', 'beacon_scheme'];
		const missing = need.filter((k) => typeof f[k] !== 'string');
		if (missing.length === 0) {
			out.genesis = int(f.beacon_genesis, 'fairness.beacon_genesis');
			out.period = int(f.beacon_period, 'fairness.beacon_period');
			out.delay = int(f.beacon_delay, 'fairness.beacon_delay');
			if (out.period < 1n) fail('campaign.yaml: fairness.beacon_period is 0');
			out.info = {
				public_key: f.beacon_public_key, period: Number(out.period), genesis_time: Number(out.genesis),
				hash: f.beacon_chain, schemeID: f.beacon_scheme, metadata: { beaconID: f.beacon_demo === 'true' ? 'umpire-demo' : 'campaign' },
			};
		} else out.missingBeacon = missing;
	}
	return out;
}

/** firstRound(camp, at): the first round of camp's chain out at or after `at` (BigInt seconds). */
export function firstRound(camp, at) {
	if (at <= camp.genesis) return 1n;
	return (at - camp.genesis + camp.period - 1n) / camp.period + 1n;
}

/**
 * turnRound(camp, turn): R(turn) (BigInt), the round time-locked orders for turn (>= 1) are
 * encrypted to: the first round out at or after deadline(turn) + grace + CLOSE_WITNESS_WINDOW +
 * beacon_delay, deadline(turn) = first_deadline + (turn - 1) * every. TlockError without a
 * schedule or a signed beacon.
 */
export function turnRound(camp, turn) {
	const t = BigInt(turn);
	if (t < 1n) fail(`turn ${turn} is not a turn (1, 2, ...)`);
	if (!camp.schedule) fail('campaign.yaml has no schedule: time-locked orders need one (the round comes from the deadline)');
	if (!camp.info) fail(`campaign.yaml has no signed beacon chain (fairness.${(camp.missingBeacon || ['entropy'])[0]}): time-locked orders need one`);
	const deadline = camp.schedule.first + (t - 1n) * camp.schedule.every;
	return firstRound(camp, deadline + camp.schedule.grace + CLOSE_WITNESS_WINDOW + camp.delay);
}

/** roundTime(camp, round): when round is out, UTC seconds (BigInt). */
export const roundTime = (camp, round) => camp.genesis + (BigInt(round) - 1n) * camp.period;
