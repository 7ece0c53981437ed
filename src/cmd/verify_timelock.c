/* verify_timelock.c — `umpire verify`'s time-locked orders (docs/fairness.md, "Time-locked
 * orders"): the ciphertexts a close commits, each the file whose hash the close fixed (a
 * sealed campaign's with the salt the close publishes beside it). They are opened again from
 * the round's signature when the turn is re-run (timelock.h), so a file that opens to other
 * orders than those the turn used fails there; before a sealed campaign's reveal, the outer
 * layer alone is opened, to an age file for the umpire's key (verify_timelocked_sealed). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/campaign.h"
#include "core/close.h"
#include "core/error.h"
#include "core/events.h"
#include "core/journal.h"
#include "core/layout.h"
#include "core/fair.h"
#include "core/file.h"
#include "core/repo.h"
#include "core/timelock.h"
#include "cmd/verify.h"
#include "core/banned.h"

int verify_timelocked_files(struct verify *v, int t, const char *tag, const struct close_record *r,
	struct file **files, size_t *n_files)
{
	char dir[64], path[128], hex[65];
	char **names = NULL;
	struct buf bytes = BUF_INIT;
	size_t seen = 0;
	int rc = 0;

	if (!v->c->orders_timelocked)
		return 0;
	snprintf(dir, sizeof dir, TIMELOCK_DIR "/turn-%04d", t);
	if (repo_list(v->c->repo, tag, dir, &names) < 0)
		return error_prefix("turn %d", t);
	for (size_t i = 0; rc == 0 && names[i]; i++) {
		char *player = timelock_player_of(names[i]);
		const struct close_order *o = close_find(r, player);
		uint8_t h[FAIR_HASH_BYTES];
		snprintf(path, sizeof path, "%s/%s", dir, names[i]);
		if (!o || strcmp(player, UMPIRE_PLAYER) == 0)
			rc = error_set(ERROR_INPUT,
				"turn %d: %s at %s: the close fixed no time-locked file of '%s'", t,
				path, tag, player);
		else if (repo_read(v->c->repo, tag, path, &bytes) < 0)
			rc = error_prefix("turn %d: cannot read %s at %s", t, path, tag);
		free(player);
		if (rc < 0)
			break;
		/* Sealed: the close's hash is salted, and the close gives the salt of a file
		 * that is public anyway. */
		int sealed = v->c->visibility == CAMPAIGN_SEALED;
		if (sealed != o->has_salt) {
			rc = error_set(ERROR_INPUT,
				"turn %d: the close at %s gives %s salt for %s's time-locked file (%s campaign)",
				t, tag, o->has_salt ? "a" : "no", o->player,
				sealed ? "a sealed" : "an open");
			break;
		}
		if (sealed)
			fair_sealed_hash(h, o->salt, bytes.data ? bytes.data : "", bytes.len);
		else
			fair_sha256(h, bytes.data ? bytes.data : "", bytes.len);
		if (memcmp(h, o->sha256, FAIR_HASH_BYTES) != 0) {
			hex_encode(hex, h, FAIR_HASH_BYTES);
			rc = error_set(ERROR_INPUT,
				"turn %d: time-locked file %s at %s has %s %s, not the one the close fixed for %s",
				t, path, tag, sealed ? "the salted commitment" : "sha256", hex,
				o->player);
			break;
		}
		file_list_add(files, n_files, path, bytes.data ? bytes.data : "", bytes.len);
		seen++;
	}
	for (size_t i = 0; rc == 0 && i < r->n_orders; i++)
		if (strcmp(r->orders[i].player, UMPIRE_PLAYER) != 0 && seen-- == 0)
			rc = error_set(ERROR_INPUT,
				"turn %d: the close at %s fixed %zu time-locked files but commits fewer under %s/",
				t, tag, r->n_orders, dir);
	repo_names_free(names);
	buf_release(&bytes);
	return rc;
}

/* 1 when the export journals EVENTS_VOID_FILE for player (his file gave no orders). */
static int journals_void(const struct journal_record *ex, const char *player)
{
	char *prefix = xasprintf(EVENTS_VOID_FILE, player, "");
	size_t n = strlen(prefix);
	int found = 0;

	for (size_t i = 0; !found && i < ex->n_events; i++)
		found = ex->events[i].kind == EVENT_EVENT &&
			strcmp(ex->events[i].phase, "orders") == 0 &&
			strncmp(ex->events[i].text, prefix, n) == 0;
	free(prefix);
	return found;
}

int verify_timelocked_sealed(struct verify *v, int t, const struct close_record *r,
	const struct journal_record *ex, size_t *opened)
{
	char tag[LAYOUT_TAG_MAX], path[128];
	struct buf bytes = BUF_INIT;
	int rc = 0;

	*opened = 0;
	if (!v->c->orders_timelocked || !ex->beacon_signature)
		return 0;
	layout_close_tag(tag, t);
	for (size_t i = 0; rc == 0 && i < r->n_orders; i++) {
		const struct close_order *o = &r->orders[i];
		if (strcmp(o->player, UMPIRE_PLAYER) == 0)
			continue;
		snprintf(path, sizeof path, TIMELOCK_DIR "/turn-%04d/%s" TIMELOCK_SUFFIX, t,
			o->player);
		if (repo_read(v->c->repo, tag, path, &bytes) < 0) {
			rc = error_prefix("turn %d: cannot read %s at %s", t, path, tag);
			break;
		}
		if (timelock_check_inner(v->c, r->round, ex->beacon_signature,
			    bytes.data ? bytes.data : "", bytes.len) == 0) {
			(*opened)++;
			continue;
		}
		if (error_last()->klass != ERROR_INPUT) {
			rc = -1;
			break;
		}
		/* A file sealed before a schedule change is locked to another round: the turn
		 * counts it as none, as it must any file that holds no age file for the key. */
		if (!journals_void(ex, o->player))
			rc = error_set(ERROR_INPUT,
				"turn %d: %s at %s does not open with round %lld's signature to an age file for the umpire's key (%s), but the turn took orders from %s",
				t, path, tag, r->round, error_last()->message, o->player);
		else
			error_clear();
	}
	buf_release(&bytes);
	return rc;
}
