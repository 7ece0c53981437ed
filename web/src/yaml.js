// "The files, field by field" (docs/fairness.md): the committed YAML files read with js-yaml's
// failsafe schema (every scalar a string, so no number loses precision and no text turns into
// a boolean), with typed access that names the file and key of whatever is wrong.
import jsyaml from 'js-yaml';
import { Failed, unhex } from './bytes.js';

/** Parses bytes (UTF-8) as one YAML document; Failed naming file:line:column when it cannot. */
export function parseYaml(bytes, name) {
	let text;
	try {
		text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
	} catch {
		throw new Failed(`${name}: not UTF-8`);
	}
	let doc;
	try {
		doc = jsyaml.load(text, { schema: jsyaml.FAILSAFE_SCHEMA, filename: name, json: false });
	} catch (e) {
		const m = e.mark;
		throw new Failed(m ? `${name}:${m.line + 1}:${m.column + 1}: ${e.reason}` : `${name}: ${e.message}`);
	}
	if (doc === undefined || doc === null) throw new Failed(`${name}:1:1: document is empty`);
	return doc;
}

export const isMap = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const has = (m, k) => isMap(m) && Object.prototype.hasOwnProperty.call(m, k);
export { has };

/** m[key] as kind: 'str', 'int' (BigInt), 'num' (a safe integer), 'bool', 'hex' (32 bytes),
 *  'map' or 'seq'; Failed naming file and key when it is missing or of another kind. */
export function need(m, key, file, kind) {
	if (!isMap(m)) throw new Failed(`${file}: a mapping expected (for '${key}')`);
	if (!has(m, key)) throw new Failed(`${file}: missing key '${key}'`);
	const v = m[key];
	const bad = (what) => new Failed(`${file}: '${key}' must be ${what}, not ${JSON.stringify(v)}`);
	switch (kind) {
	case 'map': if (!isMap(v)) throw bad('a mapping'); return v;
	case 'seq': if (!Array.isArray(v)) throw bad('a sequence'); return v;
	case 'str': if (typeof v !== 'string') throw bad('a scalar'); return v;
	case 'int':
		if (typeof v !== 'string' || !/^(0|-?[1-9][0-9]*)$/.test(v)) throw bad('an integer');
		return BigInt(v);
	case 'num': {
		if (typeof v !== 'string' || !/^(0|-?[1-9][0-9]*)$/.test(v) || !Number.isSafeInteger(Number(v))) throw bad('an integer');
		return Number(v);
	}
	case 'bool':
		if (v !== 'true' && v !== 'false') throw bad('true or false');
		return v === 'true';
	case 'hex':
		if (typeof v !== 'string' || !/^[0-9a-f]{64}$/.test(v)) throw bad('64 lower-case hex digits');
		return unhex(v);
	default: throw new Error(kind);
	}
}

/** Failed when m has a key not in allowed. */
export function onlyKeys(m, allowed, file) {
	if (!isMap(m)) throw new Failed(`${file}: a mapping expected`);
	for (const k of Object.keys(m)) {
		if (!allowed.includes(k)) throw new Failed(`${file}: unknown key '${k}' (expected: ${allowed.join(', ')})`);
	}
}

/** A number in low..high from m[key]. */
export function needRange(m, key, file, low, high) {
	const v = need(m, key, file, 'num');
	if (v < low || v > high) throw new Failed(`${file}: '${key}' ${v} out of range (${low} to ${high})`);
	return v;
}
