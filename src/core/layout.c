/* layout.c — the committed layout of a campaign (layout.h): paths, tags, the commit message
 * and trailers, and the files of a turn. Formats live here and nowhere else. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/layout.h"
#include "core/escape.h"
#include "core/banned.h"

#define TURN_DIGITS "%04d"

void layout_tag(char out[LAYOUT_TAG_MAX], int turn)
{
	snprintf(out, LAYOUT_TAG_MAX, LAYOUT_TAG_PREFIX TURN_DIGITS, turn);
}

int layout_parse_tag(const char *name, int *turn)
{
	size_t plen = strlen(LAYOUT_TAG_PREFIX);
	char canon[LAYOUT_TAG_MAX];
	long v = 0;

	if (strncmp(name, LAYOUT_TAG_PREFIX, plen) != 0)
		return -1;
	const char *p = name + plen;
	if (!*p || strlen(p) > 6)
		return -1;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		v = v * 10 + (*p - '0');
	}
	/* Only the canonical spelling: turn-0003, never turn-3 or turn-00003. */
	layout_tag(canon, (int)v);
	if (strcmp(canon, name) != 0)
		return -1;
	*turn = (int)v;
	return 0;
}

void layout_close_tag(char out[LAYOUT_TAG_MAX], int turn)
{
	snprintf(out, LAYOUT_TAG_MAX, LAYOUT_CLOSE_TAG_PREFIX TURN_DIGITS, turn);
}

void layout_close_path(char out[LAYOUT_PATH_MAX], int turn)
{
	snprintf(out, LAYOUT_PATH_MAX, "journal/" LAYOUT_TAG_PREFIX TURN_DIGITS ".close.yaml",
		turn);
}

void layout_close_token_path(char out[LAYOUT_PATH_MAX], int turn, const char *authority)
{
	snprintf(out, LAYOUT_PATH_MAX, "journal/" LAYOUT_TAG_PREFIX TURN_DIGITS ".close.%s.tsr",
		turn, authority);
}

void layout_close_message(struct buf *msg, int turn, const char *what, const uint8_t digest[32],
	const uint8_t commitment[32])
{
	char d[65], commit[65];

	hex_encode(d, digest, 32);
	hex_encode(commit, commitment, 32);
	buf_printf(msg, "Turn %d: " LAYOUT_CLOSE_SUBJECT "\n\n", turn);
	escape_message_line(msg, what);
	buf_printf(msg, "\n\nTurn: %d\nOrders-Digest: %s\nCommitment: %s\n", turn, d, commit);
}

void layout_export_path(char out[LAYOUT_PATH_MAX], int turn)
{
	snprintf(out, LAYOUT_PATH_MAX, "journal/" LAYOUT_TAG_PREFIX TURN_DIGITS ".yaml", turn);
}

void layout_entry_path(char out[LAYOUT_PATH_MAX], int turn)
{
	if (turn == 0)
		snprintf(out, LAYOUT_PATH_MAX, "%s", LAYOUT_CAMPAIGN);
	else
		layout_export_path(out, turn);
}

void layout_orders_dir(char out[LAYOUT_PATH_MAX], int turn)
{
	snprintf(out, LAYOUT_PATH_MAX, "orders/" LAYOUT_TAG_PREFIX TURN_DIGITS, turn);
}

void layout_order_path(char out[LAYOUT_PATH_MAX], int turn, const char *player)
{
	snprintf(out, LAYOUT_PATH_MAX, "orders/" LAYOUT_TAG_PREFIX TURN_DIGITS "/%s.yaml", turn,
		player);
}

char *layout_order_player(const char *name)
{
	size_t n = strlen(name);

	if (n <= 5 || strcmp(name + n - 5, ".yaml") != 0)
		return NULL;
	return xasprintf("%.*s", (int)(n - 5), name);
}

void layout_reports_dir(char out[LAYOUT_PATH_MAX], int turn)
{
	snprintf(out, LAYOUT_PATH_MAX, "reports/" LAYOUT_TAG_PREFIX TURN_DIGITS, turn);
}

void layout_report_path(char out[LAYOUT_PATH_MAX], int turn, const char *player)
{
	snprintf(out, LAYOUT_PATH_MAX, "reports/" LAYOUT_TAG_PREFIX TURN_DIGITS "/%s.md", turn,
		player);
}

void layout_map_path(char out[LAYOUT_PATH_MAX], int turn, const char *player)
{
	snprintf(out, LAYOUT_PATH_MAX, "reports/" LAYOUT_TAG_PREFIX TURN_DIGITS "/%s.svg", turn,
		player);
}

void layout_public_map_path(char out[LAYOUT_PATH_MAX], int turn)
{
	snprintf(out, LAYOUT_PATH_MAX, "reports/" LAYOUT_TAG_PREFIX TURN_DIGITS ".svg", turn);
}

void layout_map_link(char out[LAYOUT_PATH_MAX], int turn, const char *player, int sealed)
{
	if (!player)
		snprintf(out, LAYOUT_PATH_MAX, LAYOUT_TAG_PREFIX TURN_DIGITS ".svg", turn);
	else if (sealed)
		snprintf(out, LAYOUT_PATH_MAX, "%s", LAYOUT_OUTBOX_MAP);
	else
		snprintf(out, LAYOUT_PATH_MAX, "%s.svg", player);
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct layout_entry *)a)->path,
		((const struct layout_entry *)b)->path);
}

size_t layout_turn_files(struct layout_entry **out, int turn, const char *const *senders,
	size_t n_senders, const char *const *players, size_t n_players, int maps)
{
	struct layout_reports r = { maps, 0, NULL };

	return layout_open_turn_files(out, turn, senders, n_senders, players, n_players, &r);
}

size_t layout_open_turn_files(struct layout_entry **out, int turn, const char *const *senders,
	size_t n_senders, const char *const *players, size_t n_players,
	const struct layout_reports *r)
{
	struct layout_entry *v = xcalloc(4 + n_senders + 2 * n_players, sizeof(*v));
	size_t n = 0;
	int maps = r->maps;

	v[n].kind = LAYOUT_KIND_STATE;
	snprintf(v[n++].path, LAYOUT_PATH_MAX, "%s", LAYOUT_STATE);
	v[n].kind = LAYOUT_KIND_EXPORT;
	layout_export_path(v[n++].path, turn);
	for (size_t i = 0; i < n_senders; i++) {
		v[n].kind = LAYOUT_KIND_ORDERS;
		v[n].player = senders[i];
		layout_order_path(v[n++].path, turn, senders[i]);
	}
	if (r->shared) {
		v[n].kind = LAYOUT_KIND_PUBLIC_REPORT;
		layout_public_report_path(v[n++].path, turn);
	}
	if (r->shared && maps) {
		v[n].kind = LAYOUT_KIND_PUBLIC_MAP;
		layout_public_map_path(v[n++].path, turn);
	}
	for (size_t i = 0; i < n_players; i++) {
		v[n].kind = LAYOUT_KIND_REPORT;
		v[n].player = players[i];
		layout_report_path(v[n++].path, turn, players[i]);
		if (!maps || (r->shared && r->own_map && !r->own_map[i]))
			continue;
		v[n].kind = LAYOUT_KIND_MAP;
		v[n].player = players[i];
		layout_map_path(v[n++].path, turn, players[i]);
	}
	qsort(v, n, sizeof(*v), cmp_entry);
	*out = v;
	return n;
}

void layout_commit_subject(struct buf *out, int turn, const char *summary)
{
	if (turn == 0) {
		buf_puts(out, "Setup");
		return;
	}
	/* One line whatever the summary holds: a new line would forge a trailer. */
	buf_printf(out, "Turn %d: ", turn);
	escape_message_line(out, summary);
}

void layout_commit_message(struct buf *msg, int turn, const char *summary,
	const uint8_t journal_head[32], const uint8_t commitment[32])
{
	char head[65], commit[65];

	hex_encode(head, journal_head, 32);
	hex_encode(commit, commitment, 32);
	layout_commit_subject(msg, turn, summary);
	buf_printf(msg, "\n\nTurn: %d\nJournal-Head: %s\nCommitment: %s\n", turn, head, commit);
}

char *layout_trailer(const char *message, const char *key)
{
	size_t klen = strlen(key);
	char *found = NULL;

	/* The last "Key: value" line wins, as git interpret-trailers reads them. */
	for (const char *p = message; p && *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		if (len > klen + 1 && strncmp(p, key, klen) == 0 && p[klen] == ':' &&
			p[klen + 1] == ' ') {
			free(found);
			found = xasprintf("%.*s", (int)(len - klen - 2), p + klen + 2);
		}
		p = eol ? eol + 1 : NULL;
	}
	return found;
}

void layout_public_report_path(char out[LAYOUT_PATH_MAX], int turn)
{
	snprintf(out, LAYOUT_PATH_MAX, "reports/" LAYOUT_TAG_PREFIX TURN_DIGITS ".md", turn);
}

size_t layout_sealed_turn_files(struct layout_entry **out, int turn, int maps)
{
	struct layout_entry *v = xcalloc(4, sizeof(*v));
	size_t n = 0;

	v[n].kind = LAYOUT_KIND_STATE;
	snprintf(v[n++].path, LAYOUT_PATH_MAX, "%s", LAYOUT_STATE);
	v[n].kind = LAYOUT_KIND_EXPORT;
	layout_export_path(v[n++].path, turn);
	v[n].kind = LAYOUT_KIND_PUBLIC_REPORT;
	layout_public_report_path(v[n++].path, turn);
	if (maps) {
		v[n].kind = LAYOUT_KIND_PUBLIC_MAP;
		layout_public_map_path(v[n++].path, turn);
	}
	qsort(v, n, sizeof(*v), cmp_entry);
	*out = v;
	return n;
}

void layout_reveal_dir(char out[LAYOUT_PATH_MAX], int turn)
{
	snprintf(out, LAYOUT_PATH_MAX, "reveal/" LAYOUT_TAG_PREFIX TURN_DIGITS, turn);
}

void layout_reveal_message(struct buf *msg, int last, const uint8_t commitment[32])
{
	char commit[65];

	hex_encode(commit, commitment, 32);
	buf_printf(msg,
		LAYOUT_REVEAL_SUBJECT
		"\n\nEvery order file, whole state and salt of turns 0 to %d, "
		"withheld while the campaign was sealed.\n\nTurn: %d\nCommitment: %s\n",
		last, last, commit);
}
