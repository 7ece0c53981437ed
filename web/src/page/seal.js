// The sealing page (issue 36, item 3): the player gives campaign.yaml (or the page reads the one
// served beside it, and overrides.yaml, every schedule change `umpire site` knew of) and his
// order file; the page checks the file against the rule system's JSON Schema (validators
// compiled by ajv at build time, web/build-tlock.mjs), computes the round of the turn the file
// names (web/src/campaign.js, as umpire does, the schedule's changes included), encrypts with
// drand's tlock-js and typage (web/src/tlock.js) and offers `<name>.age` to download. No
// request leaves the page's own folder.
import jsyaml from 'js-yaml';
import * as validators from 'umpire:order-validators';
import { seal, TlockError } from '../tlock.js';
import { Failed } from '../bytes.js';
import { readCampaign, readOverrides, turnRound, roundTime } from '../campaign.js';

const $ = (sel) => document.querySelector(sel);
const readFile = async (f) => new Uint8Array(await f.arrayBuffer());
const utc = (t) => new Date(Number(t) * 1000).toISOString().replace('.000Z', 'Z');
const MAX_ORDERS = 1 << 20; // ORDER_FILE_MAX_BYTES (src/core/campaign.h)

/** The order file checked: parsed (YAML, core schema), against RULES-orders.schema.json, and
 *  naming this campaign, one of its players and a turn. Returns {turn, player}; TlockError. */
export function checkOrders(bytes, name, camp) {
	if (bytes.length > MAX_ORDERS) throw new TlockError(`${name}: larger than ${MAX_ORDERS} bytes`);
	let doc;
	try {
		doc = jsyaml.load(new TextDecoder('utf-8', { fatal: true }).decode(bytes), { schema: jsyaml.CORE_SCHEMA, filename: name });
	} catch (e) {
		throw new TlockError(e.mark ? `${name}:${e.mark.line + 1}:${e.mark.column + 1}: ${e.reason}` : `${name}: not UTF-8 YAML (${e.message})`);
	}
	const validate = validators['v_' + camp.rules.replace(/[^A-Za-z0-9]/g, '_')];
	if (!validate) throw new TlockError(`campaign.yaml: no schema for rule system '${camp.rules}' (schemas/${camp.rules}-orders.schema.json)`);
	if (!validate(doc)) {
		const errs = validate.errors.slice(0, 8).map((e) => `${name}: ${e.instancePath || '/'}: ${e.message}${e.params && e.params.additionalProperty ? ` (${e.params.additionalProperty})` : ''}`);
		throw new TlockError(`not a ${camp.rules} order file (schemas/${camp.rules}-orders.schema.json):\n${errs.join('\n')}`);
	}
	if (doc.campaign !== undefined && String(doc.campaign) !== camp.id) throw new TlockError(`${name}: campaign '${doc.campaign}', not this campaign ('${camp.id}')`);
	if (!Number.isSafeInteger(doc.turn) || doc.turn < 1) throw new TlockError(`${name}: turn is not a turn number (1, 2, ...)`);
	if (!camp.players.includes(String(doc.player))) throw new TlockError(`${name}: player '${doc.player}' is not one of ${camp.players.join(', ')}`);
	return { turn: doc.turn, player: String(doc.player) };
}

function mount() {
	const state = { camp: null, campName: null, orders: null };
	const status = $('#us-status'), result = $('#us-result'), lines = $('#us-lines'), link = $('#us-download');
	const show = (l) => {
		const div = document.createElement('div');
		div.textContent = l;
		lines.appendChild(div);
	};
	const done = (ok, text) => {
		result.textContent = text;
		result.className = ok ? 'fair' : 'failed';
		result.dataset.state = ok ? 'sealed' : 'refused';
	};
	async function run() {
		lines.textContent = '';
		result.textContent = '';
		delete result.dataset.state;
		link.hidden = true;
		if (link.href) URL.revokeObjectURL(link.href);
		if (!state.camp || !state.orders) {
			status.textContent = state.camp ? 'now your order file' : 'first the campaign\'s campaign.yaml';
			return;
		}
		try {
			const camp = state.camp, { name, bytes } = state.orders;
			if (!camp.timelocked) throw new TlockError(`campaign '${camp.id}' does not take time-locked orders (no 'orders: timelocked' in its campaign.yaml): send your order file as it is`);
			const { turn, player } = checkOrders(bytes, name, camp);
			const round = turnRound(camp, turn);
			show(`${name}: ${player}'s orders for turn ${turn} of ${camp.id}: the schema (${camp.rules}) is satisfied`);
			show(`turn ${turn} closes on round ${round} of chain ${camp.info.hash}, out at ${utc(roundTime(camp, round))}`);
			if (roundTime(camp, round) * 1000 <= Date.now()) show(`note: by this computer's clock round ${round} is out already: turn ${turn}'s close is past, and anyone can open a file locked to it`);
			if (camp.recipient) show(`sealed campaign: encrypted first to the umpire's key ${camp.recipient}, so your opponents cannot read it until the reveal`);
			status.textContent = 'encrypting…';
			const armored = await seal(bytes, { round, info: camp.info, recipient: camp.recipient });
			link.href = URL.createObjectURL(new Blob([armored], { type: 'application/octet-stream' }));
			link.download = `${name}.age`;
			link.textContent = `Download ${name}.age`;
			link.hidden = false;
			link.dataset.round = String(round);
			status.textContent = '';
			done(true, `sealed to round ${round}: attach ${name}.age to your mail to the umpire`);
		} catch (e) {
			status.textContent = '';
			const known = e instanceof TlockError || e instanceof Failed;
			done(false, known ? e.message : `error: ${e.message}`);
			if (!known) console.error(e);
		}
	}
	// overrides: overrides.yaml's bytes (the schedule's changes), or null.
	const takeCampaign = (bytes, from, overrides = null) => {
		try {
			state.camp = readCampaign(bytes, 'campaign.yaml');
			if (overrides) readOverrides(state.camp, overrides, 'overrides.yaml');
			state.campName = from;
			$('#us-campaign-name').textContent = `${state.camp.id} (${from})`;
		} catch (e) {
			state.camp = null;
			done(false, e.message);
			return;
		}
		run();
	};
	// campaign.yaml, and overrides.yaml when the player has it (picked together).
	$('#us-campaign').addEventListener('change', async (ev) => {
		const files = [...ev.target.files];
		const ov = files.find((f) => /overrides\.ya?ml$/.test(f.name)), cf = files.find((f) => f !== ov);
		if (cf) takeCampaign(await readFile(cf), cf.name, ov ? await readFile(ov) : null);
	});
	$('#us-orders').addEventListener('change', async (ev) => {
		const f = ev.target.files[0];
		if (!f) return;
		state.orders = { name: f.name, bytes: await readFile(f) };
		run();
	});
	// Served with the campaign's pages: its campaign.yaml and overrides.yaml beside the page
	// (same folder only), both read before the round is computed.
	if (location.protocol === 'http:' || location.protocol === 'https:') {
		const get = (name) => fetch(name, { credentials: 'omit' }).then((r) => (r.ok ? r.arrayBuffer() : null), () => null);
		Promise.all([get('campaign.yaml'), get('overrides.yaml')]).then(([b, o]) => {
			if (b && !state.camp) takeCampaign(new Uint8Array(b), 'served with this page', o && new Uint8Array(o));
		});
	}
	run();
}

if (typeof document !== 'undefined') mount();
