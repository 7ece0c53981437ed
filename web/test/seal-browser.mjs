// node web/test/seal-browser.mjs SEAL.html|URL CAMPAIGN.yaml|- ORDERS OUT
// Opens the sealing page from file:// (or the http:// URL it is served at) in Debian's Chromium
// (headless, a fresh profile, through puppeteer-core), gives it campaign.yaml (- : the page
// reads the one served beside it) and the order file as a player picks them, waits for
// the page's answer, writes the file it offers to download to OUT (when it sealed), and prints
// one JSON object: the state (sealed or refused), the text shown, the lines, the download's
// name and round, console and page errors, and every request the page made outside its own
// folder (each aborted).
import puppeteer from 'puppeteer-core';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const served = /^https?:/.test(args[0]);
const [page_, campaign, orders, out] = args.map((a, i) => ((i === 0 && served) || (i === 1 && a === '-') ? a : path.resolve(a)));
const pageUrl = served ? page_ : pathToFileURL(page_).href;
const base = pageUrl.replace(/[^/]*$/, '');
const profile = mkdtempSync(path.join(tmpdir(), 'umpire-chromium-'));
const browser = await puppeteer.launch({
	executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
	headless: true,
	userDataDir: profile,
	protocolTimeout: 600000,
	args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
		'--disable-sync', '--no-first-run', '--no-proxy-server'],
});
const result = { state: null, text: null, lines: [], download: null, round: null, console_errors: [], outside_requests: [], page_errors: [] };
try {
	const page = await browser.newPage();
	page.on('console', (m) => { if (m.type() === 'error') result.console_errors.push(m.text()); });
	page.on('pageerror', (e) => result.page_errors.push(String(e)));
	await page.setRequestInterception(true);
	page.on('request', (r) => {
		const u = r.url();
		if (u.startsWith(base) || u.startsWith('blob:')) r.continue();
		else { result.outside_requests.push(u); r.abort(); }
	});
	await page.goto(pageUrl, { waitUntil: 'load' });
	if (campaign !== '-') await (await page.$('#us-campaign')).uploadFile(campaign);
	await page.waitForFunction(() => document.querySelector('#us-campaign-name').textContent !== '' || document.querySelector('#us-result').dataset.state, { timeout: 60000 });
	await (await page.$('#us-orders')).uploadFile(orders);
	await page.waitForFunction(() => document.querySelector('#us-result').dataset.state !== undefined, { timeout: 600000, polling: 200 });
	Object.assign(result, await page.evaluate(async () => {
		const a = document.querySelector('#us-download');
		const r = document.querySelector('#us-result');
		return {
			state: r.dataset.state, text: r.textContent,
			lines: [...document.querySelectorAll('#us-lines div')].map((d) => d.textContent),
			download: a.hidden ? null : a.download, round: a.hidden ? null : a.dataset.round,
			armored: a.hidden ? null : await (await fetch(a.href)).text(),
		};
	}));
	if (result.armored !== null) writeFileSync(out, result.armored);
	delete result.armored;
} finally {
	await browser.close();
	rmSync(profile, { recursive: true, force: true });
}
process.stdout.write(JSON.stringify(result, null, 1) + '\n');
