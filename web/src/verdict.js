// docs/fairness.md, "The verdict": three outcomes with their exit statuses (fair 0, consistent
// but not proven fair 3, failed 65), the reasons in their fixed order, codes and words, the
// TURNS lists ("1-3, 7") and the --json object every verifier prints.

/** TURNS: ascending turn numbers, consecutive runs as a-b, joined by ", ". */
export function turnList(turns) {
	const t = [...new Set(turns)].sort((a, b) => a - b);
	const out = [];
	for (let i = 0; i < t.length;) {
		let j = i;
		while (j + 1 < t.length && t[j + 1] === t[j] + 1) j++;
		out.push(i === j ? String(t[i]) : `${t[i]}-${t[j]}`);
		i = j + 1;
	}
	return out.join(', ');
}

/** The reasons, in the page's order: code -> text (a function of the facts where it names
 *  a beacon, a chain or turns). */
export const REASONS = [
	['entropy-none', () => 'entropy none: the umpire knew every turn key before the orders arrived and could choose among outcomes'],
	['secret-from-file', () => 'fair: false: the campaign secret came from a file, so whoever wrote it could compute every die in advance'],
	['unsigned-beacon', (f) => `unsigned beacon ${f.name}: its round values carry no signature and could have been chosen after the close`],
	['demo-beacon', () => 'demo beacon: its secret key is published with umpire, so anyone could sign any round value'],
	['untrusted-chain', (f) => `beacon chain ${f.chain} is not one this verifier trusts: give its public key with --trust-chain HASH:KEY, from an announcement you trust`],
	['no-schedule', () => 'no schedule: the umpire chose when to close each turn, so he could close, see the outcome, and close again later'],
	['unwitnessed-close', (f) => `closes without a witness: turns ${turnList(f.turns)} (no receipt given, and no time-stamp token from an authority this verifier trusts)`],
	['few-contributors', (f) => `entropy players: fewer than two independent contributors in turns ${turnList(f.turns)}`],
	['history-lacks-close', (f) => `receipts witness closes this clone's main does not hold: turns ${turnList(f.turns)} (the last turns were dropped, or main was moved back)`],
];

/** The verdict from the facts found ({ code: facts }) or the failure (a message, or null):
 *  { verdict, exit, reasons: [{ code, text, turns? }], failure }. */
export function decide(found, failure) {
	if (failure) return { verdict: 'failed', exit: 65, reasons: [], failure };
	const reasons = [];
	for (const [code, text] of REASONS) {
		const f = found[code];
		if (!f) continue;
		if (f.turns && !f.turns.length) continue;
		const r = { code, text: text(f) };
		if (f.turns) r.turns = [...new Set(f.turns)].sort((a, b) => a - b);
		reasons.push(r);
	}
	return reasons.length ? { verdict: 'consistent, not proven fair', exit: 3, reasons, failure: null }
		: { verdict: 'fair', exit: 0, reasons, failure: null };
}

/** The verdict's closing lines: `verify: FAILED: ...` then `verdict: failed`, or
 *  `verdict: ...` then each `reason: CODE: TEXT`. */
export function verdictLines(v) {
	if (v.failure) return [`verify: FAILED: ${v.failure}`, 'verdict: failed'];
	return [`verdict: ${v.verdict}`, ...v.reasons.map((r) => `reason: ${r.code}: ${r.text}`)];
}

/** The --json object. */
export function verdictJson(v, campaign, turns, dice) {
	return {
		verdict: v.verdict, exit: v.exit, campaign: campaign ?? null, turns, dice,
		reasons: v.reasons.map((r) => (r.turns ? { code: r.code, text: r.text, turns: r.turns } : { code: r.code, text: r.text })),
		failure: v.failure,
	};
}
