#!/bin/sh
# bench/signed-campaign.sh BIN DIR TURNS [FROM] — plays TURNS turns of a long signed campaign
# into DIR as tools/demo-play plays a demo: betio-seawall with its game length set to TURNS,
# entropy beacon on the demo beacon (umpire init --demo-beacon), each turn one umpire ruling
# of 1d6, the players' orders missing, closed (umpire close --allow-missing) exactly
# beacon_delay before the round it names, then resolved an hour later with that round's
# value and signature (tools/demo-beacon's, signed by the BLS helper in one call for all
# turns). FROM (default 1): the first turn to play, DIR then already initialised (it keeps
# playing a campaign made before). With $BENCH_FLOOR (build/release/bench/floor) and
# $BENCH_TIMES set, each turn's close and turn are timed by `floor run`, one line a turn
# appended to $BENCH_TIMES: "TURN WALL CPU MAXRSS_KB" (close and turn together; wall and CPU
# in seconds). Public tools only; used by bench/signed.sh and by hand.
set -eu
cd "$(dirname "$0")/.."
BIN=$(realpath "$1")
DIR=$2
N=$3
FROM=${4:-1}
BLS=${UMPIRE_BLS:-$(dirname "$BIN")/umpire-bls}
BS=campaigns/betio-seawall
base=${SOURCE_DATE_EPOCH:-1767225600}
W=$(mktemp -d /tmp/umpire-signed.XXXXXX)
trap 'rm -rf "$W"' EXIT
if [ "$FROM" -eq 1 ]; then
    sed "s/^  turns: [0-9]*\$/  turns: $N/" "$BS/scenario.yaml" >"$W/scen.yaml"
    grep -q "^  turns: $N\$" "$W/scen.yaml" || { echo "signed-campaign: no game length in $BS/scenario.yaml" >&2; exit 1; }
    "$BIN" init "$DIR" --scenario "$W/scen.yaml" --secret-file "$BS/demo.secret" \
        --entropy beacon --demo-beacon --visibility open >/dev/null
fi
genesis=$(sed -n 's/^  beacon_genesis: //p' "$DIR/campaign.yaml")
period=$(sed -n 's/^  beacon_period: //p' "$DIR/campaign.yaml")
delay=$(sed -n 's/^  beacon_delay: //p' "$DIR/campaign.yaml")
# round of turn t: the one a close at day t names (tools/demo-play's rule)
round() { echo $(((base + $1 * 86400 + delay - genesis + period - 1) / period + 1)); }
rounds=""
for t in $(seq "$FROM" "$N"); do rounds="$rounds $(round "$t")"; done
# shellcheck disable=SC2086
"$BLS" sign campaigns/demo-beacon.key $rounds >"$W/sigs"
t=$FROM
while read -r sig; do
    r=$(round "$t")
    closed_at=$((genesis + (r - 1) * period - delay))
    printf 'campaign: betio-seawall\nturn: %s\nplayer: umpire\norders:\n  - {roll: 1d6, for: "bench ruling"}\n' "$t" >"$W/r.yaml"
    value=$(printf %s "$sig" | xxd -r -p | sha256sum | cut -c1-64)
    if [ -n "${BENCH_FLOOR:-}" ] && [ -n "${BENCH_TIMES:-}" ]; then
        SOURCE_DATE_EPOCH=$closed_at "$BENCH_FLOOR" run "$BIN" close "$DIR" --allow-missing --rulings "$W/r.yaml" >"$W/t"
        SOURCE_DATE_EPOCH=$((closed_at + 3600)) "$BENCH_FLOOR" run "$BIN" turn "$DIR" --beacon "$value" --beacon-signature "$sig" >>"$W/t"
        awk -v t="$t" '{ w += $1; c += $2 + $3; if ($4 > m) m = $4 } END { print t, w, c, m }' "$W/t" >>"$BENCH_TIMES"
    else
        SOURCE_DATE_EPOCH=$closed_at "$BIN" close "$DIR" --allow-missing --rulings "$W/r.yaml" >/dev/null
        SOURCE_DATE_EPOCH=$((closed_at + 3600)) "$BIN" turn "$DIR" --beacon "$value" --beacon-signature "$sig" >/dev/null
    fi
    t=$((t + 1))
done <"$W/sigs"
