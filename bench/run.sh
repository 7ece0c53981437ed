#!/bin/sh
# bench/run.sh BIN FLOOR — `make bench`: each row of issue 17's table, measured side by side
# against its floor (medians of alternated runs), in one run of a few minutes:
#   1. the dice service against raw libsodium HMAC-SHA256, and against raw OpenSSL
#      HMAC-SHA256 keyed once, as the service computes it (bench/floor.c dice)
#   2. the largest turn we build (two players' orders plus 100 umpire rulings of 100d6,
#      10,000+ dice) against its floor: libyaml loading the same files, SQLite inserting the
#      same rows in one WAL/FULL transaction, one libgit2 commit of the same files
#      (bench/floor.c turn)
#   2b. the 10,000-order turn: 12 Border Reivers sides of 800 orders (bench/big-reivers.sh)
#      against its floor (the same, with the state before the turn also loaded by libyaml)
#   3. turn 10, 100 and BENCH_TURNS (1000) of one long synthetic campaign (each turn one
#      umpire ruling of 100d6, the players' orders missing): wall, CPU, peak RSS, fsyncs
#   4. verify's cost per turn at 99 and BENCH_TURNS-1 turns
#   5. replay and verify dice per CPU second on the demos and on a dice-dense campaign,
#      and as a fraction of raw HMAC-SHA256 dice per second (row 1)
#   6. .git bytes per turn at turn BENCH_TURNS
#   7. a long signed campaign as users meet it (bench/signed.sh, issue 38): signed turns,
#      the slowest turn, verify of a fresh clone, the BLS check per round, replay, an idle
#      `umpire run` pass, tools/umpire-verify.mjs (BENCH_SIGNED turns, default 1000)
#   8. the browser side (bench/web.sh, issue 35): the first view of a 100-turn campaign's
#      pages in Chromium, the JavaScript verifier on BENCH_SIGNED signed turns (node, Chromium)
# Public tools only: sh, strace, git, sqlite3, du, and bench/floor.c's `run` for timing.
# Speed is measured here, never asserted in tests.
set -eu
cd "$(dirname "$0")/.."
BIN=$(realpath "${1:-build/umpire}")
FLOOR=$(realpath "${2:-build/release/bench/floor}")
N=${BENCH_TURNS:-1000}
RUNS=${BENCH_RUNS:-5}
export SOURCE_DATE_EPOCH=1767225600
. bench/lib.sh
T=$(disk_dir umpire-bench)
trap 'rm -rf "$T"' EXIT
BS=campaigns/betio-seawall

# rulings TURN N SIDES: an umpire file of N rulings of 100dSIDES for betio-seawall
rulings() {
    printf 'campaign: betio-seawall\nturn: %s\nplayer: umpire\norders:\n' "$1"
    awk -v n="$2" -v s="$3" 'BEGIN { for (i = 1; i <= n; i++) printf "  - {roll: 100d%d, for: \"bench ruling %d\"}\n", s, i }'
}
# new_campaign DIR TURNS: betio-seawall with the game length set to TURNS; one-step turns
# (entropy none) and open visibility, as the figures before closed and sealed turns were taken
new_campaign() {
    sed "s/^  turns: [0-9]*\$/  turns: $2/" "$BS/scenario.yaml" > "$T/scen-$2.yaml"
    grep -q "^  turns: $2\$" "$T/scen-$2.yaml" || { echo "bench: no game length in $BS/scenario.yaml" >&2; exit 1; }
    "$BIN" init "$1" --scenario "$T/scen-$2.yaml" --secret-file "$BS/demo.secret" \
        --entropy none --visibility open >/dev/null
}
dice_in() { sqlite3 "$1/.umpire/journal.sqlite" "SELECT count(*) FROM dice"; }

echo "umpire bench: $(date -u +%Y-%m-%d), $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores, $N turns, medians of $RUNS, load average $(cut -d' ' -f1-3 /proc/loadavg)"
row "measure" "figure" "ratio" "goal"

# --- 1. dice service vs raw HMAC ------------------------------------------------------------
"$FLOOR" dice 100000 > "$T/dice"
svc=$(awk '/^dice_service_per_s/ { print $2 }' "$T/dice")
raw=$(awk '/^raw_hmac_per_s/ { print $2 }' "$T/dice")
row "dice service vs raw HMAC-SHA256" "$svc vs $raw dice/s" "$(ratio "$svc" "$raw")" ">= 0.5"
ossl=$(awk '/^raw_openssl_hmac_per_s/ { print $2 }' "$T/dice")
row "dice service vs its own HMAC (OpenSSL)" "$svc vs $ossl dice/s" "$(ratio "$svc" "$ossl")" "(keyed once)"

# --- 2. the largest turn vs its floor -------------------------------------------------------
new_campaign "$T/big0" 1000
rulings 1 100 6 > "$T/big-rulings.yaml"
big_orders="$BS/orders/turn-0001/ija.yaml $BS/orders/turn-0001/usmc.yaml"
big_files="$big_orders $T/big-rulings.yaml"
: > "$T/big"; : > "$T/floor"
for r in $(seq "$RUNS"); do
    rm -rf "$T/big"; cp -a "$T/big0" "$T/big"; sync
    # shellcheck disable=SC2086
    timed "$T/bigt" "$BIN" turn "$T/big" $big_orders --rulings "$T/big-rulings.yaml"
    # shellcheck disable=SC2086
    TMPDIR=$T "$FLOOR" turn "$T/big/.umpire/journal.sqlite" 1 $big_files | awk '/^floor_s/ { print $2 }' >> "$T/floor"
done
big=$(col 1 "$T/bigt"); floor=$(median < "$T/floor")
row "largest turn ($(sqlite3 "$T/big/.umpire/journal.sqlite" 'SELECT count(*) FROM dice') dice) vs floor" "$(ms "$big") ms vs $(ms "$floor") ms" "$(ratio "$big" "$floor")" "<= 3, < 1 s"

# --- 2b. the 10,000-order turn vs its floor ------------------------------------------------
# bench/big-reivers.sh: 12 Border Reivers sides of 800 one-figure groups, every group ordered
# (9,600 orders). Its floor also loads the state before the turn (a 9,600-figure state.yaml is
# most of what must be parsed).
sh bench/big-reivers.sh "$T/huge-src"
big_init "$BIN" "$T/huge-src" "$T/huge0"
: > "$T/huget"; : > "$T/hfloor"
for r in $(seq "$RUNS"); do
    big_turn "$T/huget" "$BIN" "$T/huge-src" "$T/huge0" "$T/huge"
    big_floor "$T/huge0" "$T/huge" "$T/huge-src" >> "$T/hfloor"
done
huge=$(col 1 "$T/huget"); hfloor=$(median < "$T/hfloor")
n_orders=$(cat "$T"/huge-src/orders/*.yaml | grep -c '^  - {group:')
row "$n_orders-order turn (12 sides) vs floor" "$(ms "$huge") ms vs $(ms "$hfloor") ms" "$(ratio "$huge" "$hfloor")" "<= 3, < 1 s"
row "$n_orders-order turn: cpu / peak RSS" "$(ms "$(cpu "$T/huget")") ms / $(col 4 "$T/huget") KB" "" ""
# What it commits (its files, not the Setup's briefing) against what no layout of the reports
# can share: the state, the journal export and the order files (docs/formats.md "Shared reports")
hbytes=$(turn_bytes "$T/huge")
hfloorb=$(git -C "$T/huge" ls-tree -r -l turn-0001 | grep -E '	(state\.yaml|journal/turn-0001\.yaml|orders/turn-0001/)' | awk '{ s += $4 } END { print s }')
row "$n_orders-order turn: bytes committed vs floor" "$hbytes vs $hfloorb B" "$(ratio "$hbytes" "$hfloorb")" "< 10 MB"

# --- 3. a long campaign: turns 10, 100, N ---------------------------------------------------
# One play-through; each of turn 10, 100 and N is the median of it and its neighbours (the
# nine turns ending at it; no turn packs since issue 38, umpire run and publish do it between
# turns), timed as they are played: no copies, so the page cache and the file system see what
# a referee's machine sees.
L="$T/long"
new_campaign "$L" "$N"
mkdir -p "$T/md/new" "$T/md/cur" "$T/md/tmp"
at() { [ "$1" -gt $(($2 - 9)) ] && [ "$1" -le "$2" ]; }
for t in 10 100 "$N"; do : > "$T/turn-$t"; done
for t in $(seq 1 "$N"); do
    [ "$t" -ne 100 ] || git clone -q "$L" "$T/clone-100"
    rulings "$t" 1 6 > "$T/r.yaml"
    m=""
    for k in 10 100 "$N"; do if at "$t" "$k"; then m=$k; fi; done
    # fsyncs counted in turn N - 1
    if [ "$t" -eq $((N - 1)) ] && command -v strace >/dev/null 2>&1; then
        strace -f -c -e trace=fsync,fdatasync -o "$T/strace" "$BIN" turn "$L" --rulings "$T/r.yaml" --allow-missing >/dev/null 2>&1
    elif [ -n "$m" ]; then
        timed "$T/turn-$m" "$BIN" turn "$L" --rulings "$T/r.yaml" --allow-missing
    else
        "$BIN" turn "$L" --rulings "$T/r.yaml" --allow-missing >/dev/null
    fi
    # between turns, as cron would: umpire run's maintenance packs every TURN_PACK_EVERY
    # (50) turns (an idle pass otherwise: only then is it worth a process here)
    [ $((t % 50)) -ne 0 ] || "$BIN" run "$L" --maildir "$T/md" >/dev/null
    # after turn N - 100: both ends of the difference just packed when 100 is a multiple of
    # TURN_PACK_EVERY (50), so the loose objects between packings do not blur it
    [ "$t" -ne $((N - 100)) ] || du -sb "$L/.git" | awk '{ print $1 }' > "$T/git-before"
done
fs="n/a (no strace)"
[ ! -f "$T/strace" ] || fs=$(awk '/fsync|fdatasync/ { n += $4 } END { print n + 0 }' "$T/strace")
gitb=$(( ($(du -sb "$L/.git" | awk '{ print $1 }') - $(cat "$T/git-before")) / 100 ))
for t in 10 100 "$N"; do
    row "turn $t: wall / cpu / peak RSS" "$(ms "$(col 1 "$T/turn-$t")") ms / $(ms "$(cpu "$T/turn-$t")") ms / $(col 4 "$T/turn-$t") KB" "" ""
done
row "turn $N vs turn 10, wall" "" "$(ratio "$(col 1 "$T/turn-$N")" "$(col 1 "$T/turn-10")")" "<= 2"
row "turn $N vs turn 10, cpu" "" "$(ratio "$(cpu "$T/turn-$N")" "$(cpu "$T/turn-10")")" ""
row "turn $N vs turn 10, peak RSS" "" "$(ratio "$(col 4 "$T/turn-$N")" "$(col 4 "$T/turn-10")")" "<= 1.05"
row "fsyncs in turn $((N - 1)) (no packing)" "$fs" "" ""
row ".git bytes per turn at turn $N" "$gitb B (du -sb, turns $((N - 99))-$N)" "" "flat"

# --- 4. verify: cost per turn ---------------------------------------------------------------
git clone -q "$L" "$T/clone-$N"
for t in 100 "$N"; do : > "$T/verify-$t"; done
for r in $(seq "$RUNS"); do
    for t in 100 "$N"; do timed "$T/verify-$t" --ok 3 "$BIN" verify "$T/clone-$t"; done
done
v1=$(awk -v s="$(cpu "$T/verify-100")" 'BEGIN { printf "%.2f", s * 1000 / 99 }')
v2=$(awk -v s="$(cpu "$T/verify-$N")" -v n="$N" 'BEGIN { printf "%.2f", s * 1000 / n }')
row "verify cpu per turn, $N turns vs 99" "$v2 vs $v1 ms" "$(ratio "$v2" "$v1")" "flat (1)"

# --- 5. replay / verify dice per CPU second -------------------------------------------------
sh tools/demo "$BIN" "$T/demo" >/dev/null 2>&1
D="$T/dense"
new_campaign "$D" 1000
for t in $(seq 1 20); do
    rulings "$t" 100 6 > "$T/r.yaml"
    "$BIN" turn "$D" --rulings "$T/r.yaml" --allow-missing >/dev/null
done
for c in "$T/demo/betio-seawall" "$T/demo/harbour-raid" "$D"; do
    name=$(basename "$c"); n=$(dice_in "$c")
    git clone -q "$c" "$T/vclone-$name" 2>/dev/null || true
    : > "$T/replay-$name"; : > "$T/vfy-$name"
    for r in $(seq "$RUNS"); do
        timed "$T/replay-$name" "$BIN" replay "$c"
        timed "$T/vfy-$name" --ok 3 "$BIN" verify "$T/vclone-$name"
    done
    rp=$(awk -v n="$n" -v s="$(cpu "$T/replay-$name")" 'BEGIN { printf "%.0f", n / (s > 0 ? s : 0.001) }')
    vf=$(awk -v n="$n" -v s="$(cpu "$T/vfy-$name")" 'BEGIN { printf "%.0f", n / (s > 0 ? s : 0.001) }')
    goal=">= 100k"; [ "$c" != "$D" ] || goal=">= 1M"
    # the floor: raw HMAC-SHA256 dice per second (row 1), what deriving each die once costs
    row "replay / verify dice per cpu s, $name ($n)" "$rp / $vf" "$(ratio "$rp" "$raw") / $(ratio "$vf" "$raw")" "$goal"
done

# --- 7. a long signed campaign (issue 38): bench/signed.sh ------------------------------------
sh bench/signed.sh "$BIN" "$FLOOR"

# --- 8. the browser side (issue 35): bench/web.sh ------------------------------------------------
sh bench/web.sh "$BIN" "$FLOOR"
