# bench/lib.sh — what every bench script shares, sourced after `cd` to the source tree:
# medians of the numbers a run appends, in seconds from `floor run`'s "wall user sys
# maxrss_kb" lines, printed as milliseconds and ratios. $FLOOR: bench/floor.c's binary.
# median of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# col C FILE: the median of column C; cpu FILE: the median of user + sys
col() { awk -v c="$1" '{ print $c }' "$2" | median; }
cpu() { awk '{ print $2 + $3 }' "$1" | median; }
ms() { awk -v s="$1" 'BEGIN { printf "%.1f", s * 1000 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
row() { printf '%-44s %-34s %-10s %s\n' "$1" "$2" "$3" "$4"; }
# timed OUT [--ok CODE] CMD...: runs CMD (output discarded) under `floor run` (CLOCK_MONOTONIC
# and wait4's rusage: /usr/bin/time's 10 ms steps are most of a 30 ms turn), appending "wall
# user sys maxrss_kb" to OUT; stops the bench when CMD fails
timed() {
    out=$1; shift
    "$FLOOR" run "$@" >>"$out" || { echo "bench: failed: $*" >&2; exit 1; }
}
# turn_bytes DIR: the bytes turn 1 of DIR commits (its files, not the Setup's briefing)
turn_bytes() { git -C "$1" ls-tree -r -l turn-0001 | grep -v 'reports/turn-0000' | awk '{ s += $4 } END { print s }'; }
