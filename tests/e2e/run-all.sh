#!/bin/sh
# run-all.sh BIN — runs every end-to-end test (t_*.sh) against the umpire binary BIN.
# Each test gets a fresh temporary directory; a test fails by exiting non-zero.
set -u
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export BIN ROOT
pass=0; failed=""
for t in "$ROOT"/tests/e2e/t_*.sh; do
    name=$(basename "$t" .sh)
    TMP=$(mktemp -d "/tmp/umpire-e2e.$name.XXXXXX")
    export TMP
    if (cd "$TMP" && sh "$t") >"$TMP.log" 2>&1; then
        echo "PASS $name"; pass=$((pass + 1)); rm -rf "$TMP" "$TMP.log"
    else
        echo "FAIL $name (log follows)"; sed 's/^/    /' "$TMP.log" | tail -n 40; failed="$failed $name"
    fi
done
echo "e2e: $pass passed${failed:+, failed:$failed}"
[ -z "$failed" ]
