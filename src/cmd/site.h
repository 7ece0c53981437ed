/* site.h — `umpire site DIR OUT` (site.c, site_turn.c): the campaign's static pages, built
 * in memory as a file list (nothing written on error), then written under OUT. */
#ifndef UMPIRE_CMD_SITE_H
#define UMPIRE_CMD_SITE_H

#include <stddef.h>
#include "core/buf.h"
#include "core/campaign.h"
#include "core/file.h"

/* The site being built. */
struct site {
	struct campaign *c; /* the campaign, opened read-only (a clone will do) */
	int last;           /* the last turn tagged */
	int sealed;         /* visibility sealed */
	int revealed;       /* sealed and tag `reveal` exists: every player's view is public */
	struct file *files; /* the pages and files, paths relative to OUT */
	size_t n_files;
};

/* Makes every file of the site of s->c (opened by the caller) into s->files (the caller frees
 * them with file_list_free), and sum gets the SHA-256 (hex) of the verifier bundle copied.
 * Returns 0 / -1 (error_last(): a missing asset of `make web`, a campaign that cannot be
 * read). */
int site_build(struct site *s, char sum[65]);

/* The head of a page (title escaped here; root: "" or "../", the way to OUT's top). */
void site_page_begin(struct buf *b, const char *title, const char *root);
/* The end of a page: the Markdown script (root as above) when the page holds Markdown
 * (site_markdown), </body></html>. */
void site_page_end(struct buf *b, const char *root);
/* Appends s escaped for HTML (escape_html). */
void site_text(struct buf *b, const char *s);
/* Markdown md as escaped text in <pre class="md">, which site.js renders in the browser
 * (markdown-it, HTML off); base: the folder its relative links point into ("" for the page's). */
void site_markdown(struct buf *b, const char *md, size_t len, const char *base);
/* Adds the file at path (relative to OUT) to the site. */
void site_add(struct site *s, const char *path, const void *data, size_t len);

/* Turn t's page, turn-NNNN/index.html, with its maps; its row of the index's table of turns
 * appended to rows. 0 / -1 (error_last()). */
int site_turn(struct site *s, int t, struct buf *rows);

#endif
