/* durable.h — the crash-point test hook. Every durable write of a turn (git objects, the
 * journal transaction, each work-tree file, the index, the branch, the tag) calls
 * durable_point; when $UMPIRE_CRASH_AFTER is N, the process _exits(99) right after the Nth,
 * as a crash there would leave things. tests/e2e/t_crash_points.sh loops N until a run
 * completes and proves recovery from every point. */
#ifndef UMPIRE_DURABLE_H
#define UMPIRE_DURABLE_H

/* Counts one durable write named what; may not return (see above). */
void durable_point(const char *what);

#endif
