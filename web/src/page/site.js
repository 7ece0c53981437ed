// site.js — the Markdown of `umpire site`'s pages, rendered in the browser. Each report is in
// the page as escaped text (<pre class="md">, what a reader without JavaScript sees); this
// renders it with markdown-it, HTML off (a player's text in a report cannot become markup),
// links and images only to relative addresses inside the site (no request to another site),
// each relative address taken from the folder data-base names.
import MarkdownIt from 'markdown-it';

const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
const absolute = /^\s*([a-z][a-z0-9+.-]*:|\/\/|\/)/i;
md.validateLink = (url) => !absolute.test(url);

// Relative links into the report's folder; a table column's alignment as a class, not a
// style attribute (the page's Content-Security-Policy allows no inline style).
function rebase(tokens, base) {
	for (const t of tokens) {
		if (t.children) rebase(t.children, base);
		const style = t.attrGet && t.attrGet('style');
		if (style) {
			t.attrs = t.attrs.filter(([k]) => k !== 'style');
			const m = /text-align:(left|right|center)/.exec(style);
			if (m) t.attrJoin('class', 'align-' + m[1]);
		}
		for (const name of ['src', 'href']) {
			const v = t.attrGet && t.attrGet(name);
			if (v && base && !v.startsWith('#')) t.attrSet(name, base + v);
		}
	}
}

for (const pre of document.querySelectorAll('pre.md')) {
	const env = {};
	const tokens = md.parse(pre.textContent, env);
	rebase(tokens, pre.dataset.base || '');
	const div = document.createElement('div');
	div.className = 'md';
	div.innerHTML = md.renderer.render(tokens, md.options, env);
	pre.replaceWith(div);
}
// the moment the reports are rendered (bench/web.sh reads it: the page's full first view)
performance.mark('umpire-rendered');
