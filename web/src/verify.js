// docs/fairness.md, "umpire verify DIR: every turn, every die, every commit", steps 0-4, 6 and 7
// (not 5: re-resolving a turn needs the rule engine, which only `umpire verify` has), then
// "Receipts" and "The verdict". It reads the history itself (tags, commits, trailers, files at
// tags) and never JSON the umpire wrote for a verifier.
import { Failed, Fatal, EX, sha256, hex, unhex, equal, byteOrder, ordinal, tag, closeTag, utc, ZERO32 } from './bytes.js';
import { parseYaml, need, onlyKeys, has } from './yaml.js';
import { readCampaign, UMPIRE } from './campaign.js';
import { keyChains, journalHead0, journalHeadNext } from './chain.js';
import { ordersDigest, turnSeed, die } from './dice.js';
import { checkTimelocked } from './timelock-verify.js';
import { beaconHash, randomnessOf, checkRound, RoundBatch, helpWorkers, KNOWN_CHAINS, QUICKNET, DEMO_CHAIN } from './beacon.js';
import { parseClose, checkCloseFile, checkCloseCommit, checkAgainstTurn, checkSealedAgainstTurn, checkMissingEvents, checkReveals, closePath, trailer, SIGNATURE } from './close.js';
import { exportViews, revealed as readRevealed, sameViews } from './sealed.js';
import { readReceipt, checkCloseReceipt, checkRevealReceipt, WITNESS_WINDOW } from './receipts.js';
import { decide, verdictLines } from './verdict.js';
import { checkView } from './view.js';
import { nextTask } from './workers.js';

const EXPORT_KEYS = ['campaign', 'rules', 'rules_revision', 'turn', 'key', 'orders', 'orders_digest', 'beacon', 'beacon_value', 'beacon_round', 'beacon_signature', 'seed', 'dice', 'events', 'void_orders', 'views', 'public_report_sha256', 'state_sha256', 'summary'];
const STAND_IN = /^no reveal from (.*): the hash his orders committed to stands in for his nonce$/;
const TWO64 = 1n << 64n;
const BATCH = 256; // beacon rounds checked in one batch (lines held until it is checked)
const tokenPath = (t, name) => `journal/turn-${String(t).padStart(4, '0')}.close.${name}.tsr`;

/**
 * Verifies the campaign in repo (a Repo). opts: { commitment, setup (hex), receipts: [{ name,
 * bytes }], receiptsOf: [player], trustChains: { hash: key }, tsaTrust: async () =>
 * [pkijs.Certificate] the time-stamp authorities trusted (called at the first token), views:
 * [{ name, files: { NAME: bytes } }] a player's files of sealed turns (view.js), remembered:
 * the heads verified before ([oid or { oid, where }], or one), onLine(line): each output line
 * as it comes }.
 * Returns { campaign, turns, dice, verdict (decide()), lines, head (main's tip to remember) }.
 * Throws Fatal when it cannot run (no campaign: 66; I/O: 74).
 */
export async function verify(repo, opts = {}) {
	const lines = [];
	const say = (l) => { lines.push(l); if (opts.onLine) opts.onLine(l); };
	const st = { camp: null, turns: 0, dice: 0, found: {}, head: null };
	let failure = null;
	try {
		await verifyHistory(repo, opts, st, say);
	} catch (e) {
		if (!(e instanceof Failed)) throw e;
		failure = e.message;
	}
	const v = decide(st.found, failure);
	if (!failure) {
		say(`verify: ok: campaign ${st.camp.id}: ${st.turns} turn${st.turns === 1 ? '' : 's'}, ${st.dice} dice: every key chains to the commitment, every die follows from its seed and the history is consistent (the rules were not re-run: umpire verify does that)`);
	}
	for (const l of verdictLines(v)) say(l);
	return { campaign: st.camp ? st.camp.id : null, turns: st.turns, dice: st.dice, verdict: v, lines, head: failure ? null : st.head };
}

async function verifyHistory(repo, opts, st, out) {
	const rounds = new Rounds(out, st);
	const say = rounds.say;
	await repo.refuseReplacements();
	const setupId = await repo.commitId('refs/tags/turn-0000');
	if (!setupId) throw new Fatal(EX.NOINPUT, 'no tag turn-0000: not an umpire campaign (or a clone without its tags: git fetch --tags)');
	const cbytes = await repo.blob(setupId, 'campaign.yaml');
	if (!cbytes) throw new Fatal(EX.NOINPUT, 'no campaign.yaml at tag turn-0000');
	const camp = readCampaign(cbytes);
	st.camp = camp;
	if (opts.commitment && hex(camp.commitment) !== opts.commitment.toLowerCase()) {
		throw new Failed(`setup: the commitment is ${hex(camp.commitment)}, not the ${opts.commitment} announced (--commitment): the Setup was rewritten`);
	}
	if (opts.setup && hex(sha256(cbytes)) !== opts.setup.toLowerCase()) {
		throw new Failed(`setup: campaign.yaml hashes to ${hex(sha256(cbytes))}, not the ${opts.setup} announced (--setup): the Setup was rewritten`);
	}
	say(`campaign ${camp.id} (${camp.rules}): players ${camp.players.join(', ')}; commitment ${hex(camp.commitment)}, chain_length ${camp.chainLength}; entropy ${camp.entropy}`);
	setupReasons(camp, opts, st, say);

	// history: main, linear, Setup first (docs: step 7)
	const closes = camp.entropy !== 'none';
	const step = closes ? 2 : 1;
	let tip = await repo.commitId('refs/heads/main');
	if (!tip && !closes) tip = await repo.commitId('HEAD');
	if (!tip) throw new Failed('turn 0: the repository has no branch main');
	const chain = (await repo.firstParents(tip)).map((c) => c);
	for (const c of chain) {
		if (c.parents.length > 1) throw new Failed(`history: main's commit ${c.oid} ("${c.message.split('\n')[0]}") is a merge: the history must be linear, one commit per turn`);
	}
	const ids = chain.map((c) => c.oid);
	for (const r of [].concat(opts.remembered || [])) {
		if (!ids.includes(r.oid || r)) {
			throw new Failed(`history: this clone last verified main at commit ${r.oid || r} (${r.where || 'refs/umpire/verified'}), which main's history (now at ${tip}) no longer contains: the history was rewritten since; keep this clone and ask the umpire why`);
		}
	}
	st.head = tip;
	const revealId = camp.sealed ? await repo.commitId('refs/tags/reveal') : null;
	let reveal = null;
	if (revealId && ids[ids.length - 1] === revealId) {
		reveal = chain.pop();
		ids.pop();
	}
	const turns = await turnTags(repo);
	let nTurns = turns;
	if (ids.length && !reveal && turns > Math.floor((ids.length - 1) / step)) {
		const onMain = Math.floor((ids.length - 1) / step);
		const ahead = await repo.commitId(`refs/tags/${tag(turns)}`);
		if (await repo.isAncestor(ids[ids.length - 1], ahead)) {
			say(`note: tags ${tag(onMain + 1)} to ${tag(turns)} are ahead of main, which ends at turn ${onMain} (commit ${ids[ids.length - 1]}) and leads to them: a publish that has not finished (the tags went first; the umpire's next 'umpire publish' moves main), or main moved back; verified up to main's end, fetch again later`);
			nTurns = onMain;
		}
	}
	if (ids[0] !== setupId) throw new Failed(`turn 0: tag turn-0000 is commit ${setupId}, but main starts at ${ids[0]}: the history was rewritten or the tag moved`);
	let head = journalHead0(cbytes);
	checkTrailers(chain[0], camp, 0, head);
	say('turn 0: ok: setup, chain, history');
	const last = Math.max(nTurns, Math.floor((ids.length - 1) / step));
	let key = camp.commitment;
	const closeMap = new Map();
	const ctx = { repo, camp, opts, st, say, rounds, revealId: reveal ? reveal.oid : null, values: new Map(), players: new Map() };
	for (let t = 1; t <= last; t++) {
		try {
			let close = null;
			if (t > nTurns) {
				const c = chain[step * t];
				throw new Failed(`main's commit ${c.oid} ("${c.message.split('\n')[0]}") is not a turn: there is no tag ${tag(t)}`);
			}
			if (closes) {
				close = await checkClose(ctx, chain, t);
				closeMap.set(t, close);
			}
			// the files at the tag first (they name what was edited), then its place on main
			const tid = await repo.commitId(`refs/tags/${tag(t)}`);
			if (!tid) throw new Failed(`tag ${tag(t)} does not point to a commit`);
			const tcommit = await repo.commit(tid);
			const parentId = close ? close.commit : await repo.commitId(`refs/tags/${tag(t - 1)}`);
			const r = await verifyTurn(ctx, t, tcommit, key, close && close.close);
			key = r.key;
			head = journalHeadNext(head, r.exportBytes);
			checkTrailers(tcommit, camp, t, head);
			await checkTurnCommit(repo, t, tcommit, parentId);
			const at = step * t;
			if (at >= ids.length) throw new Failed(`tag ${tag(t)} is commit ${tid}, which is not on main: main ends at its ${ids.length - 1}${ordinal(ids.length - 1)} commit after Setup (commit ${ids[ids.length - 1]}): main was moved back`);
			if (ids[at] !== tid) throw new Failed(`tag ${tag(t)} is commit ${tid}, but main's ${at}${ordinal(at)} commit after Setup is ${ids[at]}: the history was rewritten or the tag moved`);
			st.turns = t;
			st.dice += r.dice;
			say(`turn ${t}: ok: ${r.checked}, ${r.dice} dice, state hash, chain, commit, history`);
			if (rounds.size >= BATCH) rounds.seal();
			await rounds.drain(); // the lines of the batches checked by now
			await nextTask(); // the workers' answers taken (and their next chunks sent), the page drawn
		} catch (e) {
			await rounds.finish(); // a bad round before this turn is the first failure
			if (e instanceof Failed && !/^turn \d+: /.test(e.message)) e.message = `turn ${t}: ${e.message}`;
			throw e;
		}
	}
	await rounds.finish();
	if (closes && ids.length % 2 === 0) {
		const t = last + 1;
		try {
			closeMap.set(t, await checkClose(ctx, chain, t));
		} catch (e) {
			if (e instanceof Failed && !/^turn \d+: /.test(e.message)) e.message = `turn ${t}: ${e.message}`;
			throw e;
		}
		say(`turn ${t}: ok: closed (${closeTag(t)}), awaiting its randomness`);
	}
	if (reveal) await checkRevealCommit(repo, reveal, chain[chain.length - 1], last);
	await checkReceipts(ctx, closeMap, say);
	for (const view of opts.views || []) await checkView(repo, camp, view, say);
	// every resolved turn (a pending close drew no die yet) needs a witness
	if (closes) st.found['unwitnessed-close'] = { turns: [...closeMap.keys()].filter((t) => t <= st.turns && !closeMap.get(t).witnessed) };
}

/**
 * The turns' beacon rounds, checked in batches (beacon.js, RoundBatch) with the answers of one
 * check a turn: a turn's lines are held from its round's deferred check until its batch is
 * checked and every batch before it, so that when a round fails the lines, the turns and dice
 * counted and the failure are those of a verifier that stopped at that turn. A full batch is
 * sealed (its check runs on, on the workers) and the turns go on being read; drain() shows
 * the lines of the batches checked by then, in order, and throws the failure of the first bad
 * one; finish() waits for them all.
 */
class Rounds {
	constructor(out, st) {
		this.out = out;
		this.st = st;
		this.open = null; // { batch, lines } taking rounds
		this.sealed = []; // [{ lines, bad: undefined until checked, then null or the failure, done }]
		this.say = (l) => {
			const b = this.open && this.open.batch.size ? this.open : this.sealed[this.sealed.length - 1];
			if (b) b.lines.push(l);
			else this.out(l);
		};
	}

	get size() {
		return this.open ? this.open.batch.size : 0;
	}

	/** Turn t's round rnd (text) with signature sig under key: null, its check deferred to the
	 *  batch, or why not at once (the chain's key is no point of G2). */
	add(key, t, jpath, rnd, sig) {
		if (!this.open || this.open.batch.publicKeyHex !== key) {
			this.seal();
			this.open = { batch: new RoundBatch(key), lines: [] };
		}
		return this.open.batch.add({ t, jpath, mark: this.open.lines.length, turns: this.st.turns, dice: this.st.dice }, BigInt(rnd), sig);
	}

	/** The open batch checked from now on, its lines held with it. */
	seal() {
		const o = this.open;
		if (!o || !o.batch.size) return;
		const s = { lines: o.lines, bad: undefined };
		s.done = o.batch.settle().then((bad) => { s.bad = bad; }, (e) => { s.bad = e instanceof Error ? e : new Error(String(e)); });
		this.sealed.push(s);
		this.open = { batch: new RoundBatch(o.batch.publicKeyHex), lines: [] };
	}

	/** The lines of the batches checked by now, first to last; while more than `keep` are
	 *  out, waits for the first. */
	async drain(keep = 2) {
		while (this.sealed.length) {
			const s = this.sealed[0];
			if (s.bad === undefined) {
				if (this.sealed.length <= keep) return;
				await helpWorkers(); // the chunks still queued checked here too, rather than waiting
				await s.done;
			}
			this.sealed.shift();
			if (s.bad instanceof Error) throw s.bad;
			if (!s.bad) {
				s.lines.forEach(this.out);
				continue;
			}
			const k = s.bad.key;
			s.lines.slice(0, k.mark).forEach(this.out);
			this.sealed = [];
			this.open = null;
			this.st.turns = k.turns;
			this.st.dice = k.dice;
			throw new Failed(`turn ${k.t}: beacon: ${k.jpath}: round ${s.bad.round}: signature ${s.bad.signature}: ${s.bad.why}`);
		}
	}

	/** Every round checked, every line held shown; throws the first round's failure. */
	async finish() {
		this.seal();
		await this.drain(0);
	}
}

function setupReasons(camp, opts, st, say) {
	const f = st.found;
	if (camp.entropy === 'none') f['entropy-none'] = {};
	if (!camp.fair) f['secret-from-file'] = {};
	if (camp.entropy !== 'beacon') return;
	if (!camp.schedule) f['no-schedule'] = {};
	if (!camp.beaconKey) {
		f['unsigned-beacon'] = { name: camp.beacon };
		say(`note: campaign.yaml names no public key for the beacon ${JSON.stringify(camp.beacon)}: check each turn's round and value against that source by hand`);
		return;
	}
	const trusted = opts.trustChains || {};
	if (trusted[camp.beaconChain] && trusted[camp.beaconChain] !== camp.beaconKey) {
		throw new Failed(`setup: campaign.yaml names public key ${camp.beaconKey} for beacon chain ${camp.beaconChain}, but --trust-chain gives ${trusted[camp.beaconChain]}: its rounds are not signed by the chain you trust`);
	}
	if (camp.beaconDemo || camp.beaconKey === KNOWN_CHAINS[DEMO_CHAIN].key) {
		f['demo-beacon'] = {};
	} else if (camp.beaconChain !== QUICKNET && !trusted[camp.beaconChain]) {
		f['untrusted-chain'] = { chain: camp.beaconChain };
	}
	say(`beacon: chain ${camp.beaconChain}${KNOWN_CHAINS[camp.beaconChain] ? ` (${KNOWN_CHAINS[camp.beaconChain].name})` : ''}: every turn's round signature is checked under its public key`);
}

async function turnTags(repo) {
	const nums = [];
	for (const n of await repo.tags()) {
		const m = /^turn-(\d{4,})$/.exec(n);
		if (m && (m[1].length === 4 || !m[1].startsWith('0')) && Number(m[1]) > 0) nums.push(Number(m[1]));
	}
	nums.sort((a, b) => a - b);
	nums.forEach((got, i) => {
		if (got !== i + 1) throw new Failed(`turn ${i + 1}: tag ${tag(i + 1)} missing but ${tag(got)} exists`);
	});
	return nums.length;
}

function checkTrailers(commit, camp, t, head) {
	const want = { Turn: String(t), 'Journal-Head': hex(head), Commitment: hex(camp.commitment) };
	for (const k of ['Turn', 'Journal-Head', 'Commitment']) {
		const got = trailer(commit.message, k);
		if (got !== want[k]) throw new Failed(`turn ${t}: commit ${tag(t)}: trailer ${k} is ${got ?? 'missing'}, ${want[k]} expected (journal hash chain or history rewritten)`);
	}
}

/** Step 0: close-t is main's commit just before turn t, a close in umpire's form. */
async function checkClose(ctx, chain, t) {
	const { repo, camp } = ctx;
	const cid = await repo.commitId(`refs/tags/${closeTag(t)}`);
	if (!cid) throw new Failed(`there is no tag ${closeTag(t)}: a campaign with entropy ${camp.entropy} closes every turn before its randomness`);
	const at = 2 * t - 1;
	if (at >= chain.length || chain[at].oid !== cid) {
		throw new Failed(`tag ${closeTag(t)} is commit ${cid}, but main's ${at}${ordinal(at)} commit after Setup is ${at < chain.length ? chain[at].oid : 'beyond its end'}: the history was rewritten or the tag moved`);
	}
	const path = closePath(t);
	const data = await repo.blob(cid, path);
	if (!data) throw new Failed(`${closeTag(t)} has no ${path}`);
	const close = parseClose(data, path);
	checkCloseFile(camp, t, close);
	const stamps = await checkTokens(ctx, t, cid, close);
	await checkCloseCommit(repo, camp, t, chain[at], close, chain[at - 1].oid, stamps.paths);
	return { commit: cid, close, witnessed: stamps.witnessed };
}

/** "Time stamps": each token of an authority campaign.yaml names, committed at close-t, is
 *  sound and of the close file, its genTime in the close's witness window; one from an
 *  authority the verifier trusts witnesses the close. Returns { paths, witnessed }. */
async function checkTokens(ctx, t, cid, close) {
	const { repo, camp, opts } = ctx;
	const out = { paths: [], witnessed: false };
	if (!camp.timestamps.length) return out;
	// PKI.js is loaded only for a campaign that names time-stamp authorities
	const { verifyToken, PLAYERS_WITNESS_WINDOW } = await import('./tstamp.js');
	const until = close.entropy === 'beacon' ? close.roundAt : close.closedAt + PLAYERS_WITNESS_WINDOW;
	for (const name of camp.timestamps) {
		const path = tokenPath(t, name);
		const data = await repo.blob(cid, path);
		if (!data) {
			ctx.say(`turn ${t}: no time stamp from ${name} (it did not answer the close)`);
			continue;
		}
		out.paths.push(path);
		if (!ctx.tsaTrust) ctx.tsaTrust = opts.tsaTrust ? await opts.tsaTrust() : [];
		let got;
		try {
			got = await verifyToken(data, close.bytes, ctx.tsaTrust);
		} catch (e) {
			if (e instanceof Failed) e.message = `${path}: ${e.message}`;
			throw e;
		}
		const { gen, trusted } = got;
		if (gen < close.closedAt) throw new Failed(`${path}: genTime ${utc(gen)} is before the close's closed_at ${utc(close.closedAt)}: the close file existed before the time it claims`);
		if (gen >= until) {
			const end = close.entropy === 'beacon' ? `when beacon round ${close.round} was out` : `${PLAYERS_WITNESS_WINDOW} s after closed_at`;
			throw new Failed(`${path}: genTime ${utc(gen)} is not before ${utc(until)} (${end}): a close stamped after its randomness could be known witnesses nothing`);
		}
		const s = camp.schedule;
		if (close.entropy === 'beacon' && s && s.missing === 'no-orders') {
			const deadline = s.first + (t - 1) * s.every;
			if (gen > deadline + s.grace + WITNESS_WINDOW) {
				throw new Failed(`${path}: genTime ${utc(gen)} is more than ${WITNESS_WINDOW} s after its deadline ${utc(deadline)} plus grace ${s.grace} s: time enough to see the outcome of a close at the deadline and close again (a re-close)`);
			}
		}
		if (!trusted) {
			ctx.say(`turn ${t}: time stamp (${name}, genTime ${utc(gen)}): no witness: its signer does not chain to an authority this verifier trusts (give its certificate with --trust-tsa CERT.pem)`);
			continue;
		}
		ctx.say(`turn ${t}: time stamp (${name}, genTime ${utc(gen)}): witnesses the close`);
		out.witnessed = true;
	}
	return out;
}

/** The turn commit: umpire's author and committer, one parent, only the files a turn writes,
 *  each a plain file. */
async function checkTurnCommit(repo, t, commit, parentId) {
	for (const role of ['author', 'committer']) {
		if (!new RegExp(`^umpire <umpire@localhost> \\d+ \\+0000$`).test(commit[role] || '')) {
			throw new Failed(`the ${role} of ${tag(t)} is '${commit[role] || ''}', not umpire's (${SIGNATURE}): the commit was rewritten`);
		}
	}
	if (commit.parents.length !== 1 || commit.parents[0] !== parentId) throw new Failed(`the parent of ${tag(t)} is ${commit.parents.join(' ') || 'none'}, not ${parentId}`);
	const n = tag(t);
	const allowed = ['state.yaml', `journal/${n}.yaml`, `reports/${n}.md`, `reports/${n}.svg`];
	for (const c of await repo.diff(parentId, commit.oid)) {
		if (c.status === 'D') throw new Failed(`${n} removes ${c.path}`);
		if (!(allowed.includes(c.path) || c.path.startsWith(`orders/${n}/`) || c.path.startsWith(`reports/${n}/`))) {
			throw new Failed(`${n} changes ${c.path}, which no turn writes: the commit holds other files`);
		}
		if (c.mode !== '100644') throw new Failed(`${n}: ${c.path} is committed with mode ${c.mode}, not 100644 (the history was rewritten)`);
	}
}

/** Steps 1-4 (and the close against the turn) on turn t's commit. */
async function verifyTurn(ctx, t, commit, prevKey, close) {
	const { repo, camp } = ctx;
	const jpath = `journal/${tag(t)}.yaml`, odir = `orders/${tag(t)}`;
	const data = await repo.blob(commit.oid, jpath);
	if (!data) throw new Failed(`${jpath} missing at tag ${tag(t)}`);
	const root = parseYaml(data, jpath);
	onlyKeys(root, EXPORT_KEYS, jpath);
	if (need(root, 'campaign', jpath, 'str') !== camp.id) throw new Failed(`${jpath}: campaign '${root.campaign}', not '${camp.id}'`);
	if (need(root, 'rules', jpath, 'str') !== camp.rules) throw new Failed(`${jpath}: rules '${root.rules}', not '${camp.rules}'`);
	const rev = has(root, 'rules_revision') ? need(root, 'rules_revision', jpath, 'num') : 1;
	if (rev !== camp.rulesRevision) throw new Failed(`${jpath}: rules_revision ${rev}, the campaign is played with ${camp.rulesRevision}`);
	if (need(root, 'turn', jpath, 'num') !== t) throw new Failed(`${jpath}: turn ${root.turn}, not ${t}`);

	// 1. key
	const key = need(root, 'key', jpath, 'hex');
	if (t > camp.chainLength) throw new Failed(`beyond the chain (chain_length ${camp.chainLength})`);
	// prevKey chains to the commitment in t - 1 steps (turn t - 1 checked it; turn 0's is the
	// commitment): a key hashing to it chains in t, and only one that does not is walked
	const next = equal(sha256(key), prevKey);
	if (!next && !keyChains(key, t, camp.commitment)) {
		throw new Failed(`key: the key ${hex(key)} in ${jpath} does not chain to the commitment: SHA256 applied ${t} times does not give ${hex(camp.commitment)}`);
	}
	if (!next) throw new Failed(`key: SHA256 of the key is not turn ${t - 1}'s key`);

	// 2. digest: the listed hashes, every committed file, nothing left out
	const ids = [...camp.players, UMPIRE].sort(byteOrder);
	const listing = await repo.files(commit.oid, odir);
	const files = {};
	for (const [path, e] of Object.entries(listing)) {
		const fname = path.slice(odir.length + 1);
		const pid = fname.endsWith('.yaml') ? fname.slice(0, -5) : null;
		if (e.type !== 'blob' || !ids.includes(pid)) throw new Failed(`${path}: committed, but not the order file of a player`);
		if (e.mode !== '100644') throw new Failed(`${path}: committed with mode ${e.mode}, not 100644 (the history was rewritten)`);
		files[pid] = await repo.blob(commit.oid, path);
	}
	const rev2 = camp.sealed ? await readRevealed(repo, ctx.revealId, t) : null;
	const entries = need(root, 'orders', jpath, 'seq');
	const listed = [], salted = {};
	for (const e of entries) {
		onlyKeys(e, ['player', 'received', 'sha256'], jpath);
		const pid = need(e, 'player', jpath, 'str');
		const received = need(e, 'received', jpath, 'bool');
		const h = need(e, 'sha256', jpath, 'hex');
		listed.push(pid);
		const path = `${odir}/${pid}.yaml`;
		if (pid in files) {
			if (!received) throw new Failed(`${path}: committed, but the export says received: false`);
			if (!equal(sha256(files[pid]), h)) throw new Failed(`order file ${path} differs from the one ${jpath} records (sha256 ${hex(sha256(files[pid]))} committed, ${hex(h)} recorded)`);
		} else if (received && camp.sealed) {
			salted[pid] = h;
			if (rev2 && !(rev2.files[pid] && equal(rev2.files[pid], h))) throw new Failed(`reveal: ${pid}'s revealed file and salt do not open the commitment ${hex(h)}`);
		} else if (received) {
			throw new Failed(`${path}: the export says received: true but the file is not committed`);
		} else if (!equal(h, ZERO32)) {
			throw new Failed(`${jpath}: ${pid} not received, but sha256 is not 64 zeros`);
		}
	}
	for (const pid of Object.keys(files)) if (!listed.includes(pid)) throw new Failed(`${odir}/${pid}.yaml: committed, but not in the export's orders`);
	if (listed.join('\n') !== ids.join('\n')) throw new Failed(`${jpath}: orders: entries ${listed.join(', ')}, expected ${ids.join(', ')} (every player plus umpire, by id, once)`);
	const digest = ordersDigest(ids.map((p) => [p, p in files ? sha256(files[p]) : salted[p] || null]));
	const recorded = need(root, 'orders_digest', jpath, 'hex');
	if (!equal(recorded, digest)) throw new Failed(`digest: ${jpath}: orders_digest ${hex(recorded)}, recomputed from the committed order files: ${hex(digest)}`);

	// 3. beacon and seed
	const beacon = need(root, 'beacon', jpath, 'hex');
	let checked;
	if (camp.entropy === 'none') {
		if (!equal(beacon, ZERO32) || ['beacon_value', 'beacon_round', 'beacon_signature'].some((k) => has(root, k))) {
			throw new Failed(`beacon: ${jpath}: the campaign has entropy none, so B_t must be 32 zero bytes, with no beacon_value`);
		}
		checked = 'key, digest, seed';
	} else {
		if (camp.sealed) checkSealedAgainstTurn(camp, t, close, salted, digest);
		else checkAgainstTurn(camp, t, close, files, digest, odir);
		checkMissingEvents(t, close, root.events, jpath);
		const value = need(root, 'beacon_value', jpath, 'str');
		const rnd = need(root, 'beacon_round', jpath, 'str');
		if (!value || !equal(beaconHash(value), beacon)) throw new Failed(`beacon differs: SHA256 of the beacon value is ${hex(beaconHash(value))}, ${jpath} says ${hex(beacon)}`);
		const sig = has(root, 'beacon_signature') ? need(root, 'beacon_signature', jpath, 'str') : null;
		if (sig !== null) {
			if (!/^([0-9a-f]{2}){1,512}$/.test(sig)) throw new Failed(`beacon: ${jpath}: beacon_signature is not lower-case hex of even length`);
			if (randomnessOf(sig) !== value) throw new Failed(`beacon: ${jpath}: beacon_value ${value} is not SHA256 of beacon_signature (${randomnessOf(sig)})`);
		}
		ctx.values.set(t, value);
		if (camp.entropy === 'beacon') {
			if (rnd !== String(close.round)) throw new Failed(`beacon: ${jpath}: beacon_round ${rnd}, but the close (tag ${closeTag(t)}) named round ${close.round}`);
			let signed = '';
			if (camp.beaconKey) {
				if (sig === null) throw new Failed(`beacon: ${jpath}: no beacon_signature: the campaign's beacon (chain ${camp.beaconChain}) signs its rounds`);
				// time-locked files open with the signature: it is checked before they are
				const why = camp.timelocked ? checkRound(camp.beaconKey, BigInt(rnd), sig)
					: ctx.rounds.add(camp.beaconKey, t, jpath, rnd, sig);
				if (why) throw new Failed(`beacon: ${jpath}: round ${rnd}: signature ${sig}: ${why}`);
				signed = ', BLS signature checked';
			}
			if (camp.timelocked) { // issue 36: the close's time-locked files, opened
				if (sig === null) throw new Failed(`beacon: ${jpath}: no beacon_signature: time-locked orders open with it`);
				const identity = camp.sealed && ctx.revealId ? await revealedIdentity(ctx) : null;
				const tl = await checkTimelocked(repo, camp, t, commit.oid, close, rnd, sig, Array.isArray(root.events) ? root.events : [], identity);
				tl.notes.forEach((l) => ctx.say(l));
				signed += `, ${tl.opened} time-locked file${tl.opened === 1 ? '' : 's'} opened`;
			}
			checked = `close, key, digest, beacon round ${rnd}${signed}, seed`;
		} else {
			if (rnd !== 'players') throw new Failed(`beacon: ${jpath}: beacon_round ${rnd}, 'players' expected (entropy players)`);
			const { standing, revealed } = checkReveals(close, value);
			checkStandingIn(root, jpath, standing);
			if (revealed.length < 2) (ctx.st.found['few-contributors'] ||= { turns: [] }).turns.push(t);
			checked = `close, key, digest, reveals (${revealed.length} of ${revealed.length + standing.length} nonces${standing.length ? `; committed hash standing in for ${standing.join(', ')}` : ''}), seed`;
		}
	}
	const seed = turnSeed(key, t, digest, beacon);
	const rseed = need(root, 'seed', jpath, 'hex');
	if (!equal(rseed, seed)) throw new Failed(`seed: ${jpath}: seed ${hex(rseed)}, recomputed: ${hex(seed)}`);

	// 4. dice
	const dice = need(root, 'dice', jpath, 'seq');
	dice.forEach((d, j) => {
		onlyKeys(d, ['index', 'sides', 'value', 'for'], jpath);
		const idx = need(d, 'index', jpath, 'int');
		if (idx !== BigInt(j)) throw new Failed(`die ${j}: ${jpath}: index ${idx} where ${j} was expected (indexes must run 0, 1, 2, ... in order)`);
		const sides = need(d, 'sides', jpath, 'int');
		const value = need(d, 'value', jpath, 'int');
		const why = need(d, 'for', jpath, 'str');
		if (sides < 2n || sides >= TWO64) throw new Failed(`die ${j}: ${jpath}: ${sides} sides`);
		const want = die(seed, j, sides);
		if (value !== want) throw new Failed(`die ${j} differs from the seed: ${jpath} has d${sides} = ${value}, fair_die(s_t, ${j}, ${sides}) = ${want} (for "${why}")`);
	});
	for (const k of ['events', 'void_orders']) need(root, k, jpath, 'seq');
	need(root, 'summary', jpath, 'str');
	const views = exportViews(root, camp, jpath);
	if (rev2 && !sameViews(rev2.views, views)) throw new Failed(`reveal: reveal/${tag(t)}/salts.yaml lists other report and view commitments than ${jpath}'s views`);
	const state = await repo.blob(commit.oid, 'state.yaml');
	if (!state) throw new Failed(`state.yaml missing at tag ${tag(t)}`);
	if (!equal(need(root, 'state_sha256', jpath, 'hex'), sha256(state))) throw new Failed(`state: ${jpath}: state_sha256 is not SHA256 of the committed state.yaml`);
	const rpath = `reports/${tag(t)}.md`;
	if (camp.sealed) {
		const report = await repo.blob(commit.oid, rpath);
		if (!report) throw new Failed(`${rpath} missing at tag ${tag(t)}`);
		const want = need(root, 'public_report_sha256', jpath, 'hex');
		if (!equal(sha256(report), want)) throw new Failed(`public report: ${rpath} hashes to ${hex(sha256(report))}, the export's public_report_sha256 is ${hex(want)}: it was edited`);
	} else if (has(root, 'public_report_sha256')) {
		throw new Failed(`${jpath}: public_report_sha256 in the export of an open campaign`);
	}
	return { key, dice: dice.length, checked, exportBytes: data };
}

/** Every player whose commitment stood in is journaled so (phase randomness), and no other. */
function checkStandingIn(root, jpath, standing) {
	const said = [];
	for (const e of need(root, 'events', jpath, 'seq')) {
		if (e && e.phase === 'randomness') {
			const m = STAND_IN.exec(String(e.text || ''));
			if (m) said.push(m[1]);
		}
	}
	if ([...said].sort().join(' ') !== [...standing].sort().join(' ')) {
		throw new Failed(`reveals: ${jpath} says no reveal from ${said.join(', ') || 'nobody'}, the reveals text stands in for ${standing.join(', ') || 'nobody'}`);
	}
}

/** A sealed time-locked campaign after the reveal: the umpire's age identity it publishes
 *  (reveal/timelock-identity, one AGE-SECRET-KEY-1 line), read once. */
async function revealedIdentity(ctx) {
	if (ctx.identity === undefined) {
		const path = 'reveal/timelock-identity';
		let bytes;
		try {
			bytes = await ctx.repo.blob(ctx.revealId, path);
		} catch {
			throw new Failed(`reveal: ${path} is not committed: the time-locked files' inner layers cannot be opened`);
		}
		const lines = new TextDecoder().decode(bytes).split('\n').filter((l) => l !== '' && !l.startsWith('#'));
		if (lines.length !== 1 || !/^AGE-SECRET-KEY-1[0-9A-Z]+$/.test(lines[0])) throw new Failed(`reveal: ${path} is not an age identity (one AGE-SECRET-KEY-1... line)`);
		ctx.identity = lines[0];
	}
	return ctx.identity;
}

/** Sealed: the reveal commit, on top of the last turn, adds reveal/ only. */
async function checkRevealCommit(repo, reveal, lastTurn, last) {
	if (reveal.parents.length !== 1 || reveal.parents[0] !== lastTurn.oid) throw new Failed(`reveal: the parent of tag reveal is not turn ${last}'s commit`);
	for (const c of await repo.diff(lastTurn.oid, reveal.oid)) {
		if (!c.path.startsWith('reveal/') || c.status === 'D') throw new Failed(`reveal: the reveal commit changes ${c.path}: it adds reveal/ only`);
	}
}

async function checkReceipts(ctx, closeMap, say) {
	const { camp, opts, st } = ctx;
	const given = [];
	const lacks = [];
	for (const file of opts.receipts || []) {
		const rc = await readReceipt(file);
		if (rc.campaign !== camp.id) throw new Failed(`receipt ${rc.name} is for campaign '${rc.campaign}', not '${camp.id}'`);
		if (rc.kind === 'close') {
			const r = checkCloseReceipt(rc, closeMap, camp);
			if (r.lacks) lacks.push(rc.turn);
			if (r.witnessed) closeMap.get(rc.turn).witnessed = true;
			say(r.line);
			if (r.note) say(r.note);
		} else {
			say(checkRevealReceipt(rc, ctx.values.has(rc.turn) ? ctx.values.get(rc.turn) : null));
		}
		given.push(rc);
	}
	if (lacks.length) st.found['history-lacks-close'] = { turns: lacks };
	for (const player of opts.receiptsOf || []) {
		for (const [t, { commit, close }] of closeMap) {
			// every player gets every close's receipt, due or not: each is a witness of it
			if (!given.some((g) => g.kind === 'close' && g.turn === t && g.player === player)) {
				throw new Failed(`receipts of ${player}: turn ${t}'s close (commit ${commit}) has no receipt of his among those given (every player gets the receipt of every close): a close he was never receipted (made or redone unseen), or a receipt left out`);
			}
		}
		say(`receipts of ${player}: ok: a receipt for every close`);
	}
}
