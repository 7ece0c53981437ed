#!/bin/sh
# bench/signed.sh BIN FLOOR — `make bench`, part 2 (issue 38): what the users of a long signed
# campaign meet. A campaign of BENCH_SIGNED (default 1000) turns played as tools/demo-play
# plays them (bench/signed-campaign.sh: each turn closed, then resolved with the demo
# beacon's signed round), played twice and every turn timed (a turn's cost the lesser of its two
# plays), on tmpfs when /dev/shm is writable (CPU figures, not the disk's fsyncs). Rows: a
# signed turn (close + turn) at turn 10 and at the end, and the slowest turn of all; verify of a fresh clone (on two threads, and on one), then of the
# same clone again, and incrementally (a clone verified up to 10 turns before the end pulls
# the last 10); the BLS check per round, alone and in one batch; replay; an idle `umpire run`
# pass; .umpire/ against .git bytes a turn; tools/umpire-verify.mjs on a clone of them all.
# Public tools only; speed is measured here, never asserted in tests.
set -eu
cd "$(dirname "$0")/.."
BIN=$(realpath "$1")
FLOOR=$(realpath "$2")
N=${BENCH_SIGNED:-1000}
RUNS=${BENCH_RUNS:-5}
BLS=$(dirname "$BIN")/umpire-bls
base=/tmp; [ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
T=$(mktemp -d "$base/umpire-bench-signed.XXXXXX")
trap 'rm -rf "$T"' EXIT
. bench/lib.sh
export SOURCE_DATE_EPOCH=1767225600

# --- a signed turn, at turn 10 and N, and the slowest ------------------------------------------
# The campaign is played twice (the same inputs, so the same bytes: the heads are compared),
# every turn timed in each play; a turn's cost is the lesser of its two plays, so that the host
# pausing the VM during one play (a 1,000-turn play meets a few such pauses) is not read as a turn
# that stalls, while a turn that does more work is slow in both. The slowest of a single play
# is shown beside it.
C="$T/c"
BENCH_FLOOR=$FLOOR BENCH_TIMES="$T/turns1" sh bench/signed-campaign.sh "$BIN" "$C" "$N"
BENCH_FLOOR=$FLOOR BENCH_TIMES="$T/turns2" sh bench/signed-campaign.sh "$BIN" "$T/c2" "$N"
[ "$(git -C "$C" rev-parse HEAD)" = "$(git -C "$T/c2" rev-parse HEAD)" ] ||
    echo "bench/signed.sh: the two plays of the campaign differ (not the same bytes)" >&2
rm -rf "$T/c2"
# "TURN WALL CPU MAXRSS_KB": wall and CPU the lesser of the two plays, peak RSS the larger
awk 'NR == FNR { w[$1] = $2; c[$1] = $3; m[$1] = $4; next }
     $1 in c { print $1, ($2 < w[$1] ? $2 : w[$1]), ($3 < c[$1] ? $3 : c[$1]), ($4 > m[$1] ? $4 : m[$1]) }' \
    "$T/turns1" "$T/turns2" >"$T/turns"
# turn t's CPU: the median of the nine turns ending at t (close + turn; the helper's included)
around() { awk -v t="$1" '$1 > t - 9 && $1 <= t { print $3 }' "$T/turns" | median; }
row "signed turn 10 (close + turn): cpu" "$(ms "$(around 10)") ms" "" ""
row "signed turn $N (close + turn): cpu" "$(ms "$(around "$N")") ms" "$(ratio "$(around "$N")" "$(around 10)")" "<= 2 (vs turn 10)"
slow=$(sort -k3 -g "$T/turns" | tail -n 1)
st=$(echo "$slow" | awk '{ print $1 }')
plays=$(awk -v t="$st" '$1 == t { printf "%s%.1f", (n++ ? ", " : ""), $3 * 1000 }' "$T/turns1" "$T/turns2")
row "slowest of $N turns (2 plays): cpu / wall" "turn $st: $(ms "$(echo "$slow" | awk '{ print $3 }')") / $(ms "$(echo "$slow" | awk '{ print $2 }')") ms (plays: $plays ms cpu)" "$(ratio "$(echo "$slow" | awk '{ print $3 }')" "$(around 10)")" "<= 2 (vs turn 10)"
one=$(cat "$T/turns1" "$T/turns2" | sort -k3 -g | tail -n 1)
row "  slowest single play of a turn: cpu" "turn $(echo "$one" | awk '{ print $1 }'): $(ms "$(echo "$one" | awk '{ print $3 }')") ms" "$(ratio "$(echo "$one" | awk '{ print $3 }')" "$(around 10)")" ""
row "peak RSS of a turn, largest of $N" "$(sort -k4 -g "$T/turns" | tail -n 1 | awk '{ print $4 }') KB" "" ""

# --- verify from a fresh clone, then again on it -------------------------------------------------
: > "$T/vfresh"; : > "$T/vagain"; : > "$T/vone"
for r in $(seq "$RUNS"); do
    rm -rf "$T/clone"; git clone -q "$C" "$T/clone"
    timed "$T/vfresh" --ok 3 "$BIN" verify "$T/clone"
    timed "$T/vagain" --ok 3 "$BIN" verify "$T/clone"
    # the same on one thread (UMPIRE_VERIFY_THREADS=1): the floor of the threads' wall
    rm -rf "$T/clone"; git clone -q "$C" "$T/clone"
    timed "$T/vone" --ok 3 env UMPIRE_VERIFY_THREADS=1 "$BIN" verify "$T/clone"
done
row "verify $N signed turns, fresh clone: wall" "$(ms "$(col 1 "$T/vfresh")") ms ($(ms "$(cpu "$T/vfresh")") ms cpu)" "" "< 5 s"
row "verify, fresh clone, 2 threads vs 1: wall" "$(ms "$(col 1 "$T/vfresh")") vs $(ms "$(col 1 "$T/vone")") ms" "$(ratio "$(col 1 "$T/vfresh")" "$(col 1 "$T/vone")")" ">= 0.5 (2 cores)"
row "verify, fresh clone: cpu per turn / peak RSS" "$(awk -v s="$(cpu "$T/vfresh")" -v n="$N" 'BEGIN { printf "%.2f", s * 1000 / n }') ms / $(col 4 "$T/vfresh") KB" "" "< 64 MB"
row "verify again, same clone (no new turn): wall" "$(ms "$(col 1 "$T/vagain")") ms" "" ""

# --- incremental: a clone verified up to turn N - K pulls the last K turns and verifies ----------
K=10; [ "$N" -gt $((2 * K)) ] || K=$((N / 2))
rm -rf "$T/inc0"; git clone -q "$C" "$T/inc0"
git -C "$T/inc0" reset -q --hard "$(printf turn-%04d $((N - K)))"
git -C "$T/inc0" tag -l 'turn-*' 'close-*' | awk -F- -v m=$((N - K)) '$2 + 0 > m' | xargs -r git -C "$T/inc0" tag -d >/dev/null
"$BIN" verify "$T/inc0" >/dev/null 2>&1 || true # exit 3: the demo beacon
: > "$T/vinc"
for r in $(seq "$RUNS"); do
    rm -rf "$T/inc"; cp -a "$T/inc0" "$T/inc"
    git -C "$T/inc" pull -q --ff-only --tags origin main 2>/dev/null
    timed "$T/vinc" --ok 3 "$BIN" verify "$T/inc"
done
# a new turn's cost: the run's wall less that of a run with none new (opening, the remembered
# head), over K; its floor: a turn's share of a fresh clone's verify (2 threads)
vf=$(awk -v s="$(col 1 "$T/vfresh")" -v n="$N" 'BEGIN { print s / n }')
vi=$(awk -v s="$(col 1 "$T/vinc")" -v a="$(col 1 "$T/vagain")" -v k="$K" 'BEGIN { d = s - a; print (d > 0 ? d : 0) / k }')
row "verify incremental, $K new turns: wall" "$(ms "$(col 1 "$T/vinc")") ms (none new: $(ms "$(col 1 "$T/vagain")"))" "" ""
row "  a new turn vs a turn of a fresh verify" "$(ms "$vi") vs $(ms "$vf") ms" "$(ratio "$vi" "$vf")" "< 50 ms a new turn"

# --- the BLS check per round: alone, and in one batch ---------------------------------------------
pk=$(sed -n 's/^  beacon_public_key: //p' "$C/campaign.yaml")
seq 1 100 > "$T/rounds"
# shellcheck disable=SC2046
"$BLS" sign campaigns/demo-beacon.key $(cat "$T/rounds") | paste -d ' ' "$T/rounds" - > "$T/req"
{ echo "batch 100"; cat "$T/req"; } > "$T/breq"
: > "$T/alone"; : > "$T/batch"
for r in $(seq "$RUNS"); do
    timed "$T/alone" sh -c '"$1" verify "$2" < "$3"' sh "$BLS" "$pk" "$T/req"
    timed "$T/batch" sh -c '"$1" verify "$2" < "$3"' sh "$BLS" "$pk" "$T/breq"
done
a=$(awk -v s="$(cpu "$T/alone")" 'BEGIN { printf "%.2f", s * 10 }')
b=$(awk -v s="$(cpu "$T/batch")" 'BEGIN { printf "%.2f", s * 10 }')
row "BLS check per round, cpu: alone / batch" "$a / $b ms" "$(ratio "$b" "$a")" "batch < alone"

# --- replay ---------------------------------------------------------------------------------------
: > "$T/replay"
for r in $(seq "$RUNS"); do timed "$T/replay" "$BIN" replay "$C"; done
row "replay $N signed turns: cpu / peak RSS" "$(ms "$(cpu "$T/replay")") ms / $(col 4 "$T/replay") KB" "" "< 64 MB"

# --- an idle umpire run pass (nothing arrived, nothing due) ---------------------------------------
mkdir -p "$T/md/new" "$T/md/cur" "$T/md/tmp"
"$BIN" run "$C" --maildir "$T/md" >/dev/null 2>&1 || true # the maintenance step, once
: > "$T/idle"; : > "$T/start"
for r in $(seq "$RUNS"); do
    timed "$T/idle" "$BIN" run "$C" --maildir "$T/md"
    timed "$T/start" /bin/true # its floor: a process started, nothing read (the front of an idle
    # pass answers without starting umpire-core; `umpire --version` is the front and the core)
done
row "idle umpire run pass vs /bin/true: cpu" "$(ms "$(cpu "$T/idle")") vs $(ms "$(cpu "$T/start")") ms" "$(ratio "$(cpu "$T/idle")" "$(cpu "$T/start")")" "< 10 ms"

# --- disk: .umpire/ against .git, bytes a turn (issue 38 item 4), .git packed by the run above ---
sqlite3 "$C/.umpire/journal.sqlite" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
ub=$(du -sb "$C/.umpire" | awk '{ print $1 }'); gb=$(du -sb "$C/.git" | awk '{ print $1 }')
row ".umpire/ vs .git bytes a turn (setup in)" "$((ub / N)) vs $((gb / N)) B" "$(ratio "$ub" "$gb")" "<= 1"

# --- tools/umpire-verify.mjs (the independent verifier, node), the whole clone ------------------
if command -v node >/dev/null 2>&1 && [ -d web/node_modules ]; then
    git clone -q "$C" "$T/js"
    : > "$T/jsv"
    for r in $(seq "$RUNS"); do
        "$FLOOR" run node tools/umpire-verify.mjs "$T/js" >> "$T/jsv" || true # exit 3: the demo beacon
    done
    # its floor: umpire verify of the same fresh clone (wall)
    row "umpire-verify.mjs vs umpire verify: wall" "$(ms "$(col 1 "$T/jsv")") vs $(ms "$(col 1 "$T/vfresh")") ms" "$(ratio "$(col 1 "$T/jsv")" "$(col 1 "$T/vfresh")")" "< 10 s"
else
    row "tools/umpire-verify.mjs" "skipped: no node or no make web" "" ""
fi
