/* verify_timelock.c — `umpire verify`'s time-locked orders (docs/fairness.md, "Time-locked
 * orders"): the ciphertexts a close commits, each the file whose hash the close fixed. They
 * are opened again from the round's signature when the turn is re-run (timelock.h), so a
 * file that opens to other orders than those the turn used fails there. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/campaign.h"
#include "core/close.h"
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
		fair_sha256(h, bytes.data ? bytes.data : "", bytes.len);
		/* Sealed: the close's hash is salted, and checked at the reveal with the salt. */
		if (v->c->visibility != CAMPAIGN_SEALED &&
			memcmp(h, o->sha256, FAIR_HASH_BYTES) != 0) {
			hex_encode(hex, h, FAIR_HASH_BYTES);
			rc = error_set(ERROR_INPUT,
				"turn %d: time-locked file %s at %s has sha256 %s, not the one the close fixed for %s",
				t, path, tag, hex, o->player);
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
