// make web: bundles the verifier page (web/src/page/) into build/web/ (index.html, verify.css
// and one classic script, verify.js, that works from file://) and the node command line into
// build/web/umpire-verify.mjs and umpire-tlock.mjs (issue 36), then prints each bundle's SHA-256.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.resolve(process.argv[2] || path.join(here, '..', 'build', 'web'));
mkdirSync(out, { recursive: true });
const common = { absWorkingDir: here, bundle: true, minify: false, legalComments: 'eof', logLevel: 'warning', target: 'es2022', charset: 'utf8' };
await build({
	...common, entryPoints: [path.join(here, 'src/page/page.js')], outfile: path.join(out, 'verify.js'),
	format: 'iife', platform: 'browser', inject: [path.join(here, 'src/page/buffer-shim.js')],
	define: { global: 'globalThis' },
});
await build({
	...common, entryPoints: [path.join(here, '..', 'tools', 'umpire-verify.mjs')], outfile: path.join(out, 'umpire-verify.mjs'),
	format: 'esm', platform: 'node', banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
await build({
	...common, entryPoints: [path.join(here, '..', 'tools', 'umpire-tlock.mjs')], outfile: path.join(out, 'umpire-tlock.mjs'),
	format: 'esm', platform: 'node', banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
for (const f of ['index.html', 'verify.css']) copyFileSync(path.join(here, 'src/page', f), path.join(out, f));
for (const f of ['verify.js', 'umpire-verify.mjs', 'umpire-tlock.mjs']) {
	const sum = createHash('sha256').update(readFileSync(path.join(out, f))).digest('hex');
	console.log(`${sum}  ${path.relative(process.cwd(), path.join(out, f))}`);
}
