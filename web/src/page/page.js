// The page of the independent verifier: the player gives his clone (a folder, a bundle or the
// git host's URL), his receipt mails, the time-stamp authorities he trusts and his files of
// sealed turns; the same modules as tools/umpire-verify.mjs check the
// history, and the page shows each turn's line and the verdict of docs/fairness.md, "The
// verdict". It mounts into any element #umpire-verifier, so the campaign's own static pages can
// hold it; it makes no request to any other site, and remembers the verified head (browser
// storage) as `umpire verify` remembers refs/umpire/verified.
import { verify } from '../verify.js';
import { repoFromFolder, repoFromBundle, repoFromUrl } from './inputs.js';
import { Fatal } from '../bytes.js';
import { trustFile } from '../tstamp.js';
import { isViewFile } from '../view.js';
import { useWorkers } from '../beacon.js';
import { pagePool } from './workers.js';

const $ = (root, sel) => root.querySelector(sel);
const readFile = async (f) => new Uint8Array(await f.arrayBuffer());
const STORE = 'umpire-verified:';

/** Everything under a dropped directory entry, as [{ path, bytes (its File, read when needed) }]. */
async function walkEntry(entry, out) {
	if (entry.isFile) {
		const f = await new Promise((ok, ko) => entry.file(ok, ko));
		out.push({ path: entry.fullPath.replace(/^\//, ''), bytes: f }); // read when needed (MemFS)
	} else if (entry.isDirectory) {
		const reader = entry.createReader();
		for (;;) {
			const batch = await new Promise((ok, ko) => reader.readEntries(ok, ko));
			if (!batch.length) break;
			for (const e of batch) await walkEntry(e, out);
		}
	}
}

export function mount(root) {
	const state = { receipts: [], tsa: [], views: [] };
	const lines = $(root, '#uv-lines'), verdict = $(root, '#uv-verdict'), status = $(root, '#uv-status');
	const show = (l) => {
		const div = document.createElement('div');
		div.textContent = l;
		div.className = l.startsWith('verify: FAILED') ? 'bad' : l.startsWith('reason:') ? 'reason' : l.startsWith('note:') ? 'note' : '';
		lines.appendChild(div);
	};
	async function run(getRepo, what) {
		lines.textContent = '';
		verdict.textContent = '';
		verdict.className = '';
		status.textContent = `reading ${what}…`;
		try {
			const repo = await getRepo();
			const setup = await repo.commitId('refs/tags/turn-0000');
			const key = STORE + (setup || 'none');
			// the head this browser verified, and the one the clone's own verifiers remembered
			const mine = setup ? localStorage.getItem(key) : null;
			const theirs = await repo.commitId('refs/umpire/verified');
			const remembered = [mine && { oid: mine, where: 'this browser\'s storage' }, theirs && { oid: theirs, where: 'refs/umpire/verified' }].filter(Boolean);
			status.textContent = `verifying ${what}…`;
			const trust = {};
			const tc = $(root, '#uv-trust').value.trim();
			if (tc) {
				const m = /^([0-9a-f]{64}):([0-9a-f]{192})$/.exec(tc);
				if (!m) throw new Fatal(64, 'a trusted chain is HASH:KEY (64 and 192 lower-case hex digits)');
				trust[m[1]] = m[2];
			}
			const r = await verify(repo, {
				commitment: $(root, '#uv-commitment').value.trim() || null, setup: $(root, '#uv-setup').value.trim() || null,
				receipts: state.receipts, receiptsOf: $(root, '#uv-receipts-of').value.trim().split(/\s+/).filter(Boolean),
				trustChains: trust, remembered, onLine: show, views: state.views,
				tsaTrust: async () => state.tsa.flatMap((f) => trustFile(f.name, f.bytes)),
			});
			if (r.head && setup) localStorage.setItem(key, r.head);
			verdict.textContent = `verdict: ${r.verdict.verdict}`;
			verdict.className = { 0: 'fair', 3: 'notproven', 65: 'failed' }[r.verdict.exit];
			verdict.dataset.exit = r.verdict.exit;
			status.textContent = `${what}: ${r.turns} turns, ${r.dice} dice checked${mine ? `; this browser verified it before at ${mine.slice(0, 12)}` : ''}`;
		} catch (e) {
			verdict.textContent = e instanceof Fatal ? `cannot verify: ${e.message}` : `error: ${e.message}`;
			verdict.className = 'failed';
			verdict.dataset.exit = e instanceof Fatal ? e.code : 70;
			status.textContent = '';
			if (!(e instanceof Fatal)) console.error(e);
		}
	}
	$(root, '#uv-folder').addEventListener('change', async (ev) => {
		const files = [];
		// each file read only when the verifier needs it (MemFS): most of a clone is never read
		for (const f of ev.target.files) files.push({ path: f.webkitRelativePath || f.name, bytes: f });
		run(() => repoFromFolder(files), 'the folder');
	});
	$(root, '#uv-bundle').addEventListener('change', async (ev) => {
		const f = ev.target.files[0];
		if (f) run(async () => repoFromBundle(await readFile(f)), f.name);
	});
	$(root, '#uv-receipts').addEventListener('change', async (ev) => {
		state.receipts = [];
		for (const f of ev.target.files) state.receipts.push({ name: f.name, bytes: await readFile(f) });
		$(root, '#uv-receipt-count').textContent = `${state.receipts.length} receipt${state.receipts.length === 1 ? '' : 's'}`;
	});
	const tsaCount = () => { $(root, '#uv-tsa-count').textContent = `${state.tsa.length} certificate file${state.tsa.length === 1 ? '' : 's'}`; };
	$(root, '#uv-tsa').addEventListener('change', async (ev) => {
		state.tsa = [];
		for (const f of ev.target.files) state.tsa.push({ name: f.name, bytes: await readFile(f) });
		tsaCount();
	});
	// a folder of view files, or several side by side: one view per top folder
	$(root, '#uv-view').addEventListener('change', async (ev) => {
		const byDir = new Map();
		for (const f of ev.target.files) {
			const rel = f.webkitRelativePath || f.name;
			const cut = rel.lastIndexOf('/');
			const dir = cut < 0 ? '.' : rel.slice(0, cut), name = rel.slice(cut + 1);
			if (!isViewFile(name)) continue;
			if (!byDir.has(dir)) byDir.set(dir, { name: dir, files: {} });
			byDir.get(dir).files[name] = await readFile(f);
		}
		state.views = [...byDir.values()];
		$(root, '#uv-view-count').textContent = `${state.views.length} folder${state.views.length === 1 ? '' : 's'} of your files`;
	});
	$(root, '#uv-url-go').addEventListener('click', () => {
		const url = $(root, '#uv-url').value.trim();
		if (url) run(() => repoFromUrl(url), url);
	});
	const drop = $(root, '#uv-drop');
	drop.addEventListener('dragover', (ev) => { ev.preventDefault(); drop.classList.add('over'); });
	drop.addEventListener('dragleave', () => drop.classList.remove('over'));
	drop.addEventListener('drop', async (ev) => {
		ev.preventDefault();
		drop.classList.remove('over');
		const items = [...ev.dataTransfer.items].map((i) => i.webkitGetAsEntry && i.webkitGetAsEntry()).filter(Boolean);
		const eml = [], files = [];
		for (const e of items) {
			if (e.isFile && /\.(pem|crt|cer)$/i.test(e.name)) {
				const f = await new Promise((ok, ko) => e.file(ok, ko));
				state.tsa.push({ name: f.name, bytes: await readFile(f) });
				tsaCount();
			} else if (e.isFile && /\.(eml|ya?ml|txt)$/i.test(e.name)) {
				const f = await new Promise((ok, ko) => e.file(ok, ko));
				eml.push({ name: f.name, bytes: await readFile(f) });
			} else if (e.isFile) {
				const f = await new Promise((ok, ko) => e.file(ok, ko));
				const bytes = await readFile(f);
				run(() => repoFromBundle(bytes), f.name);
				return;
			} else await walkEntry(e, files);
		}
		if (eml.length) {
			state.receipts.push(...eml);
			$(root, '#uv-receipt-count').textContent = `${state.receipts.length} receipts`;
		}
		if (files.length) run(() => repoFromFolder(files), 'the folder');
	});
	const preset = root.dataset.cloneUrl;
	if (preset) $(root, '#uv-url').value = preset;
}

const el = document.getElementById('umpire-verifier');
if (el) {
	useWorkers(pagePool()); // the beacon rounds' checks beside the reading of the history
	mount(el);
}
