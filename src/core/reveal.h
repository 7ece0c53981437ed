/* reveal.h — the reveal of a sealed campaign (docs/fairness.md, "Sealed turns"): one commit,
 * tagged `reveal`, that publishes everything the sealed turns withheld (every order file, the
 * whole state after each turn, every salt), so that from then on `umpire verify` re-runs
 * every turn in full from a clone. */
#ifndef UMPIRE_REVEAL_H
#define UMPIRE_REVEAL_H

#include "core/campaign.h"

/* Commits reveal/turn-NNNN/ for every turn 0..last of the sealed campaign c (locked, journal
 * open) from .umpire/sealed/ as the commit "Reveal" on main (its parent: the last turn),
 * tagged `reveal`, at time when; *last gets the last turn revealed and commit_id the commit.
 * Returns 0; 1 when the campaign was revealed already (commit_id: that commit); -1 with class
 * ERROR_INPUT for an open campaign or a turn closed and not resolved, else as the lower
 * layer failed. */
int reveal_commit(struct campaign *c, long long when, int *last, char commit_id[41]);

#endif
