#!/bin/sh
# run-all.sh BIN [NAME...] — runs every end-to-end test (t_*.sh), or only those named
# (t_verify or t_verify.sh), against the umpire binary BIN.
# Each test gets a fresh temporary directory; a test fails by exiting non-zero, and is
# skipped (SKIP, not PASS) by exiting 77 (lib.sh's skip).
# Tests run E2E_JOBS at a time (default: the number of online CPUs, at most 4); each line
# says how long its test took, and the summary comes last, in name order. The tests share
# nothing but the built tree: each has its own TMP and HOME, and takes free ports.
# The longest tests of the last run (build/e2e-times) start first, so the run ends together.
set -u
if [ "${1:-}" = --one ]; then
    # --one TEST RESULTS: one test, its line printed, its outcome in RESULTS/NAME
    t=$2 res=$3 name=$(basename "$2" .sh)
    TMP=$(mktemp -d "/tmp/umpire-e2e.$name.XXXXXX")
    export TMP
    start=$(date +%s)
    (cd "$TMP" && sh "$t") >"$TMP.log" 2>&1; rc=$?
    secs=$(($(date +%s) - start))
    if [ "$rc" -eq 0 ]; then
        echo "PASS $name (${secs} s)"; echo "pass $secs" >"$res/$name"; rm -rf "$TMP" "$TMP.log"
    elif [ "$rc" -eq 77 ]; then
        # skip (lib.sh): said out loud, never counted as a pass
        echo "SKIP $name: $(tail -n 1 "$TMP.log")"; echo "skip $secs" >"$res/$name"; rm -rf "$TMP" "$TMP.log"
    else
        # one write, so a parallel test's line cannot fall inside the log
        { echo "FAIL $name (${secs} s, log follows)"; sed 's/^/    /' "$TMP.log" | tail -n 40; } >"$res/$name.out"
        cat "$res/$name.out"; echo "fail $secs" >"$res/$name"
    fi
    exit 0
fi
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
jobs=${E2E_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
[ "$jobs" -le 4 ] || jobs=4
times=$ROOT/build/e2e-times
res=$(mktemp -d /tmp/umpire-e2e-results.XXXXXX)
trap 'rm -rf "$res"' EXIT
# E2E_DEMOS: every shipped campaign played once, as the demo plays it, for the tests that take
# a copy (lib.sh's demo_played) instead of playing it again; a demo that fails to play is left
# out, and the test that wants it plays it itself and says why it fails.
if [ -z "${E2E_DEMOS:-}" ] && grep -q demo_played $tests; then
    E2E_DEMOS=$res/demos
    mkdir "$E2E_DEMOS"
    for d in "$ROOT"/campaigns/*/scenario.yaml; do basename "$(dirname "$d")"; done |
        xargs -P "$jobs" -I '{}' sh -c 'TMP=$1/.tmp-$2; mkdir -p "$TMP"; export TMP
            . "$ROOT/tests/e2e/lib.sh"
            new_campaign "$2" "$1/$2.part" && play "$2" "$1/$2.part" && mv "$1/$2.part" "$1/$2"
            rm -rf "$TMP"' demos "$E2E_DEMOS" '{}' >/dev/null 2>&1
    export E2E_DEMOS
fi
# longest first by the last run's times (unknown tests first of all, then by name)
for t in $tests; do
    s=$(awk -v n="$(basename "$t" .sh)" '$1 == n { print $2 }' "$times" 2>/dev/null)
    echo "${s:-99999} $t"
done | sort -k1,1nr -k2,2 | cut -d' ' -f2- |
    xargs -P "$jobs" -I '{}' sh "$0" --one '{}' "$res"
pass=0; failed=""; skipped=""
for t in $tests; do
    name=$(basename "$t" .sh)
    read -r outcome secs <"$res/$name" 2>/dev/null || { outcome=fail; secs=0; }
    case $outcome in
    pass) pass=$((pass + 1)) ;;
    skip) skipped="$skipped $name" ;;
    *) failed="$failed $name" ;;
    esac
    echo "$name $secs"
done >"$res/times"
[ -d "$ROOT/build" ] && [ $# -eq 0 ] && cp "$res/times" "$times"
echo "e2e: $pass passed${skipped:+, skipped:$skipped}${failed:+, failed:$failed} ($jobs at a time)"
[ -z "$failed" ]
