#!/bin/sh
# run-all.sh BIN — runs every end-to-end test (t_*.sh) against the umpire binary BIN.
# Each test gets a fresh temporary directory; a test fails by exiting non-zero, and is
# skipped (SKIP, not PASS) by exiting 77 (lib.sh's skip).
set -u
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export BIN ROOT
pass=0; failed=""; skipped=""
for t in "$ROOT"/tests/e2e/t_*.sh; do
    name=$(basename "$t" .sh)
    TMP=$(mktemp -d "/tmp/umpire-e2e.$name.XXXXXX")
    export TMP
    (cd "$TMP" && sh "$t") >"$TMP.log" 2>&1; rc=$?
    if [ "$rc" -eq 0 ]; then
        echo "PASS $name"; pass=$((pass + 1)); rm -rf "$TMP" "$TMP.log"
    elif [ "$rc" -eq 77 ]; then
        # skip (lib.sh): said out loud, never counted as a pass
        echo "SKIP $name: $(tail -n 1 "$TMP.log")"; skipped="$skipped $name"; rm -rf "$TMP" "$TMP.log"
    else
        echo "FAIL $name (log follows)"; sed 's/^/    /' "$TMP.log" | tail -n 40; failed="$failed $name"
    fi
done
echo "e2e: $pass passed${skipped:+, skipped:$skipped}${failed:+, failed:$failed}"
[ -z "$failed" ]
