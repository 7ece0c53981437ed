// docs/fairness.md, "Sealed turns": a player's own files of sealed turns (`--view DIR`, or a
// folder dropped on the page) against the clone, as `umpire verify --view` checks them before
// the reveal: his salted hash is the export's, his order file opens it, his report and view
// of the state open the commitments the export's views hold for him.
import { Failed, Fatal, EX, equal, tag } from './bytes.js';
import { parseYaml, need, needRange } from './yaml.js';
import { exportViews, sealedHash } from './sealed.js';

const OUTBOX = ['salt.yaml', 'orders.yaml', 'report.md', 'state.yaml'];

/** The names of turn t's files in a view folder: a sealed report mail's attachments
 *  (docs/formats.md, "Play by email"), or for t null a player's outbox of one turn. */
export function viewNames(t) {
	if (t === null) return OUTBOX;
	const n = String(t).padStart(4, '0');
	return [`salt-${n}.yaml`, `orders-${n}.yaml`, `report-${n}.md`, `view-${n}.yaml`];
}

/** A file name a view folder may hold (the others are not read). */
export function isViewFile(name) {
	return OUTBOX.includes(name) || /^(salt|orders|view)-[0-9]{4,6}\.yaml$/.test(name) || /^report-[0-9]{4,6}\.md$/.test(name);
}

/**
 * Checks a view folder { name (as the player named it), files: { NAME: bytes } } against the
 * campaign in repo: the unnumbered names of one turn first, then each turn whose
 * salt-NNNN.yaml it holds, in turn order. say(line) for each turn verified. Fatal 66 when it
 * holds no salt file; Failed naming the first file that does not match.
 */
export async function checkView(repo, camp, view, say) {
	if (!camp.sealed) throw new Failed(`view ${view.name}: campaign ${camp.id} is open: every report and state is committed`);
	const names = Object.keys(view.files);
	const turns = names.map((n) => /^salt-([0-9]{4,6})\.yaml$/.exec(n)).filter((m) => m && viewNames(Number(m[1]))[0] === m[0] && Number(m[1]) >= 1)
		.map((m) => Number(m[1])).sort((a, b) => a - b);
	if (!names.includes('salt.yaml') && !turns.length) {
		throw new Fatal(EX.NOINPUT, `view ${view.name}: no salt-NNNN.yaml (a sealed report mail's attachments) nor salt.yaml (a player's outbox of one turn)`);
	}
	for (const t of [...(names.includes('salt.yaml') ? [null] : []), ...turns]) await checkViewTurn(repo, camp, view, t, say);
}

const join = (dir, name) => (dir.endsWith('/') ? dir + name : `${dir}/${name}`);

async function checkViewTurn(repo, camp, view, want, say) {
	const vdir = view.name;
	const [sname, oname, rname, vname] = viewNames(want);
	const spath = join(vdir, sname);
	const data = view.files[sname];
	if (!data) throw new Fatal(EX.NOINPUT, `${spath}: no such file`);
	if (data.length > 64 * 1024) throw new Failed(`${spath}: larger than ${64 * 1024} bytes`);
	const root = parseYaml(data, spath);
	const campaign = need(root, 'campaign', spath, 'str');
	if (campaign !== camp.id) throw new Failed(`view: ${spath} is for campaign '${campaign}', not '${camp.id}'`);
	const t = needRange(root, 'turn', spath, 1, 999999);
	if (want !== null && t !== want) throw new Failed(`view ${vdir}: ${spath} is for turn ${t}, not ${want}`);
	const player = need(root, 'player', spath, 'str');
	const salts = need(root, 'salts', spath, 'seq');
	const views = need(root, 'views', spath, 'seq');
	if (salts.length > 1 || views.length !== 1) throw new Failed(`view: ${spath} is not a player's salt.yaml (at most one salt, his views entry expected)`);
	const jpath = `journal/${tag(t)}.yaml`;
	const tid = await repo.commitId(`refs/tags/${tag(t)}`);
	const exBytes = tid ? await repo.blob(tid, jpath) : null;
	if (!exBytes) throw new Failed(`view ${vdir}: the clone has no ${jpath} at tag ${tag(t)}`);
	const ex = parseYaml(exBytes, jpath);
	const mine = need(ex, 'orders', jpath, 'seq').filter((e) => need(e, 'player', jpath, 'str') === player);
	const sent = salts.length === 1;
	const h = sent ? need(salts[0], 'sha256', spath, 'hex') : null;
	if (mine.length !== 1 || need(mine[0], 'received', jpath, 'bool') !== sent || (sent && !equal(need(mine[0], 'sha256', jpath, 'hex'), h))) {
		throw new Failed(`view ${vdir}: ${player}'s salted hash for turn ${t} is not the one ${jpath} holds`);
	}
	let opened = '';
	const f = view.files[oname];
	if (f) {
		if (!equal(sealedHash(need(salts[0], 'salt', spath, 'hex'), f), h)) {
			throw new Failed(`view ${vdir}: the salt does not open the commitment with ${oname}: not the file ${player} sent for turn ${t}`);
		}
		opened = ', his file opens it';
	}
	const committed = exportViews(ex, camp, jpath)[player];
	if (!committed) throw new Failed(`view ${vdir}: ${jpath} lists no view of ${player} for turn ${t}`);
	for (const [i, name, item] of [[0, rname, 'report'], [1, vname, 'state']]) {
		if (!equal(need(views[0], `${item}_sha256`, spath, 'hex'), committed[i])) {
			throw new Failed(`view ${vdir}: the salted hash of ${player}'s ${name} for turn ${t} is not the one ${jpath} holds`);
		}
		const p = join(vdir, name);
		const b = view.files[name];
		if (!b) throw new Fatal(EX.NOINPUT, `${p}: no such file`);
		if (!equal(sealedHash(need(views[0], `${item}_salt`, spath, 'hex'), b), committed[i])) {
			throw new Failed(`view ${vdir}: ${p} does not open the commitment ${jpath} holds for ${player}'s ${item} of turn ${t}: not the one the umpire committed to`);
		}
	}
	say(`view ${vdir}: ok: ${player}'s orders for turn ${t} are the ones committed (${sent ? 'salted hash' : 'none sent'} in ${jpath})${opened}; his report and view of the state open the commitments there`);
}
