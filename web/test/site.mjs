// node web/test/site.mjs OUT PAGE...: opens each PAGE (a path under OUT, the folder of
// `umpire site`) from file:// in Debian's Chromium (headless, a fresh profile, puppeteer-core),
// opens the first die's derivation, and prints one JSON object per page: when it was first
// painted and loaded (its own clock), console and page errors, every request outside OUT (aborted and logged), the reports rendered from Markdown,
// the maps shown (images loaded), the dice table's rows and the derivation shown once opened.
import puppeteer from 'puppeteer-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [root, ...pages] = process.argv.slice(2);
const base = pathToFileURL(path.resolve(root)).href + '/';
const profile = mkdtempSync(path.join(tmpdir(), 'umpire-chromium-'));
const browser = await puppeteer.launch({
	executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
	headless: true,
	userDataDir: profile,
	args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
		'--disable-sync', '--no-first-run'],
});
const results = [];
try {
	for (const p of pages) {
		const r = { page: p, console_errors: [], page_errors: [], outside_requests: [], failed: [] };
		const page = await browser.newPage();
		page.on('console', (m) => { if (m.type() === 'error') r.console_errors.push(m.text()); });
		page.on('pageerror', (e) => r.page_errors.push(String(e)));
		page.on('requestfailed', (q) => { if (q.url().startsWith(base)) r.failed.push(q.url()); });
		await page.setRequestInterception(true);
		page.on('request', (q) => {
			if (q.url().startsWith(base)) q.continue();
			else { r.outside_requests.push(q.url()); q.abort(); }
		});
		const t0 = Date.now();
		await page.goto(pathToFileURL(path.resolve(root, p)).href, { waitUntil: 'load' });
		r.load_ms = Date.now() - t0;
		// the first view: when the browser first painted the page's content, and when it had
		// read the whole document, from the start of the navigation (the page's own clock)
		Object.assign(r, await page.evaluate(async () => {
			// the first paint's entry comes after the frame is presented: waited for (2 s at most)
			await new Promise((ok) => {
				if (!document.body.textContent.trim()) return ok(); // an empty page paints no content
				new PerformanceObserver((l, o) => { o.disconnect(); ok(); }).observe({ type: 'paint', buffered: true });
				setTimeout(ok, 2000);
			});
			const nav = performance.getEntriesByType('navigation')[0];
			const fcp = performance.getEntriesByName('first-contentful-paint')[0];
			const done = performance.getEntriesByName('umpire-rendered')[0]; // site.js rendered the reports
			return { first_paint_ms: fcp ? Math.round(fcp.startTime) : null, dom_ms: nav ? Math.round(nav.domContentLoadedEventEnd) : null,
				rendered_ms: done ? Math.round(done.startTime) : null, load_event_ms: nav ? Math.round(nav.loadEventEnd) : null };
		}));
		Object.assign(r, await page.evaluate(() => ({
			markdown_left: document.querySelectorAll('pre.md').length,
			rendered: document.querySelectorAll('div.md').length,
			images: [...document.querySelectorAll('div.md img')].map((i) => ({ src: i.getAttribute('src'), width: i.naturalWidth })),
			dice_rows: document.querySelectorAll('table.dice tr[id^="die-"]').length,
			turn_rows: document.querySelectorAll('table.turns tr').length - 1,
			text: document.body.innerText,
		})));
		if (r.dice_rows > 0) {
			await page.click('table.dice tr[id^="die-"] summary');
			r.derivation = await page.evaluate(() => document.querySelector('table.dice tr[id^="die-"] details pre').innerText);
			r.derivation_shown = await page.evaluate(() => document.querySelector('table.dice tr[id^="die-"] details').open &&
				document.querySelector('table.dice tr[id^="die-"] details pre').offsetHeight > 0);
		}
		results.push(r);
		await page.close();
	}
} finally {
	await browser.close();
	rmSync(profile, { recursive: true, force: true });
}
process.stdout.write(JSON.stringify(results, null, 1) + '\n');
