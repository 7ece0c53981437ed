#!/usr/bin/env node
// tests/e2e/jsv-serve.mjs — tools/umpire-verify.mjs run on many clones by one node process, for
// a test that checks dozens of tampered clones (t_js_tampers.sh): each line of standard input
// is a JSON request { args: [...], out: FILE, err: FILE }; the verifier runs on args as the
// command line would, its standard output and error written to the two files, then the exit
// code is printed as a line. Ends at the end of its input. lib.sh's jsv_start and jsv use it.
import fs from 'node:fs';
import readline from 'node:readline';
import process from 'node:process';
import { run, failure } from '../../tools/umpire-verify.mjs';

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
	if (!line) continue;
	const q = JSON.parse(line);
	const out = [], err = [];
	let code;
	try {
		code = await run(q.args, { out: (t) => out.push(t), err: (t) => err.push(t) });
	} catch (e) {
		const [c, text] = failure(e);
		err.push(text);
		code = c;
	}
	fs.writeFileSync(q.out, out.join(''));
	fs.writeFileSync(q.err, err.join(''));
	process.stdout.write(`${code}\n`);
}
process.exit(0);
