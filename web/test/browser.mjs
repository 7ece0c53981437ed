// node web/test/browser.mjs PAGE.html [--bundle FILE | --folder DIR] [--receipt FILE ...]
//      [--trust-tsa CERT ...] [--view DIR]
// Opens the verifier page from file:// in Debian's Chromium (headless, a fresh profile,
// through puppeteer-core), gives it the clone, waits for the verdict, and prints one JSON
// object: the verdict shown, its exit, the lines, console errors, and every request the page
// made outside its own folder (each aborted, and logged by request interception), and what
// the verification took: verify_ms (wall, from the clone given to the verdict shown) and
// verify_cpu_ms (the CPU time of all the browser's processes meanwhile, workers included).
import puppeteer from 'puppeteer-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const page_ = path.resolve(args[0]);
const opt = (k) => { const i = args.indexOf(k); return i < 0 ? null : args[i + 1]; };
const many = (k) => args.flatMap((a, i) => (a === k ? [path.resolve(args[i + 1])] : []));
const receipts = many('--receipt'), certs = many('--trust-tsa');
const base = pathToFileURL(path.dirname(page_)).href + '/';
const profile = mkdtempSync(path.join(tmpdir(), 'umpire-chromium-'));
const browser = await puppeteer.launch({
	executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
	headless: true,
	userDataDir: profile,
	protocolTimeout: 600000,
	args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
		'--disable-sync', '--no-first-run'],
});
const result = { verdict: null, exit: null, lines: [], console_errors: [], outside_requests: [], page_errors: [] };
try {
	const page = await browser.newPage();
	page.on('console', (m) => { if (m.type() === 'error') result.console_errors.push(m.text()); });
	page.on('pageerror', (e) => result.page_errors.push(String(e)));
	await page.setRequestInterception(true);
	page.on('request', (r) => {
		const u = r.url();
		if (u.startsWith(base)) r.continue();
		else { result.outside_requests.push(u); r.abort(); }
	});
	await page.goto(pathToFileURL(page_).href, { waitUntil: 'load' });
	if (receipts.length) {
		await (await page.$('#uv-receipts')).uploadFile(...receipts);
		await page.waitForFunction((n) => document.querySelector('#uv-receipt-count').textContent.startsWith(String(n)), {}, receipts.length);
	}
	if (certs.length) {
		await (await page.$('#uv-tsa')).uploadFile(...certs);
		await page.waitForFunction((n) => document.querySelector('#uv-tsa-count').textContent.startsWith(String(n)), {}, certs.length);
	}
	if (opt('--view')) {
		await (await page.$('#uv-view')).uploadFile(path.resolve(opt('--view')));
		await page.waitForFunction(() => document.querySelector('#uv-view-count').textContent !== '');
	}
	// the verification's cost: wall from the clone given to the verdict shown, and the CPU time
	// of every process of the browser (the page's, its workers', the browser's) meanwhile
	const cdp = await browser.target().createCDPSession();
	const cpu = async () => {
		try {
			return (await cdp.send('SystemInfo.getProcessInfo')).processInfo.reduce((a, p) => a + p.cpuTime, 0);
		} catch {
			return null;
		}
	};
	const cpu0 = await cpu(), t0 = Date.now();
	if (opt('--bundle')) {
		await (await page.$('#uv-bundle')).uploadFile(path.resolve(opt('--bundle')));
	} else if (opt('--folder')) {
		// a folder input (webkitdirectory) takes the directory itself, as a player picks it
		await (await page.$('#uv-folder')).uploadFile(path.resolve(opt('--folder')));
	}
	await page.waitForFunction(() => document.querySelector('#uv-verdict').dataset.exit !== undefined, { timeout: 600000, polling: 50 });
	result.verify_ms = Date.now() - t0;
	const cpu1 = await cpu();
	result.verify_cpu_ms = cpu0 === null || cpu1 === null ? null : Math.round((cpu1 - cpu0) * 1000);
	Object.assign(result, await page.evaluate(() => ({
		verdict: document.querySelector('#uv-verdict').textContent,
		exit: Number(document.querySelector('#uv-verdict').dataset.exit),
		lines: [...document.querySelectorAll('#uv-lines div')].map((d) => d.textContent),
		says_no_rules: document.body.textContent.includes('does not re-run the rules') && document.body.textContent.includes('umpire verify'),
	})));
} finally {
	await browser.close();
	rmSync(profile, { recursive: true, force: true });
}
process.stdout.write(JSON.stringify(result, null, 1) + '\n');
