#!/bin/sh
# run-all.sh BIN [NAME...] — runs every end-to-end test (t_*.sh), or only those named
# (t_verify or t_verify.sh), against the umpire binary BIN.
# Each test gets a fresh temporary directory; a test fails by exiting non-zero, and is
# skipped (SKIP, not PASS) by exiting 77 (lib.sh's skip).
set -u
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export BIN ROOT
shift
tests=""
if [ $# -eq 0 ]; then
    tests=$(ls "$ROOT"/tests/e2e/t_*.sh)
else
    for n in "$@"; do
        n=${n%.sh}
        [ -f "$ROOT/tests/e2e/$n.sh" ] || { echo "run-all: no test $n" >&2; exit 64; }
        tests="$tests $ROOT/tests/e2e/$n.sh"
    done
fi
pass=0; failed=""; skipped=""
for t in $tests; do
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
