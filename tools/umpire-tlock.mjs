#!/usr/bin/env node
// tools/umpire-tlock.mjs — time-locked order files from the command line (issue 36, the contract
// of docs/fairness.md "Time-locked orders"): inspect, seal, open and keygen, on drand's tlock-js
// and typage (web/src/tlock.js). Never touches the network: a round's signature is given.
import '../web/src/node-crypto.js'; // first: Web Crypto for node 18
import fs from 'node:fs';
import process from 'node:process';
import { TlockError, MAX_FILE, checkChainInfo, parseRound, inspect, seal, open, checkInner, keygen } from '../web/src/tlock.js';

const PROG = 'umpire-tlock';
const EX = { USAGE: 64, DATAERR: 65, NOINPUT: 66, SOFTWARE: 70 };
const USAGE = `usage: umpire-tlock inspect FILE
       umpire-tlock seal --round R --chain-info INFO.json [--recipient age1...] < PLAIN > ARMORED
       umpire-tlock open --round R --signature HEX --chain-info INFO.json [--identity FILE]
                         < ARMORED > PLAIN
       umpire-tlock inner --round R --signature HEX --chain-info INFO.json < ARMORED
       umpire-tlock keygen

Time-locked files (drand's tlock, age format), offline. inspect prints "round R" and "chain HASH"
of an armored age file with exactly one tlock stanza. seal encrypts standard input to round R of
the chain whose drand /info JSON is INFO.json (with --recipient, to that age X25519 recipient
first). open decrypts with round R's signature (hex, already checked against the chain's key);
with --identity (a file holding an AGE-SECRET-KEY-1 line) it opens the inner layer too, without
it a sealed file's output is the inner armored age file. inner opens the time-lock layer alone
and checks it holds an age file to exactly one X25519 recipient (a sealed campaign's file before
the reveal), printing "inner: age X25519". keygen prints a new identity and
"# public key: age1...". Exit: 0, 64 usage, 65 the file does not open or is not one, 66 no
such file, 70 internal error.`;

class Exit extends Error {
	constructor(code, msg) {
		super(msg);
		this.code = code;
	}
}
const usage = (msg) => {
	throw new Exit(EX.USAGE, `${msg}\n${USAGE}`);
};

/** parse(argv, allowed): {cmd, args: [positional], opts: {name: value}}; usage errors. */
function parse(argv, allowed) {
	const opts = {}, args = [];
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		if (a.startsWith('--')) {
			let name = a.slice(2), v;
			const eq = name.indexOf('=');
			if (eq >= 0) [name, v] = [name.slice(0, eq), name.slice(eq + 1)];
			if (!allowed.includes(name)) usage(`unknown option ${a}`);
			if (Object.hasOwn(opts, name)) usage(`--${name} given twice`);
			if (v === undefined) {
				if (i + 1 >= argv.length) usage(`--${name} takes a value`);
				v = argv[++i];
			}
			opts[name] = v;
		} else if (a.startsWith('-') && a !== '-') usage(`unknown option ${a}`);
		else args.push(a);
	}
	return { opts, args };
}

/** readFile(name): a regular file's bytes, not through a symlink, at most MAX_FILE. */
function readFile(name) {
	let fd;
	try {
		fd = fs.openSync(name, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
	} catch (e) {
		if (e.code === 'ENOENT') throw new Exit(EX.NOINPUT, `${name}: no such file`);
		if (e.code === 'ELOOP') throw new Exit(EX.NOINPUT, `${name}: a symbolic link (not followed)`);
		throw new Exit(EX.NOINPUT, `${name}: ${e.message}`);
	}
	try {
		if (!fs.fstatSync(fd).isFile()) throw new Exit(EX.NOINPUT, `${name}: not a regular file`);
		return readFd(fd, name);
	} finally {
		fs.closeSync(fd);
	}
}

/** readFd(fd, name): everything readable from fd, refused past MAX_FILE bytes. */
function readFd(fd, name) {
	const chunks = [];
	let total = 0;
	const buf = Buffer.alloc(65536);
	for (;;) {
		let n;
		try {
			n = fs.readSync(fd, buf, 0, buf.length, null);
		} catch (e) {
			if (e.code === 'EAGAIN') continue;
			if (e.code === 'EOF') break;
			throw new Exit(EX.NOINPUT, `${name}: ${e.message}`);
		}
		if (n === 0) break;
		total += n;
		if (total > MAX_FILE) throw new Exit(EX.DATAERR, `${name}: larger than ${MAX_FILE} bytes`);
		chunks.push(Buffer.from(buf.subarray(0, n)));
	}
	return new Uint8Array(Buffer.concat(chunks));
}

function chainInfo(name) {
	if (name === undefined) usage('--chain-info INFO.json is required');
	const bytes = readFile(name);
	let info;
	try {
		info = JSON.parse(Buffer.from(bytes).toString('utf8'));
	} catch (e) {
		throw new Exit(EX.DATAERR, `${name}: not JSON (${e.message})`);
	}
	try {
		return checkChainInfo(info);
	} catch (e) {
		throw new Exit(EX.DATAERR, `${name}: ${e.message}`);
	}
}

function round(v) {
	if (v === undefined) usage('--round R is required');
	try {
		return parseRound(v);
	} catch (e) {
		return usage(`--round: ${e.message}`);
	}
}

/** identityLine(name): the one AGE-SECRET-KEY-1 line of an age identity file (comments allowed). */
function identityLine(name) {
	const lines = Buffer.from(readFile(name)).toString('utf8').split(/\r?\n/).filter((l) => l !== '' && !l.startsWith('#'));
	if (lines.length !== 1 || !lines[0].startsWith('AGE-SECRET-KEY-1')) throw new Exit(EX.DATAERR, `${name}: not an age identity file (one AGE-SECRET-KEY-1... line expected)`);
	return lines[0];
}

const write = (data) => new Promise((resolve, reject) => process.stdout.write(data, (e) => (e ? reject(e) : resolve())));

async function main(argv) {
	const cmd = argv[0];
	const rest = argv.slice(1);
	if (cmd === '-h' || cmd === '--help') return write(USAGE + '\n');
	if (cmd === 'inspect') {
		const { args } = parse(rest, []);
		if (args.length !== 1) usage('inspect takes one FILE');
		const name = args[0];
		const bytes = name === '-' ? readFd(0, 'standard input') : readFile(name);
		const h = inspect(bytes);
		return write(`round ${h.round}\nchain ${h.chain}\n`);
	}
	if (cmd === 'seal') {
		const { opts, args } = parse(rest, ['round', 'chain-info', 'recipient']);
		if (args.length) usage(`seal reads standard input, not '${args[0]}'`);
		const r = round(opts.round), info = chainInfo(opts['chain-info']);
		const plain = readFd(0, 'standard input');
		return write(await seal(plain, { round: r, info, recipient: opts.recipient }));
	}
	if (cmd === 'open' || cmd === 'inner') {
		const { opts, args } = parse(rest, ['round', 'signature', 'chain-info', ...(cmd === 'open' ? ['identity'] : [])]);
		if (args.length) usage(`${cmd} reads standard input, not '${args[0]}'`);
		const r = round(opts.round), info = chainInfo(opts['chain-info']);
		if (opts.signature === undefined) usage('--signature HEX is required');
		const sig = opts.signature.toLowerCase();
		if (!/^[0-9a-f]{96}$/.test(sig)) usage('--signature takes 96 hex digits (a compressed G1 point)');
		const identity = opts.identity === undefined ? undefined : identityLine(opts.identity);
		const armored = readFd(0, 'standard input');
		const plain = await open(armored, { round: r, signature: sig, info, identity });
		if (cmd === 'open') return write(plain);
		checkInner(plain);
		return write('inner: age X25519\n');
	}
	if (cmd === 'keygen') {
		const { args } = parse(rest, []);
		if (args.length) usage('keygen takes no argument');
		const k = await keygen();
		return write(`${k.identity}\n# public key: ${k.recipient}\n`);
	}
	return usage(cmd === undefined ? 'a command expected' : `unknown command '${cmd}'`);
}

process.stdout.on('error', (e) => process.exit(e.code === 'EPIPE' ? 0 : 74));
main(process.argv.slice(2)).then(() => process.exit(0), (e) => {
	if (e instanceof Exit) {
		process.stderr.write(`${PROG}: ${e.message}\n`);
		process.exit(e.code);
	}
	if (e instanceof TlockError) {
		process.stderr.write(`${PROG}: ${e.message.replace(/\s+/g, ' ')}\n`);
		process.exit(EX.DATAERR);
	}
	process.stderr.write(`${PROG}: internal error: ${(e && e.stack) || e}\n`);
	process.exit(EX.SOFTWARE);
});
