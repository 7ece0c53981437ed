/* site_turn.c — one turn's page of `umpire site` (site.h): the reports and maps the history
 * makes public (a sealed campaign's players' views only after the reveal, re-rendered from
 * it), the turn's derivation and dice table, each die explained as `umpire audit` does, and
 * the close with its witnesses. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/site.h"
#include "core/audit.h"
#include "core/close.h"
#include "core/error.h"
#include "core/fair.h"
#include "core/layout.h"
#include "core/pbem.h"
#include "core/repo.h"
#include "core/turn.h"
#include "core/banned.h"

/* One report: a heading, the Markdown, a plain link to its map (for a reader without JS). */
static void report(struct buf *b, const char *who, const struct buf *md, const char *base,
	const char *map)
{
	buf_puts(b, "<section class=\"report\">\n<h3>");
	site_text(b, who);
	buf_puts(b, "</h3>\n");
	site_markdown(b, md->data ? md->data : "", md->len, base);
	if (map) {
		buf_puts(b, "<p class=\"map-link\"><a href=\"");
		site_text(b, map);
		buf_puts(b, "\">the map (SVG)</a></p>\n");
	}
	buf_puts(b, "</section>\n");
}

/* A big open turn's shared report reports/turn-NNNN.md and map (docs/formats.md "Shared
 * reports"), put where the players' reports link them (../turn-NNNN.md, .svg from the turn's
 * page). *shared_map: the map's address from the turn's page, NULL when there is none. */
static void shared_report(struct site *s, int t, struct buf *b, char **shared_map)
{
	char tag[LAYOUT_TAG_MAX], path[LAYOUT_PATH_MAX];
	struct buf md = BUF_INIT, map = BUF_INIT;

	*shared_map = NULL;
	layout_tag(tag, t);
	layout_public_report_path(path, t);
	if (repo_read(s->c->repo, tag, path, &md) != 0) {
		error_clear();
		buf_release(&md);
		return; /* every report whole */
	}
	char *at = xasprintf("%s.md", tag);
	site_add(s, at, md.data ? md.data : "", md.len);
	free(at);
	layout_public_map_path(path, t);
	if (repo_read(s->c->repo, tag, path, &map) == 0) {
		at = xasprintf("%s.svg", tag);
		site_add(s, at, map.data ? map.data : "", map.len);
		free(at);
		*shared_map = xasprintf("../%s.svg", tag);
	}
	error_clear();
	report(b, "the turn's shared report", &md, "../", *shared_map);
	buf_release(&md);
	buf_release(&map);
}

/* The committed reports of an open turn, reports/turn-NNNN/PLAYER.md, with their maps. */
static int open_reports(struct site *s, int t, struct buf *b)
{
	char tag[LAYOUT_TAG_MAX], dir[LAYOUT_PATH_MAX];
	char **names = NULL, *shared_map = NULL;
	struct buf md = BUF_INIT, map = BUF_INIT;
	int rc;

	layout_tag(tag, t);
	layout_reports_dir(dir, t);
	shared_report(s, t, b, &shared_map);
	rc = repo_list(s->c->repo, tag, dir, &names);
	for (size_t i = 0; rc == 0 && names && names[i]; i++) {
		size_t k = strlen(names[i]);
		if (k < 4 || strcmp(names[i] + k - 3, ".md") != 0)
			continue;
		char *path = xasprintf("%s/%s", dir, names[i]);
		char *svg = xasprintf("%.*s.svg", (int)(k - 3), names[i]);
		char *svgpath = xasprintf("%s/%s", dir, svg);
		char *player = xasprintf("%.*s", (int)(k - 3), names[i]);
		buf_clear(&md);
		buf_clear(&map);
		rc = repo_read(s->c->repo, tag, path, &md) == 0 ? 0 : -1;
		int has_map = rc == 0 && repo_read(s->c->repo, tag, svgpath, &map) == 0;
		if (has_map) {
			char *to = xasprintf("%s/%s", tag, svg);
			site_add(s, to, map.data ? map.data : "", map.len);
			free(to);
		}
		if (rc == 0)
			report(b, player, &md, "", has_map ? svg : shared_map);
		else
			error_set(ERROR_INPUT, "%s: %s cannot be read", tag, path);
		free(path);
		free(svg);
		free(svgpath);
		free(player);
	}
	repo_names_free(names);
	free(shared_map);
	buf_release(&md);
	buf_release(&map);
	return rc < 0 ? -1 : 0;
}

/* A sealed turn's public report reports/turn-NNNN.md and map. */
static int public_report(struct site *s, int t, struct buf *b)
{
	char tag[LAYOUT_TAG_MAX], path[LAYOUT_PATH_MAX], svg[LAYOUT_PATH_MAX];
	struct buf md = BUF_INIT, map = BUF_INIT;

	layout_tag(tag, t);
	layout_public_report_path(path, t);
	layout_public_map_path(svg, t);
	if (repo_read(s->c->repo, tag, path, &md) != 0) {
		buf_release(&md);
		return 0; /* the setup of a sealed campaign commits no public report */
	}
	int has_map = repo_read(s->c->repo, tag, svg, &map) == 0;
	const char *name = strrchr(svg, '/') + 1;
	if (has_map) {
		char *to = xasprintf("%s/%s", tag, name);
		site_add(s, to, map.data ? map.data : "", map.len);
		free(to);
	}
	report(b, "the public report", &md, "", has_map ? name : NULL);
	buf_release(&md);
	buf_release(&map);
	return 0;
}

/* After the reveal: every player's report and map of turn t, re-rendered by re-resolving the
 * turn from the revealed state and orders (as `umpire verify` does). */
static int revealed_reports(struct site *s, int t, const struct journal_record *ex, struct buf *b)
{
	struct campaign *c = s->c;
	struct audit_turn at;
	char tag[LAYOUT_TAG_MAX];
	void *state = NULL;
	int last, rc = -1;

	memset(&at, 0, sizeof(at));
	layout_tag(tag, t);
	if (turn_load_whole_state(c, t - 1, &last, &state) < 0 ||
		audit_resolve(&at, c, state, tag, ex, AUDIT_EXPORT) < 0) {
		error_prefix("turn %d cannot be re-resolved from the reveal", t);
		goto done;
	}
	for (size_t i = 0; i < at.t.out.n_reports && i < c->n_players; i++) {
		const char *p = c->players[i];
		char *base = xasprintf("%s/", p);
		int has_map = at.t.out.maps != NULL;
		if (has_map) {
			char *to = xasprintf("%s/%s/" LAYOUT_OUTBOX_MAP, tag, p);
			site_add(s, to, at.t.out.maps[i].data ? at.t.out.maps[i].data : "",
				at.t.out.maps[i].len);
			free(to);
		}
		char *map = xasprintf("%s" LAYOUT_OUTBOX_MAP, base);
		report(b, p, &at.t.out.reports[i], base, has_map ? map : NULL);
		free(map);
		free(base);
	}
	rc = 0;
done:
	audit_turn_release(&at);
	if (state)
		c->rules->state_free(state);
	return rc;
}

static void hash_line(struct buf *b, const char *name, const uint8_t h[FAIR_HASH_BYTES])
{
	char hex[65];
	hex_encode(hex, h, FAIR_HASH_BYTES);
	buf_printf(b, "%-8s %s\n", name, hex);
}

/* The turn's derivation (docs/fairness.md): key, orders digest, beacon, seed, checked again
 * here (audit_fairness: the key chains to the commitment, every die comes from the seed). */
static void derivation(struct site *s, const struct journal_record *ex, struct buf *b)
{
	char path[LAYOUT_PATH_MAX];
	struct buf t = BUF_INIT;

	layout_export_path(path, ex->turn);
	hash_line(&t, "key", ex->key);
	hash_line(&t, "digest", ex->orders_digest);
	if (ex->beacon_value) {
		buf_printf(&t, "round    %s\nvalue    %s\n",
			ex->beacon_round ? ex->beacon_round : "", ex->beacon_value);
		if (ex->beacon_signature)
			buf_printf(&t, "signed   %s\n", ex->beacon_signature);
	}
	hash_line(&t, "beacon", ex->beacon);
	hash_line(&t, "seed", ex->seed);
	int ok = audit_fairness(s->c, ex, path) == 0;
	buf_printf(&t, "check    %s\n",
		ok ? "ok: the key chains to the commitment, every die is the seed's" :
		     error_last()->message);
	buf_puts(b, "<h2>Derivation</h2>\n<pre class=\"derivation\">");
	site_text(b, buf_str(&t));
	buf_puts(b, "</pre>\n");
	buf_release(&t);
}

/* The dice table: purpose, sides, value, and each die's derivation in a <details>. */
static void dice_table(const struct journal_record *ex, struct buf *b)
{
	struct buf t = BUF_INIT;

	buf_printf(b, "<h2>Dice</h2>\n<table class=\"dice\">\n<tr><th>j</th><th>for</th>"
		      "<th>sides</th><th>value</th><th>derivation</th></tr>\n");
	for (size_t i = 0; i < ex->n_dice; i++) {
		const struct die_record *d = &ex->dice[i];
		buf_clear(&t);
		if (d->sides >= 2)
			audit_die_text(&t, ex->seed, d->index, d->sides, ex->turn);
		buf_printf(b, "<tr id=\"die-%" PRIu64 "\"><td>%" PRIu64 "</td><td>", d->index,
			d->index);
		site_text(b, d->purpose);
		buf_printf(b,
			"</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td><details><summary>"
			"step by step</summary><pre>",
			d->sides, d->value);
		site_text(b, buf_str(&t));
		buf_puts(b, "</pre></details></td></tr>\n");
	}
	buf_puts(b, "</table>\n");
	buf_release(&t);
}

/* The close: round, closed_at, digest; its witnesses (receipts, time-stamp tokens). */
static int close_section(struct site *s, const struct journal_record *ex, struct buf *b)
{
	struct close_record r;
	char commit[41], when[32], tag[LAYOUT_TAG_MAX], prefix[LAYOUT_PATH_MAX];
	char **names = NULL;
	int t = ex->turn;
	struct buf txt = BUF_INIT;

	memset(&r, 0, sizeof(r));
	int rc = turn_read_close(s->c, t, &r, commit, NULL);
	buf_puts(b, "<h2>Close</h2>\n");
	if (rc == ERROR_NOTFOUND) {
		buf_puts(b,
			"<p>No separate close: the turn was closed and resolved in one step.</p>\n");
		return 0;
	}
	if (rc < 0)
		return -1;
	pbem_format_utc(when, sizeof(when), r.closed_at);
	buf_printf(&txt, "commit     %s\nclosed_at  %s (%lld)\n", commit, when, r.closed_at);
	if (r.round > 0) {
		pbem_format_utc(when, sizeof(when), r.round_at);
		buf_printf(&txt, "round      %lld, out at %s\n", r.round, when);
	}
	if (ex->beacon_signature)
		buf_printf(&txt, "signature  %s\n", ex->beacon_signature);
	size_t files = 0;
	for (size_t i = 0; i < r.n_orders; i++)
		files += strcmp(r.orders[i].player, "umpire") != 0;
	buf_printf(&txt, "orders     %zu file%s closed, %zu player%s missing\n", files,
		files == 1 ? "" : "s", r.n_missing, r.n_missing == 1 ? "" : "s");
	buf_printf(&txt,
		"receipts   %zu, one mailed to each player at the close, due or not (each player keeps his: drop it in the verifier)\n",
		s->c->n_players);
	layout_close_tag(tag, t);
	layout_close_path(prefix, t);
	prefix[strlen(prefix) - 5] = '\0'; /* journal/turn-NNNN.close */
	const char *base = strrchr(prefix, '/') + 1;
	size_t tokens = 0;
	if (repo_list(s->c->repo, tag, "journal", &names) == 0) {
		for (size_t i = 0; names[i]; i++) {
			size_t k = strlen(names[i]), p = strlen(base);
			if (k > p + 5 && strncmp(names[i], base, p) == 0 && names[i][p] == '.' &&
				strcmp(names[i] + k - 4, ".tsr") == 0) {
				buf_printf(&txt, "time stamp journal/%s\n", names[i]);
				tokens++;
			}
		}
	}
	if (!tokens)
		buf_puts(&txt, "time stamp none (no time-stamp authority asked at the close)\n");
	buf_puts(b, "<pre class=\"close\">");
	site_text(b, buf_str(&txt));
	buf_puts(b, "</pre>\n");
	repo_names_free(names);
	close_release(&r);
	buf_release(&txt);
	return 0;
}

static int reports(struct site *s, int t, const struct journal_record *ex, struct buf *b)
{
	buf_puts(b, "<h2>Reports</h2>\n");
	if (!s->sealed)
		return open_reports(s, t, b);
	if (public_report(s, t, b) < 0)
		return -1;
	if (s->revealed && ex)
		return revealed_reports(s, t, ex, b);
	if (!s->revealed)
		buf_puts(b, "<p>Each player's own report stays private until the reveal.</p>\n");
	return 0;
}

int site_turn(struct site *s, int t, struct buf *rows)
{
	struct journal_record *ex = NULL;
	struct buf b = BUF_INIT, title = BUF_INIT;
	struct diag d;
	char tag[LAYOUT_TAG_MAX], prev[LAYOUT_TAG_MAX], next[LAYOUT_TAG_MAX];
	int rc = 0;

	diag_init(&d);
	layout_tag(tag, t);
	layout_tag(prev, t - 1);
	layout_tag(next, t + 1);
	if (t > 0 && audit_read_export(&ex, s->c, t, NULL, &d) != 0) {
		error_set(ERROR_INPUT, "turn %d: its journal export cannot be read%s%s", t,
			diag_count(&d) ? ": " : "", diag_count(&d) ? d.v[0].message : "");
		diag_release(&d);
		return -1;
	}
	const char *summary = ex ? ex->summary : "Setup";
	buf_printf(&title, "%s, turn %d", s->c->id, t);
	site_page_begin(&b, buf_str(&title), "../");
	buf_puts(&b, "<nav><a href=\"../index.html\">the campaign</a>");
	if (t > 0)
		buf_printf(&b, "<a href=\"../%s/index.html\">turn %d</a>", prev, t - 1);
	if (t < s->last)
		buf_printf(&b, "<a href=\"../%s/index.html\">turn %d</a>", next, t + 1);
	buf_puts(&b, "<a href=\"../verify/index.html\">verify</a></nav>\n<h1>");
	site_text(&b, buf_str(&title));
	buf_puts(&b, "</h1>\n<p class=\"summary\">");
	site_text(&b, summary);
	buf_puts(&b, "</p>\n");
	rc = reports(s, t, ex, &b);
	if (rc == 0 && ex) {
		derivation(s, ex, &b);
		dice_table(ex, &b);
		rc = close_section(s, ex, &b);
	}
	site_page_end(&b, "../");
	if (rc == 0) {
		char *path = xasprintf("%s/index.html", tag);
		site_add(s, path, b.data, b.len);
		free(path);
		buf_printf(rows, "<tr><td><a href=\"%s/index.html\">%d</a></td><td>", tag, t);
		site_text(rows, summary);
		buf_printf(rows, "</td><td>%zu</td></tr>\n", ex ? ex->n_dice : 0);
	}
	journal_record_free(ex);
	diag_release(&d);
	buf_release(&b);
	buf_release(&title);
	return rc;
}
