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
# disk_dir NAME: a new folder for campaigns timed as a referee's disk holds them (fsyncs that
# wait, the page cache), under $BENCH_DISK (default /var/tmp: on disk where /tmp is tmpfs);
# said on stderr when it is tmpfs or ramfs all the same
disk_dir() {
    disk=$(mktemp -d "${BENCH_DISK:-/var/tmp}/$1.XXXXXX")
    case $(stat -f -c %T "$disk") in
    tmpfs | ramfs) echo "bench: $disk is in memory (tmpfs): not a referee's disk; set BENCH_DISK" >&2 ;;
    esac
    echo "$disk"
}
# The 9,600-order turn (issue 17's largest: bench/big-reivers.sh), one way for run.sh and
# compare.sh. big_init BIN SRC DIR: DIR, its campaign before the turn (SRC from big-reivers.sh:
# entropy none, open visibility); big_turn OUT BIN SRC DIR0 DIR: DIR a fresh copy of DIR0, its
# turn as the umpire types it (`umpire turn DIR orders...`) timed into OUT
big_init() {
    "$1" init "$3" --scenario "$2/scenario.yaml" --entropy none --visibility open \
        --secret-file campaigns/betio-seawall/demo.secret >/dev/null
}
big_turn() {
    rm -rf "$5"; cp -a "$4" "$5"; sync
    # shellcheck disable=SC2046
    timed "$1" "$2" turn "$5" $(ls "$3"/orders/*.yaml)
}
# big_floor DIR0 DIR SRC: the turn's floor (floor turn: libyaml loading the orders and the state
# before the turn, SQLite inserting the turn's rows from DIR's journal, one libgit2 commit of
# its files; beside DIR, on its file system), the median seconds of its five runs
big_floor() {
    # shellcheck disable=SC2046
    TMPDIR=$(dirname "$2") "$FLOOR" turn "$2/.umpire/journal.sqlite" 1 $(ls "$3"/orders/*.yaml) "$1/state.yaml" |
        awk '/^floor_s/ { print $2 }'
}
