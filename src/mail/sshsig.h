/* sshsig.h — signed orders: a file signed with `ssh-keygen -Y sign -n umpire-orders`,
 * checked against the player's public key (campaign.yaml players[].ssh_key) by OpenSSH's own
 * `ssh-keygen -Y verify`: no signature code of ours. */
#ifndef UMPIRE_SSHSIG_H
#define UMPIRE_SSHSIG_H

#include <stddef.h>
#include "core/buf.h"

#define SSHSIG_NAMESPACE "umpire-orders" /* what a player signs for (ssh-keygen -n) */
#define SSHSIG_MAX_BYTES 16384           /* an armored signature */
#define SSHSIG_TIMEOUT \
	60 /* seconds ssh-keygen may take ($UMPIRE_SSH_KEYGEN_TIMEOUT), then stopped */

/* Checks that sig (an armored SSH signature, sig_len bytes) signs data (len bytes) with the
 * key key_line (an OpenSSH public key line) for principal under SSHSIG_NAMESPACE, by running
 * ssh-keygen -Y verify in a private temporary directory under tmp_parent. Returns 1 when it
 * does, 0 when it does not (why gets ssh-keygen's reason, one line), -1 when ssh-keygen
 * cannot be run (error_last()). */
int sshsig_verify(const char *tmp_parent, const char *key_line, const char *principal,
	const void *data, size_t len, const void *sig, size_t sig_len, struct buf *why);

#endif
