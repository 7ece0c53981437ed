#!/bin/sh
# bench/campaign.sh [BIN] — times the main jobs on the shipped campaigns: init + every turn,
# replay, verify on a clone, the JavaScript verifier, and `check` of one order file. Speed is
# measured here, never asserted in tests. Uses hyperfine when installed (apt-get install
# hyperfine), else one timed run each.
set -eu
cd "$(dirname "$0")/.."
BIN=$(realpath "${1:-build/umpire}")
export SOURCE_DATE_EPOCH=1767225600
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
run() { # NAME COMMAND
    if command -v hyperfine >/dev/null 2>&1; then
        hyperfine --warmup 1 --runs 10 -N --style basic -n "$1" "$2" 2>/dev/null | grep -E "Time|±" | head -2
    else
        s=$(date +%s%N); sh -c "$2" >/dev/null 2>&1; e=$(date +%s%N)
        printf '%-40s %6d ms\n' "$1" $(( (e - s) / 1000000 ))
    fi
}
for scen in campaigns/*/scenario.yaml; do
    name=$(basename "$(dirname "$scen")")
    play="rm -rf $T/$name; $BIN init $T/$name --scenario $scen --secret-file campaigns/$name/demo.secret >/dev/null"
    for d in campaigns/"$name"/orders/turn-*; do play="$play && $BIN turn $T/$name $(ls "$d"/*.yaml | sort | tr '\n' ' ')"; done
    sh -c "$play" >/dev/null
    git clone -q "$T/$name" "$T/clone-$name"
    echo "== $name ($(ls -d campaigns/"$name"/orders/turn-* | wc -l) turns)"
    run "$name: init + every turn" "$play"
    run "$name: replay" "$BIN replay $T/$name"
    run "$name: verify (clone)" "$BIN verify $T/clone-$name"
    run "$name: tools/umpire-verify.mjs (clone)" "node tools/umpire-verify.mjs $T/clone-$name"
done
