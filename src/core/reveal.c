/* reveal.c — the reveal commit of a sealed campaign (reveal.h): what the sealed turns kept in
 * .umpire/sealed/turn-NNNN/ (state.yaml whole, salts.yaml, orders/PLAYER.yaml), committed
 * under reveal/turn-NNNN/ in one commit tagged `reveal`. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/reveal.h"
#include "core/file.h"
#include "core/layout.h"
#include "core/turn.h"
#include "core/timelock.h"
#include "core/banned.h"

#define REVEAL_MAX_FILE (64 * 1024 * 1024) /* a whole state.yaml of the largest campaign */

/* .umpire/sealed/turn-NNNN/name as reveal/turn-NNNN/name into the file list. */
static int add_kept(struct file **files, size_t *n, const char *dir, int turn, const char *name)
{
	char rdir[LAYOUT_PATH_MAX];
	char *path = xasprintf("%s/%s", dir, name);
	struct buf bytes = BUF_INIT;
	int rc = file_read(path, REVEAL_MAX_FILE, &bytes);

	if (rc < 0)
		error_prefix("cannot reveal turn %d", turn);
	else {
		layout_reveal_dir(rdir, turn);
		char *committed = xasprintf("%s/%s", rdir, name);
		file_list_add(files, n, committed, bytes.data ? bytes.data : "", bytes.len);
		free(committed);
	}
	buf_release(&bytes);
	free(path);
	return rc;
}

/* Every withheld order file of a turn (orders/PLAYER.yaml): exactly the files the journal
 * received, each the bytes it journaled (a file a crashed run left, or one changed since, is
 * never published: the reveal stops and names it). */
static int add_kept_orders(struct campaign *c, struct file **files, size_t *n, const char *dir,
	int turn)
{
	struct journal_record *r = NULL;
	int rc = journal_read(c->journal, turn, &r);

	if (rc != 0)
		return rc < 0 ? rc : error_set(ERROR_INPUT, "turn %d is not in the journal", turn);
	for (size_t i = 0; rc == 0 && i < r->n_orders; i++) {
		const struct journal_order *o = &r->orders[i];
		if (!o->has_file)
			continue;
		char *name = xasprintf("orders/%s.yaml", o->player);
		size_t before = *n;
		rc = add_kept(files, n, dir, turn, name);
		if (rc == 0 && o->bytes &&
			((*files)[before].len != o->len ||
				memcmp((*files)[before].data, o->bytes, o->len) != 0))
			rc = error_set(ERROR_INPUT,
				"cannot reveal turn %d: %s/%s is not the file the journal received from %s",
				turn, dir, name, o->player);
		free(name);
	}
	journal_record_free(r);
	return rc;
}

static int collect(struct campaign *c, int last, struct file **files, size_t *n)
{
	int rc = 0;

	for (int t = 0; t <= last && rc == 0; t++) {
		char *dir = turn_private_dir(c, "sealed", t);
		rc = add_kept(files, n, dir, t, LAYOUT_STATE);
		if (rc == 0 && t > 0)
			rc = add_kept(files, n, dir, t, "salts.yaml");
		if (rc == 0 && t > 0)
			rc = add_kept_orders(c, files, n, dir, t);
		free(dir);
	}
	/* Time-locked and sealed: the umpire's age identity, so a clone opens the inner layer
	 * of every order file when it re-runs the turns. */
	if (rc == 0 && c->orders_timelocked && c->timelock_recipient) {
		char *path = xasprintf("%s/.umpire/" TIMELOCK_IDENTITY, c->dir);
		struct buf bytes = BUF_INIT;
		rc = file_read(path, 4096, &bytes);
		if (rc < 0)
			error_prefix("cannot reveal the umpire's age identity");
		else
			file_list_add(files, n, TIMELOCK_REVEALED, bytes.data, bytes.len);
		fair_wipe(bytes.data, bytes.len);
		buf_release(&bytes);
		free(path);
	}
	return rc;
}

/* 1 if main_id is a reveal commit on the last turn turn_id: a reveal a crash left untagged. */
static int untagged_reveal(struct campaign *c, const char *main_id, const char *turn_id)
{
	struct buf subject = BUF_INIT;
	char rev[64], parent[41];
	int yes;

	snprintf(rev, sizeof rev, "%s^1", main_id);
	yes = repo_commit_id(c->repo, rev, parent) == 0 && strcmp(parent, turn_id) == 0 &&
	      repo_subject(c->repo, main_id, &subject) == 0 &&
	      strcmp(buf_str(&subject), LAYOUT_REVEAL_SUBJECT) == 0;
	buf_release(&subject);
	return yes;
}

int reveal_commit(struct campaign *c, long long when, int *last, char commit_id[41])
{
	char tag[LAYOUT_TAG_MAX], main_id[41], turn_id[41];
	struct file *files = NULL;
	struct buf msg = BUF_INIT;
	size_t n = 0;
	int rc;

	if (c->visibility != CAMPAIGN_SEALED)
		return error_set(ERROR_INPUT,
			"campaign '%s' is open: nothing was withheld, there is nothing to reveal",
			c->id);
	if (repo_commit_id(c->repo, LAYOUT_REVEAL_TAG, commit_id) == 0)
		return 1;
	if (journal_last_turn(c->journal, last) < 0)
		return -1;
	layout_tag(tag, *last);
	if (repo_commit_id(c->repo, LAYOUT_BRANCH, main_id) != 0 ||
		repo_commit_id(c->repo, tag, turn_id) != 0)
		return error_set(ERROR_INPUT, "main or %s is missing", tag);
	int finish = strcmp(main_id, turn_id) != 0;
	if (finish && !untagged_reveal(c, main_id, turn_id))
		return error_set(ERROR_INPUT,
			"main is not at %s, the last turn (a turn closed and not resolved?): resolve it first",
			tag);
	rc = collect(c, *last, &files, &n);
	if (rc == 0 && finish) {
		/* A crash after main moved and before the tag: tag the reveal that is there. */
		memcpy(commit_id, main_id, 41);
	} else if (rc == 0) {
		file_list_sort(files, n);
		layout_reveal_message(&msg, *last, c->commitment);
		rc = repo_build(c->repo, files, n, buf_str(&msg), when, commit_id);
	}
	if (rc == 0)
		rc = repo_objects_stored(c->repo, commit_id, files, n);
	if (rc == 0)
		rc = repo_publish(c->repo, files, n, commit_id, LAYOUT_REVEAL_TAG);
	file_list_free(files, n);
	buf_release(&msg);
	return rc;
}
