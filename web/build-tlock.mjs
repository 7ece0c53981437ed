// make web, time-locked orders (issue 36): bundles tools/umpire-tlock.mjs into
// build/web/umpire-tlock.mjs (node; umpire runs it) and the sealing page (web/src/page/seal.*)
// into build/web/seal.html + seal.js (one classic script, works from file://), and copies the
// JSON Schemas into build/web/schemas/. The page checks order files with validators ajv compiles
// here from schemas/*-orders.schema.json (standalone code: the page needs no eval, so its
// Content-Security-Policy stays strict). Called by build.mjs; prints each bundle's SHA-256.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const schemas = path.join(here, '..', 'schemas');

/** The ES module of every order file's validator, by rule system: `export const NAME = validate`. */
function orderValidators() {
	const ajv = new Ajv2020({ code: { source: true, esm: true }, allErrors: true, strict: false });
	const exportsOf = {};
	for (const f of readdirSync(schemas).filter((n) => n.endsWith('-orders.schema.json')).sort()) {
		const schema = JSON.parse(readFileSync(path.join(schemas, f), 'utf8'));
		const name = 'v_' + f.replace('-orders.schema.json', '').replace(/[^A-Za-z0-9]/g, '_');
		ajv.addSchema(schema, name);
		exportsOf[name] = name;
	}
	return standaloneCode(ajv, exportsOf);
}

const validatorsPlugin = {
	name: 'umpire-order-validators',
	setup(b) {
		b.onResolve({ filter: /^umpire:order-validators$/ }, (a) => ({ path: a.path, namespace: 'umpire' }));
		b.onLoad({ filter: /.*/, namespace: 'umpire' }, () => ({ contents: orderValidators(), loader: 'js', resolveDir: here }));
	},
};

/** buildTlock(out, common): the bundles and copies above into out (build/web). */
export async function buildTlock(out, common) {
	await build({
		...common, entryPoints: [path.join(here, '..', 'tools', 'umpire-tlock.mjs')], outfile: path.join(out, 'umpire-tlock.mjs'),
		format: 'esm', platform: 'node', banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
	});
	await build({
		...common, entryPoints: [path.join(here, 'src/page/seal.js')], outfile: path.join(out, 'seal.js'),
		format: 'iife', platform: 'browser', inject: [path.join(here, 'src/page/buffer-shim.js')],
		define: { global: 'globalThis' }, plugins: [validatorsPlugin],
	});
	copyFileSync(path.join(here, 'src/page/seal.html'), path.join(out, 'seal.html'));
	mkdirSync(path.join(out, 'schemas'), { recursive: true });
	for (const f of readdirSync(schemas).filter((n) => n.endsWith('.json')).sort()) copyFileSync(path.join(schemas, f), path.join(out, 'schemas', f));
	for (const f of ['seal.js', 'umpire-tlock.mjs']) {
		const sum = createHash('sha256').update(readFileSync(path.join(out, f))).digest('hex');
		console.log(`${sum}  ${path.relative(process.cwd(), path.join(out, f))}`);
	}
}
