// make web: bundles the verifier page (web/src/page/) into build/web/ (index.html, verify.css
// and one classic script, verify.js, that works from file://) and the node command line into
// build/web/umpire-verify.mjs, and the Markdown renderer of `umpire site`'s pages into
// build/web/site.js, then prints each bundle's SHA-256.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { buildTlock } from './build-tlock.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.resolve(process.argv[2] || path.join(here, '..', 'build', 'web'));
mkdirSync(out, { recursive: true });
const common = { absWorkingDir: here, bundle: true, minify: false, legalComments: 'eof', logLevel: 'warning', target: 'es2022', charset: 'utf8' };
// the workers that check beacon rounds (web/src/workers.js): bundled first, their text then
// defined into the bundle that starts them (__UMPIRE_BLS_WORKER__), so each bundle is one file
const workerText = async (entry, format, platform) => (await build({
	...common, entryPoints: [path.join(here, entry)], write: false, format, platform, legalComments: 'none',
})).outputFiles[0].text;
const pageWorker = await workerText('src/page/bls-worker.js', 'iife', 'browser');
const nodeWorker = await workerText('src/bls-worker-node.js', 'cjs', 'node');
await build({
	...common, entryPoints: [path.join(here, 'src/page/page.js')], outfile: path.join(out, 'verify.js'),
	format: 'iife', platform: 'browser', inject: [path.join(here, 'src/page/buffer-shim.js')],
	define: { global: 'globalThis', __UMPIRE_BLS_WORKER__: JSON.stringify(pageWorker) },
});
await build({
	// minified: markdown-it is most of the turn page's first view (parsed on its main thread);
	// the verifier (verify.js) stays readable for the players who audit it
	...common, entryPoints: [path.join(here, 'src/page/site.js')], outfile: path.join(out, 'site.js'),
	format: 'iife', platform: 'browser', minify: true,
});
await build({
	...common, entryPoints: [path.join(here, '..', 'tools', 'umpire-verify.mjs')], outfile: path.join(out, 'umpire-verify.mjs'),
	format: 'esm', platform: 'node', banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
	define: { __UMPIRE_BLS_WORKER__: JSON.stringify(nodeWorker) },
});
for (const f of ['index.html', 'verify.css']) copyFileSync(path.join(here, 'src/page', f), path.join(out, f));
for (const f of ['verify.js', 'site.js', 'umpire-verify.mjs']) {
	const sum = createHash('sha256').update(readFileSync(path.join(out, f))).digest('hex');
	console.log(`${sum}  ${path.relative(process.cwd(), path.join(out, f))}`);
}
await buildTlock(out, common); // time-locked orders (issue 36): umpire-tlock.mjs, seal.html, schemas/
