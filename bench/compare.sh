#!/bin/sh
# bench/compare.sh BEFORE AFTER [CAMPAIGN] — the before-and-after table of issues 35 and 38:
# BEFORE and AFTER are two built source trees of umpire (`make all web` run in each: their
# build/umpire and build/web), measured in alternated pairs (before, after, before, after ...)
# on the same inputs, medians of BENCH_RUNS (default 5; the page's rows BENCH_PAGE_RUNS,
# default 3). CAMPAIGN: a long signed campaign (bench/signed-campaign.sh), cloned and never
# written (default: one of BENCH_SIGNED turns, default 1000, played here by AFTER). Rows:
# verify of a fresh clone (wall, CPU, peak RSS); an idle `umpire run` pass; the 9,600-order
# turn as `make bench` plays it (bench/lib.sh's big_turn: on disk, BENCH_DISK; CPU, wall,
# against its floor, bytes committed); the JavaScript verifier with node and in Chromium (the
# clone as a git bundle); the first view of a 100-turn campaign's turn page. Each column is
# measured with that tree's own binary, pages and scripts; the timing and the floor are this
# tree's bench/floor.c for both (BENCH_FLOOR, or built here: make build/release/bench/floor).
# Public tools only; speed is measured here, never asserted in tests.
set -eu
B=$(realpath "$1") # before the cd: the arguments are the caller's paths
A=$(realpath "$2")
CAMPAIGN=${3:+$(realpath "$3")}
FLOOR=${BENCH_FLOOR:+$(realpath "$BENCH_FLOOR")}
cd "$(dirname "$0")/.."
RUNS=${BENCH_RUNS:-5}
PRUNS=${BENCH_PAGE_RUNS:-3}
base=/tmp; [ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
export SOURCE_DATE_EPOCH=1767225600
. bench/lib.sh
for d in "$B" "$A"; do
    [ -x "$d/build/umpire" ] || { echo "compare: $d/build/umpire: not built (make all web there)" >&2; exit 66; }
done
# one floor for both sides: the program that times them and the 9,600-order turn's floor
if [ -z "$FLOOR" ]; then
    make -s build/release/bench/floor || { echo "compare: cannot build bench/floor in $(pwd)" >&2; exit 69; }
    FLOOR=$(realpath build/release/bench/floor)
fi
T=$(mktemp -d "$base/umpire-compare.XXXXXX")
trap 'rm -rf "$T"' EXIT
D=$(disk_dir umpire-compare)
trap 'rm -rf "$T" "$D"' EXIT
# tree S: the source tree of side S (b: BEFORE, a: AFTER)
tree() { if [ "$1" = b ]; then echo "$B"; else echo "$A"; fi; }
# five columns here: the measure, before, after, their ratio, the goal
row() { printf '%-42s %-18s %-18s %-7s %s\n' "$1" "$2" "$3" "$4" "$5"; }

echo "umpire compare: $(date -u +%Y-%m-%d), $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores, medians of $RUNS, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "before: $(git -C "$B" rev-parse --short HEAD)  after: $(git -C "$A" rev-parse --short HEAD)"
row "measure" "before" "after" "after/before" "goal"

if [ -z "$CAMPAIGN" ]; then
    CAMPAIGN=$T/signed
    sh bench/signed-campaign.sh "$A/build/umpire" "$CAMPAIGN" "${BENCH_SIGNED:-1000}"
fi
N=$(git -C "$CAMPAIGN" tag -l 'turn-*' | grep -vc '^turn-0000$')
git clone -q "$CAMPAIGN" "$T/c"

# --- verify of a fresh clone ------------------------------------------------------------------------
for s in b a; do : >"$T/v$s"; done
for r in $(seq "$RUNS"); do
    for s in b a; do
        rm -rf "$T/v"; git clone -q "$T/c" "$T/v"
        timed "$T/v$s" --ok 3 "$(tree $s)/build/umpire" verify "$T/v"
    done
done
row "verify $N signed turns, fresh clone: wall" "$(ms "$(col 1 "$T/vb")") ms" "$(ms "$(col 1 "$T/va")") ms" "$(ratio "$(col 1 "$T/va")" "$(col 1 "$T/vb")")" "< 5 s"
row "  cpu" "$(ms "$(cpu "$T/vb")") ms" "$(ms "$(cpu "$T/va")") ms" "$(ratio "$(cpu "$T/va")" "$(cpu "$T/vb")")" ""
row "  peak RSS" "$(col 4 "$T/vb") KB" "$(col 4 "$T/va") KB" "$(ratio "$(col 4 "$T/va")" "$(col 4 "$T/vb")")" "< 64 MB"

# --- an idle umpire run pass (each tree on its own copy of the campaign) ----------------------------
if [ -d "$CAMPAIGN/.umpire" ]; then
    for s in b a; do
        cp -a "$CAMPAIGN" "$T/idle-$s"; mkdir -p "$T/md-$s/new" "$T/md-$s/cur" "$T/md-$s/tmp"
        "$(tree $s)/build/umpire" run "$T/idle-$s" --maildir "$T/md-$s" >/dev/null 2>&1 || true # the maintenance step, once
        : >"$T/i$s"
    done
    for r in $(seq "$RUNS"); do
        for s in b a; do
                timed "$T/i$s" --ok 3 "$(tree $s)/build/umpire" run "$T/idle-$s" --maildir "$T/md-$s"
        done
    done
    : >"$T/start"
    for r in $(seq "$RUNS"); do timed "$T/start" /bin/true; done # a process started: the floor
    row "idle umpire run pass: cpu" "$(ms "$(cpu "$T/ib")") ms" "$(ms "$(cpu "$T/ia")") ms" "$(ratio "$(cpu "$T/ia")" "$(cpu "$T/ib")")" "< 10 ms (/bin/true: $(ms "$(cpu "$T/start")") ms)"
    rm -rf "$T/idle-b" "$T/idle-a"
fi

# --- the 9,600-order turn --------------------------------------------------------------------------
# As `make bench` plays it (bench/lib.sh), on disk as a referee's campaign is; after each pair
# the turn's floor (one program for both sides, on after's journal).
sh bench/big-reivers.sh "$D/huge-src"
for s in b a; do
    big_init "$(tree $s)/build/umpire" "$D/huge-src" "$D/huge0-$s"
    : >"$T/h$s"
done
: >"$T/hfloor"
for r in $(seq "$RUNS"); do
    for s in b a; do big_turn "$T/h$s" "$(tree $s)/build/umpire" "$D/huge-src" "$D/huge0-$s" "$D/huge-$s"; done
    big_floor "$D/huge0-a" "$D/huge-a" "$D/huge-src" >>"$T/hfloor"
done
hfloor=$(median <"$T/hfloor")
row "9,600-order turn: cpu" "$(ms "$(cpu "$T/hb")") ms" "$(ms "$(cpu "$T/ha")") ms" "$(ratio "$(cpu "$T/ha")" "$(cpu "$T/hb")")" "< 1 s"
row "  wall" "$(ms "$(col 1 "$T/hb")") ms" "$(ms "$(col 1 "$T/ha")") ms" "$(ratio "$(col 1 "$T/ha")" "$(col 1 "$T/hb")")" "< 1 s ($(stat -f -c %T "$D"))"
row "  wall vs its floor ($(ms "$hfloor") ms)" "$(ratio "$(col 1 "$T/hb")" "$hfloor")" "$(ratio "$(col 1 "$T/ha")" "$hfloor")" "" "<= 2"
row "  bytes committed" "$(turn_bytes "$D/huge-b")" "$(turn_bytes "$D/huge-a")" "$(ratio "$(turn_bytes "$D/huge-a")" "$(turn_bytes "$D/huge-b")")" "< 10 MB"
rm -rf "$D"/huge*

# --- the JavaScript verifier: node, and the page -------------------------------------------------
if command -v node >/dev/null 2>&1 && [ -x /usr/bin/chromium ] && [ -f "$A/build/web/umpire-verify.mjs" ] &&
    [ -f "$B/build/web/umpire-verify.mjs" ]; then
    for s in b a; do : >"$T/n$s"; : >"$T/p$s"; done
    for r in $(seq "$RUNS"); do
        for s in b a; do
                rm -rf "$T/v"; git clone -q "$T/c" "$T/v"
            timed "$T/n$s" --ok 3 node "$(tree $s)/build/web/umpire-verify.mjs" "$T/v"
        done
    done
    row "JS verifier, $N turns, node: wall" "$(ms "$(col 1 "$T/nb")") ms" "$(ms "$(col 1 "$T/na")") ms" "$(ratio "$(col 1 "$T/na")" "$(col 1 "$T/nb")")" "< 10 s"
    row "  cpu" "$(ms "$(cpu "$T/nb")") ms" "$(ms "$(cpu "$T/na")") ms" "$(ratio "$(cpu "$T/na")" "$(cpu "$T/nb")")" ""
    git -C "$T/c" bundle create "$T/c.bundle" --all 2>/dev/null
    field() { node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); console.log(r[process.argv[2]] / 1000)' "$1" "$2"; }
    for r in $(seq "$PRUNS"); do
        for s in b a; do
                (cd "$(tree $s)/web" && node test/browser.mjs ../build/web/index.html --bundle "$T/c.bundle") >"$T/page.json"
            echo "$(field "$T/page.json" verify_ms) $(field "$T/page.json" verify_cpu_ms)" >>"$T/p$s"
        done
    done
    row "JS verifier, $N turns, Chromium: wall" "$(ms "$(col 1 "$T/pb")") ms" "$(ms "$(col 1 "$T/pa")") ms" "$(ratio "$(col 1 "$T/pa")" "$(col 1 "$T/pb")")" "< 10 s"
    row "  cpu (all the browser's processes)" "$(ms "$(col 2 "$T/pb")") ms" "$(ms "$(col 2 "$T/pa")") ms" "$(ratio "$(col 2 "$T/pa")" "$(col 2 "$T/pb")")" ""

    # --- the first view of a 100-turn campaign's turn page --------------------------------------
    sh bench/signed-campaign.sh "$A/build/umpire" "$T/c100" 100
    for s in b a; do
        "$(tree $s)/build/umpire" site "$T/c100" "$T/site-$s" >/dev/null 2>&1
        : >"$T/s$s"
    done
    for r in $(seq "$RUNS"); do
        for s in b a; do
                (cd "$(tree $s)/web" && node test/site.mjs "$T/site-$s" index.html turn-0100/index.html) >"$T/views.json"
            node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
                for (const x of r) console.log(x.page, x.load_ms);' "$T/views.json" >>"$T/s$s"
        done
    done
    view() { awk -v p="$1" '$1 == p { print $2 }' "$2" | median; }
    for p in index.html turn-0100/index.html; do
        row "site of 100 turns, $p: first view" "$(view "$p" "$T/sb") ms" "$(view "$p" "$T/sa") ms" "$(ratio "$(view "$p" "$T/sa")" "$(view "$p" "$T/sb")")" "< 1 s"
    done
else
    row "the JavaScript verifier and the pages" "skipped: needs node, /usr/bin/chromium, make web" "" "" ""
fi
