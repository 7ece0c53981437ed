/* site.c — `umpire site DIR OUT`: the campaign's static pages (index, one page per turn, the
 * browser verifier of `make web`, the JSON Schemas), readable from file:// as from any static
 * host, with no request to another site; the same campaign gives the same bytes. */
#include <dirent.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/site.h"
#include "core/error.h"
#include "core/escape.h"
#include "core/fair.h"
#include "core/file.h"
#include "core/layout.h"
#include "core/node.h"
#include "core/pbem.h"
#include "core/schedule.h"
#include "core/repo.h"
#include "mail/inbox.h"
#include "core/banned.h"

static const char site_help[] =
	"usage: umpire site DIR OUT\n\n"
	"Writes the static pages of the campaign in DIR (a clone will do) into OUT: index.html\n"
	"(scenario, sides, schedule, the commitment and Setup hash to compare with the\n"
	"announcement, the beacon, why the campaign is not provably fair where it is not, the\n"
	"result at game end), one page per turn turn-NNNN/index.html (the public reports with\n"
	"their maps, the dice table with each die's derivation as 'umpire audit DIR T:J' prints\n"
	"it, the close: round, signature, closed_at and its witnesses), the verifier page of\n"
	"'make web' in verify/ (a player drops his clone there) and the JSON Schemas in schemas/.\n"
	"Only what is committed is shown: a sealed campaign shows its public reports until the\n"
	"reveal, and every player's view after it. The pages need no server and make no request\n"
	"to another site (open OUT/index.html from disk, or serve OUT from any static host); the\n"
	"same campaign gives the same bytes. Files already in OUT are replaced, others left.\n"
	"With publish.pages set (campaign.yaml), each schema's $id is PAGES/schemas/NAME.\n"
	"Prints the SHA-256 of the verifier bundle copied (verify/verify.js): compare it with\n"
	"the release's (README, \"Checking a game with only a browser\").\n";

#define SITE_MAX_ASSET (16 * 1024 * 1024) /* the verifier bundle is about 1 MB */

static const char site_css[] =
	"body{font-family:sans-serif;max-width:60rem;margin:1rem auto;padding:0 1rem;line-height:1.4}\n"
	"table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:.2rem .4rem;"
	"vertical-align:top;text-align:left}\n"
	"pre{white-space:pre-wrap;overflow-wrap:anywhere}code,.hash{overflow-wrap:anywhere}\n"
	".md img{max-width:100%;border:1px solid #ddd}nav a{margin-right:1rem}\n"
	".unproven{background:#fff4d6;padding:.5rem}summary{cursor:pointer}\n"
	".align-right{text-align:right}.align-center{text-align:center}\n";

void site_text(struct buf *b, const char *s)
{
	escape_html(b, s);
}

void site_add(struct site *s, const char *path, const void *data, size_t len)
{
	file_list_add(&s->files, &s->n_files, path, data, len);
}

void site_page_begin(struct buf *b, const char *title, const char *root)
{
	buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		    "script-src 'self'; style-src 'self'; img-src 'self'\">\n<title>");
	site_text(b, title);
	buf_printf(b, "</title>\n<link rel=\"stylesheet\" href=\"%ssite.css\">\n</head>\n<body>\n",
		root);
}

void site_page_end(struct buf *b, const char *root)
{
	/* site.js (markdown-it, 200 KB) only where there is Markdown to render: a page without
	 * any (the index, the schemas) is whole without it, and shows sooner */
	if (strstr(buf_str(b), "<pre class=\"md\""))
		buf_printf(b, "<script src=\"%ssite.js\"></script>\n", root);
	buf_puts(b, "</body>\n</html>\n");
}

void site_markdown(struct buf *b, const char *md, size_t len, const char *base)
{
	struct buf t = BUF_INIT;

	buf_append(&t, md, len);
	buf_puts(b, "<pre class=\"md\" data-base=\"");
	site_text(b, base);
	buf_puts(b, "\">");
	site_text(b, buf_str(&t));
	buf_puts(b, "</pre>\n");
	buf_release(&t);
}

/* A row of the campaign's table: name, then value escaped (a hash in class "hash"). */
static void row(struct buf *b, const char *name, const char *value, int hash)
{
	buf_printf(b, "<tr><th>%s</th><td%s>", name, hash ? " class=\"hash\"" : "");
	site_text(b, value);
	buf_puts(b, "</td></tr>\n");
}

static void row_time(struct buf *b, const char *name, long long t)
{
	char when[32];
	pbem_format_utc(when, sizeof(when), t);
	row(b, name, when, 0);
}

static void row_seconds(struct buf *b, const char *name, long long v)
{
	char s[32];
	snprintf(s, sizeof(s), "%lld s", v);
	row(b, name, s, 0);
}

/* The beacon and the schedule rows of the campaign's table. */
static void beacon_rows(struct buf *b, const struct campaign *c)
{
	static const char *const entropy[] = { "none", "beacon", "players" };
	row(b, "entropy", c->entropy >= 0 && c->entropy < 3 ? entropy[c->entropy] : "?", 0);
	if (c->beacon) {
		row(b, "beacon", c->beacon, 0);
		if (c->beacon_chain)
			row(b, "beacon chain hash", c->beacon_chain, 1);
		if (c->beacon_key)
			row(b, "beacon public key", c->beacon_key, 1);
		row_time(b, "beacon genesis", c->beacon_genesis);
		row_seconds(b, "beacon period", c->beacon_period);
		row_seconds(b, "beacon delay", c->beacon_delay);
		if (c->beacon_demo)
			row(b, "demo beacon",
				"yes: its secret key is published with umpire, its rounds prove nothing",
				0);
	}
	const struct pbem_schedule *sc = &c->pbem.schedule;
	if (!sc->set) {
		row(b, "schedule", "none (no deadlines)", 0);
		return;
	}
	row_time(b, "first deadline", sc->first_deadline);
	row_seconds(b, "deadline every", sc->every);
	row_seconds(b, "grace", sc->grace);
}

/* seal/overrides.yaml: every schedule change this copy knows of, those the closes committed and
 * those still pending (.umpire/overrides.yaml), each with its turn, so the sealing page seals
 * to R(turn) as the overrides move it (docs/fairness.md, "Schedule changes after a player
 * sealed"); `overrides: []` when there is none (the page asks for it). */
static void seal_overrides(struct site *s)
{
	const struct pbem *p = &s->c->pbem;
	struct node *root = node_new_map();
	struct buf b = BUF_INIT;

	schedule_emit(root, p->overrides, p->n_overrides, 1);
	if (!p->n_overrides)
		buf_puts(&b, "overrides: []\n");
	if (!p->n_overrides || node_emit(root, &b) == 0)
		site_add(s, "seal/overrides.yaml", b.data, b.len);
	node_free(root);
	buf_release(&b);
}

/* The campaign's table: what the announcement and campaign.yaml say. */
static int campaign_table(struct site *s, struct buf *b)
{
	struct campaign *c = s->c;
	struct buf setup = BUF_INIT, players = BUF_INIT;
	char hex[65], tag[LAYOUT_TAG_MAX];
	uint8_t h[32];

	layout_tag(tag, 0);
	if (repo_read(c->repo, tag, LAYOUT_CAMPAIGN, &setup) != 0)
		return error_set(ERROR_INPUT, "%s has no %s", tag, LAYOUT_CAMPAIGN);
	buf_puts(b, "<table class=\"campaign\">\n");
	row(b, "campaign", c->id, 0);
	buf_printf(&players, "%s (revision %d)", c->rules_name, c->rules_revision);
	row(b, "rules", buf_str(&players), 0);
	buf_clear(&players);
	for (size_t i = 0; i < c->n_players; i++)
		buf_printf(&players, "%s%s", i ? ", " : "", c->players[i]);
	row(b, "sides", buf_str(&players), 0);
	row(b, "visibility", c->visibility == CAMPAIGN_SEALED ? "sealed" : "open", 0);
	hex_encode(hex, c->commitment, 32);
	row(b, "commitment", hex, 1);
	fair_sha256(h, setup.data ? setup.data : "", setup.len);
	hex_encode(hex, h, 32);
	row(b, "Setup hash (SHA-256 of campaign.yaml at turn-0000)", hex, 1);
	buf_clear(&players);
	buf_printf(&players, "%" PRIu32 " turns", c->chain_length);
	row(b, "key chain", buf_str(&players), 0);
	beacon_rows(b, c);
	buf_puts(b, "</table>\n");
	if (c->orders_timelocked) { /* issue 36: the sealing page reads campaign.yaml beside it */
		buf_puts(b,
			"<p>Orders are time-locked: <a href=\"seal/index.html\">seal your order "
			"file in this browser</a> (or <code>umpire seal</code>).</p>\n");
		site_add(s, "seal/campaign.yaml", setup.data ? setup.data : "", setup.len);
		seal_overrides(s);
	}
	buf_puts(b, "<details><summary>campaign.yaml (turn-0000)</summary><pre>");
	site_text(b, buf_str(&setup));
	buf_puts(b, "</pre></details>\n");
	buf_release(&setup);
	buf_release(&players);
	return 0;
}

/* Why the campaign is not provably fair, and the result once the game is over: the words of
 * `umpire status` and `umpire verify`. */
static int verdict_and_result(struct site *s, struct buf *b)
{
	struct buf why = BUF_INIT;
	char *over = NULL;
	int rc = 0;

	if (campaign_unproven(s->c, &why)) {
		buf_puts(b, "<p class=\"unproven\">not provably fair: ");
		site_text(b, buf_str(&why));
		buf_puts(b, "</p>\n");
	}
	buf_release(&why);
	int r = inbox_game_over(s->c, &over);
	if (r < 0)
		return -1;
	if (r > 0) {
		void *state = NULL;
		int last;
		buf_printf(b, "<h2>Result</h2>\n<p>The game is over (");
		site_text(b, over);
		buf_printf(b, ") after turn %d.</p>\n", s->last);
		if (campaign_load_state(s->c, "HEAD", &last, &state) < 0) {
			rc = -1;
		} else {
			campaign_victory(s->c, state, NULL, &why);
			buf_puts(b, "<p class=\"result\">result: ");
			site_text(b, buf_str(&why));
			buf_puts(b, "</p>\n");
			s->c->rules->state_free(state);
		}
		buf_release(&why);
	}
	free(over);
	return rc;
}

static int index_page(struct site *s, const struct buf *rows)
{
	struct buf b = BUF_INIT;
	const char *title = s->c->title && *s->c->title ? s->c->title : s->c->id;
	int rc;

	site_page_begin(&b, title, "");
	buf_puts(&b, "<h1>");
	site_text(&b, title);
	buf_puts(&b, "</h1>\n<nav><a href=\"verify/index.html\">Verify it in this browser</a>"
		     "<a href=\"schemas/\">JSON Schemas</a></nav>\n");
	if (s->sealed)
		buf_puts(&b,
			s->revealed ?
				"<p>A sealed campaign, revealed: every player's view is shown.</p>\n" :
				"<p>A sealed campaign: only the public reports are shown until the "
				"reveal.</p>\n");
	rc = campaign_table(s, &b);
	if (rc == 0)
		rc = verdict_and_result(s, &b);
	buf_puts(&b, "<h2>Turns</h2>\n<table class=\"turns\">\n<tr><th>turn</th><th>summary</th>"
		     "<th>dice</th></tr>\n");
	buf_append(&b, rows->data ? rows->data : "", rows->len);
	buf_puts(&b, "</table>\n");
	site_page_end(&b, "");
	if (rc == 0)
		site_add(s, "index.html", b.data, b.len);
	buf_release(&b);
	return rc;
}

/* Where a folder of umpire's shared files is, found from the running binary: installed
 * (PREFIX/bin/umpire, PREFIX/share/umpire/NAME) or in its build tree (build/VARIANT/umpire:
 * build/NAME, or the source tree's NAME). NULL when none is there. Caller frees. */
static char *share_dir(const char *name, const char *in_tree)
{
	char *rel[2] = { xasprintf("../share/umpire/%s", name), xasprintf("%s/%s", in_tree, name) };
	char *dir = file_beside_binary((const char *const *)rel, 2, FILE_KIND_DIR, NULL);

	free(rel[0]);
	free(rel[1]);
	return dir;
}

/* dir/name into the site as to; its SHA-256 into sum when not NULL. */
static int copy_asset(struct site *s, const char *dir, const char *name, const char *to,
	char sum[65])
{
	struct buf b = BUF_INIT;
	char *path = xasprintf("%s/%s", dir, name);
	int rc = file_read(path, SITE_MAX_ASSET, &b);

	if (rc < 0) {
		error_prefix("the verifier page is not complete ('make web', then 'make install')");
	} else {
		site_add(s, to, b.data ? b.data : "", b.len);
		if (sum) {
			uint8_t h[32];
			fair_sha256(h, b.data ? b.data : "", b.len);
			hex_encode(sum, h, 32);
		}
	}
	buf_release(&b);
	free(path);
	return rc;
}

/* The verifier page (verify/) and the Markdown renderer (site.js) of `make web`. */
static int web_assets(struct site *s, char sum[65])
{
	char *web = share_dir("web", "..");
	int rc;

	if (!web)
		return error_set(ERROR_MISSING,
			"the verifier page is not installed: run 'make web' (and 'make install')");
	rc = copy_asset(s, web, "index.html", "verify/index.html", NULL);
	if (rc == 0)
		rc = copy_asset(s, web, "verify.css", "verify/verify.css", NULL);
	if (rc == 0)
		rc = copy_asset(s, web, "verify.js", "verify/verify.js", sum);
	if (rc == 0)
		rc = copy_asset(s, web, "site.js", "site.js", NULL);
	if (rc == 0 && s->c->orders_timelocked) { /* the sealing page (issue 36 item 3) */
		rc = copy_asset(s, web, "seal.html", "seal/index.html", NULL);
		if (rc == 0)
			rc = copy_asset(s, web, "seal.js", "seal/seal.js", NULL);
		if (rc == 0)
			rc = copy_asset(s, web, "verify.css", "seal/verify.css", NULL);
	}
	free(web);
	site_add(s, "site.css", site_css, sizeof(site_css) - 1);
	site_add(s, ".nojekyll", "", 0); /* GitHub Pages: serve the files as they are */
	return rc;
}

/* schemas/NAME.json of umpire, its $id PAGES/schemas/NAME when pages is set. */
static void add_schema(struct site *s, const char *name, const struct buf *b, const char *pages,
	struct buf *list)
{
	static const char id[] = "\"$id\": \"file:///usr/local/share/umpire/schemas/";
	const char *at = b->data ? strstr(buf_str(b), id) : NULL;
	struct buf out = BUF_INIT;
	char *path = xasprintf("schemas/%s", name);

	if (pages && at) {
		size_t k = strlen(pages);
		buf_append(&out, b->data, (size_t)(at - b->data));
		buf_printf(&out, "\"$id\": \"%.*s/schemas/", (int)(pages[k - 1] == '/' ? k - 1 : k),
			pages);
		buf_puts(&out, at + sizeof(id) - 1);
	} else {
		buf_append(&out, b->data ? b->data : "", b->len);
	}
	site_add(s, path, out.data ? out.data : "", out.len);
	buf_puts(list, "<li><a href=\"");
	site_text(list, name);
	buf_puts(list, "\">");
	site_text(list, name);
	buf_puts(list, "</a></li>\n");
	free(path);
	buf_release(&out);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every schemas/NAME.json, in byte order of name, and schemas/index.html listing them. */
static int schemas(struct site *s)
{
	char *dir = share_dir("schemas", "../..");
	DIR *d = dir ? opendir(dir) : NULL;
	struct dirent *e;
	char **names = NULL;
	size_t n = 0;
	int rc = 0;

	if (!d) {
		free(dir);
		return error_set(ERROR_MISSING, "umpire's JSON Schemas are not installed");
	}
	while ((e = readdir(d))) {
		size_t k = strlen(e->d_name);
		if (k > 5 && strcmp(e->d_name + k - 5, ".json") == 0 && e->d_name[0] != '.') {
			names = xrealloc(names, (n + 1) * sizeof(*names));
			names[n++] = xstrdup(e->d_name);
		}
	}
	closedir(d);
	qsort(names, n, sizeof(*names), name_cmp);
	struct buf list = BUF_INIT, page = BUF_INIT, b = BUF_INIT;
	for (size_t i = 0; i < n && rc == 0; i++) {
		char *path = xasprintf("%s/%s", dir, names[i]);
		buf_clear(&b);
		rc = file_read(path, SITE_MAX_ASSET, &b);
		if (rc == 0)
			add_schema(s, names[i], &b, s->c->pbem.publish.pages, &list);
		free(path);
	}
	site_page_begin(&page, "JSON Schemas", "../");
	buf_puts(&page,
		"<h1>JSON Schemas</h1>\n<p><a href=\"../index.html\">the campaign</a></p>\n<ul>\n");
	buf_append(&page, list.data ? list.data : "", list.len);
	buf_puts(&page, "</ul>\n");
	site_page_end(&page, "../");
	site_add(s, "schemas/index.html", page.data, page.len);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(dir);
	buf_release(&list);
	buf_release(&page);
	buf_release(&b);
	return rc;
}

/* Every file of the site under out, folders made as needed. */
static int write_site(const struct site *s, const char *out)
{
	for (size_t i = 0; i < s->n_files; i++) {
		const struct file *f = &s->files[i];
		char *path = xasprintf("%s/%s", out, f->path);
		char *slash = strrchr(path, '/');
		*slash = '\0';
		int rc = file_mkdir_p(path, 0755);
		if (rc == 0)
			rc = file_write_durable(path, slash + 1, f->data, f->len);
		free(path);
		if (rc < 0)
			return -1;
	}
	return 0;
}

/* The last turn tagged: turn-0000, turn-0001 ... each there. */
static int last_turn(struct campaign *c)
{
	char tag[LAYOUT_TAG_MAX];
	int t = 0;

	for (;; t++) {
		layout_tag(tag, t + 1);
		if (!repo_has(c->repo, tag))
			return t;
	}
}

int site_build(struct site *s, char sum[65])
{
	struct buf rows = BUF_INIT;
	int rc = 0;

	s->last = last_turn(s->c);
	s->sealed = s->c->visibility == CAMPAIGN_SEALED;
	s->revealed = s->sealed && repo_has(s->c->repo, LAYOUT_REVEAL_TAG);
	for (int t = 0; t <= s->last && rc == 0; t++)
		rc = site_turn(s, t, &rows);
	if (rc == 0)
		rc = index_page(s, &rows);
	if (rc == 0)
		rc = web_assets(s, sum);
	if (rc == 0)
		rc = schemas(s);
	buf_release(&rows);
	return rc;
}

int cmd_site(int argc, char **argv)
{
	int rc = cmd_options_help_only(argc, argv, site_help);
	if (rc != EXIT_OK)
		return rc < 0 ? EXIT_OK : rc;
	static const char *const operands[] = { "DIR (the campaign folder, or a clone)",
		"OUT (the folder the pages go to)" };
	if (cmd_operands("site", argc - optind, argv + optind, operands, 2, 2) != EXIT_OK)
		return EXIT_USAGE;
	struct site s = { 0 };
	char sum[65] = "";
	if (campaign_open(&s.c, argv[optind], 0) < 0)
		return cmd_error("umpire");
	rc = site_build(&s, sum);
	if (rc == 0)
		rc = write_site(&s, argv[optind + 1]);
	if (rc < 0) {
		rc = cmd_error("umpire site");
	} else {
		printf("%s  verify/verify.js\n", sum);
		fflush(stdout); /* before the line on stderr, where both go to one file */
		fprintf(stderr, "umpire: %zu files of campaign %s's pages (%d turns) in %s\n",
			s.n_files, s.c->id, s.last, argv[optind + 1]);
		rc = EXIT_OK;
	}
	file_list_free(s.files, s.n_files);
	campaign_close(s.c);
	return rc;
}
