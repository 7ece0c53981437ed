#!/usr/bin/env node
// tools/umpire-verify.mjs — the independent verifier in JavaScript (web/src/, written from
// docs/fairness.md), on the command line: the same modules the browser page runs, given a
// clone through node's fs. It does not re-run the rules: `umpire verify` does.
import '../web/src/node-crypto.js'; // first: Web Crypto for node 18
import fs from 'node:fs';
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import path from 'node:path';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { Repo } from '../web/src/repo.js';
import { verify } from '../web/src/verify.js';
import { Fatal, Failed, EX } from '../web/src/bytes.js';
import { checkVectors, parseVectors } from '../web/src/vectors.js';
import { decide, verdictLines, verdictJson } from '../web/src/verdict.js';
import { isViewFile } from '../web/src/view.js';
import { useWorkers } from '../web/src/beacon.js';
import { nodePool } from '../web/src/node-workers.js';

// loose objects inflated and hashed by node's zlib and OpenSSL (repo.js: PORTABLE elsewhere)
const NODE_CODEC = {
	inflate: (b) => {
		// its output in chunks of about what it holds (git's objects inflate to 1-4 times their
		// file): one allocation for most, where the default 16 KiB costs more than the object
		const out = zlib.inflateSync(b, { chunkSize: Math.max(1024, Math.min(b.length * 4, 1 << 20)) });
		return new Uint8Array(out.buffer, out.byteOffset, out.length);
	},
	head: (b) => {
		try {
			return zlib.inflateSync(b, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
		} catch {
			return new Uint8Array(0);
		}
	},
	sha1: (b) => crypto.createHash('sha1').update(b).digest('hex'),
};

const SYSTEM_CAS = '/etc/ssl/certs/ca-certificates.crt'; // TSTAMP_SYSTEM_CAS (src/core/tstamp.h)

const PROG = 'umpire-verify.mjs';
const USAGE = `usage: tools/umpire-verify.mjs CLONE [--commitment C --setup S] [--receipt FILE ...]
       [--receipts-of PLAYER ...] [--trust-chain HASH:KEY ...] [--trust-tsa CERT ...]
       [--view DIR ...] [--vectors FILE ...] [--full] [--json]
       tools/umpire-verify.mjs --vectors FILE ...

Verifies the campaign cloned in CLONE by docs/fairness.md: the history (tags, one commit per
turn, closes, trailers, the journal hash chain), the key chain to the commitment, every
orders digest, beacon round (BLS signature with @noble/curves), seed and die, each close's
RFC 3161 time stamps (PKI.js; trusted when the signer chains to a root of ${SYSTEM_CAS}
or a --trust-tsa certificate), receipts (.eml as saved, or the bare text), a player's files
of sealed turns (--view: his report mail's attachments saved side by side, or his outbox of
one turn), and the head this clone verified before (refs/umpire/verified, shared with
umpire verify). It does NOT re-run the rules: state,
events and reports are taken as committed; umpire verify re-resolves every turn.
Ends with the verdict of docs/fairness.md, "The verdict". --vectors FILE... re-derives the
test vectors (tests/vectors/*.json) with the same modules first ("verdict: ok: N vectors
passed" when given alone).
Exit: 0 fair, 3 consistent but not proven fair, 65 failed, 64 usage, 66 no campaign or
file, 74 I/O error.`;

/** A usage error: USAGE and msg on standard error, exit 64 (thrown: run() may be one of several). */
class Usage extends Error {}
function usage(msg) {
	throw new Usage(msg);
}

function parseArgs(argv) {
	const o = { dir: null, receipts: [], receiptsOf: [], trustTsa: [], views: [], vectors: [], trustChains: {}, json: false, commitment: null, setup: null };
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		const val = () => (i + 1 < argv.length ? argv[++i] : usage(`${a} takes a value`));
		if (a === '-h' || a === '--help') {
			o.help = true;
			return o;
		} else if (a === '--json') o.json = true;
		else if (a === '--full') o.full = true; // every turn is checked anyway (no incremental run here)
		else if (a === '--commitment' || a === '--setup') {
			const v = val();
			if (!/^[0-9a-fA-F]{64}$/.test(v)) usage(`${a} takes 64 hex digits`);
			o[a.slice(2)] = v;
		} else if (a === '--receipt') o.receipts.push(val());
		else if (a === '--receipts-of') o.receiptsOf.push(val());
		else if (a === '--trust-tsa') o.trustTsa.push(val());
		else if (a === '--view') o.views.push(val());
		else if (a === '--vectors') {
			o.vectors.push(val());
			while (i + 1 < argv.length && !argv[i + 1].startsWith('-')) o.vectors.push(argv[++i]);
		}
		else if (a === '--trust-chain') {
			const m = /^([0-9a-f]{64}):([0-9a-f]{192})$/.exec(val());
			if (!m) usage('--trust-chain takes HASH:KEY (64 and 192 lower-case hex digits)');
			o.trustChains[m[1]] = m[2];
		} else if (a.startsWith('-')) usage(`unknown option ${a}`);
		else if (o.dir === null) o.dir = a;
		else usage(`one CLONE expected, not also '${a}'`);
	}
	if (o.dir === null && !o.vectors.length) usage('CLONE or --vectors FILE expected');
	if (o.dir === null && (o.receipts.length || o.receiptsOf.length || o.views.length || o.trustTsa.length)) usage('--receipt, --receipts-of, --view and --trust-tsa need CLONE');
	return o;
}

function readInput(name) {
	try {
		return new Uint8Array(fs.readFileSync(name));
	} catch (e) {
		throw new Fatal(EX.NOINPUT, `${name}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
	}
}

/** The roots umpire verify builds in: Debian's ca-certificates bundle, none without it. */
async function systemRoots() {
	const { pemCertificates } = await import('../web/src/tstamp.js');
	try {
		return pemCertificates(fs.readFileSync(SYSTEM_CAS));
	} catch {
		return [];
	}
}

/** --view DIR: the files of a player's folder a view names ({ name, files: { NAME: bytes } }),
 *  each read in full up to 64 MiB. */
function readViewDir(dir) {
	let names;
	try {
		if (!fs.statSync(dir).isDirectory()) throw new Error('not a directory');
		names = fs.readdirSync(dir);
	} catch {
		throw new Fatal(EX.NOINPUT, `view: no such directory '${dir}'`);
	}
	const files = {};
	for (const n of names.filter(isViewFile)) {
		const p = path.join(dir, n);
		const st = fs.lstatSync(p);
		if (!st.isFile()) continue;
		if (st.size > 64 * 1024 * 1024) throw new Fatal(EX.DATAERR, `${p}: larger than ${64 * 1024 * 1024} bytes`);
		files[n] = new Uint8Array(fs.readFileSync(p));
	}
	return { name: dir, files };
}

let pooled = false; // the beacon rounds' workers, started at the first clone and kept for the next

/** The verifier on argv (the command line's arguments), its output through io ({ out(text),
 *  err(text) }): resolves to the exit code; throws Fatal (its code and message for standard
 *  error) or Usage. tests/e2e/jsv-serve.mjs runs it on several clones in one process. */
export async function run(argv, io) {
	const o = parseArgs(argv);
	if (o.help) {
		io.out(USAGE + '\n');
		return EX.OK;
	}
	const out = (l) => { if (!o.json) io.out(l + '\n'); };
	let total = 0;
	for (const name of o.vectors) {
		try {
			const r = checkVectors(parseVectors(new TextDecoder().decode(readInput(name)), name), name);
			if (r.unknown.length) io.err(`${name}: note: sections not checked: ${r.unknown.join(', ')}\n`);
			out(`${name}: ${r.count} vectors passed`);
			total += r.count;
		} catch (e) {
			if (!(e instanceof Failed)) throw e;
			if (o.dir === null) out(`verdict: FAILED: ${e.message}`);
			else for (const l of verdictLines(decide({}, e.message))) out(l);
			if (o.json) io.out(JSON.stringify(verdictJson(decide({}, e.message), null, 0, 0)) + '\n');
			return EX.DATAERR;
		}
	}
	if (o.dir === null) {
		out(`verdict: ok: ${total} vectors passed`);
		return EX.OK;
	}
	if (!fs.existsSync(o.dir) || !fs.statSync(o.dir).isDirectory()) throw new Fatal(EX.NOINPUT, `${o.dir}: no such directory`);
	const repo = await Repo.open(fs, path.resolve(o.dir), NODE_CODEC);
	await repo.preloadPacks(); // a packed clone (as from a git host): its objects resolved once
	const receipts = o.receipts.map((name) => {
		try {
			return { name, bytes: new Uint8Array(fs.readFileSync(name)) };
		} catch (e) {
			throw new Fatal(EX.NOINPUT, `${name}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
		}
	});
	// --trust-tsa files are read first: one with no certificate is refused before any check
	// (PKI.js is loaded only when certificates are read)
	const tstamp = o.trustTsa.length ? await import('../web/src/tstamp.js') : null;
	const trusted = o.trustTsa.map((name) => tstamp.trustFile(name, readInput(name)));
	const views = o.views.map(readViewDir);
	const remembered = await repo.commitId('refs/umpire/verified');
	if (!pooled) useWorkers(nodePool()); // the beacon rounds' checks on worker threads beside this one
	pooled = true;
	const r = await verify(repo, {
		commitment: o.commitment, setup: o.setup, receipts, receiptsOf: o.receiptsOf, trustChains: o.trustChains, remembered, views,
		tsaTrust: async () => (await systemRoots()).concat(...trusted),
		onLine: o.json ? null : (l) => io.out(l + '\n'),
	});
	if (o.json) io.out(JSON.stringify(verdictJson(r.verdict, r.campaign, r.turns, r.dice)) + '\n');
	if (r.head) {
		try {
			await repo.writeRef('refs/umpire/verified', r.head);
		} catch (e) {
			io.err(`${PROG}: note: cannot remember the head verified (${e.message}): a later rewrite of this history will not be caught here\n`);
		}
	}
	return r.verdict.exit;
}

/** What run() threw, said as the command line says it: [exit code, text for standard error]. */
export function failure(e) {
	if (e instanceof Usage) return [EX.USAGE, `${USAGE}\n${PROG}: ${e.message}\n`];
	if (e instanceof Fatal) return [e.code, `${PROG}: ${e.message}\n`];
	return [70, `${PROG}: ${e && e.stack || e}\n`];
}

// the command line (not when imported: tests/e2e/jsv-serve.mjs)
const self = process.argv[1] && (() => {
	try {
		return pathToFileURL(fs.realpathSync(process.argv[1])).href === import.meta.url;
	} catch {
		return false;
	}
})();
if (self) {
	process.stdout.on('error', (e) => process.exit(e.code === 'EPIPE' ? 0 : EX.IOERR));
	const io = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) };
	run(process.argv.slice(2), io).then((code) => process.exit(code), (e) => {
		const [code, text] = failure(e);
		process.stderr.write(text);
		process.exit(code);
	});
}
