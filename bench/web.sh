#!/bin/sh
# bench/web.sh BIN FLOOR — `make bench`, part 3 (issue 35 item 5): the browser side. Rows:
# the first view of a 100-turn campaign's pages (`umpire site`) in Debian's Chromium from
# file:// (the index and the last turn's page: first paint, document read, reports rendered,
# load, on the page's clock), against the floor of an empty page in the same browser; the
# JavaScript verifier on a 1,000-turn signed campaign (BENCH_SIGNED turns,
# bench/signed-campaign.sh, or the campaign BENCH_SIGNED_CAMPAIGN names) with node (the bundle
# of make web, on the cores and on one thread) against `umpire verify` of the same clone, and
# in the page (web/test/browser.mjs, the clone as a git bundle: the verification's wall and
# CPU time, and the whole run with the browser's start) against the same on a one-turn
# campaign. Skipped, saying why, without node, Chromium or build/web. Public tools only; speed
# is measured here, never asserted in tests.
set -eu
cd "$(dirname "$0")/.."
BIN=$(realpath "$1")
FLOOR=$(realpath "$2")
N=${BENCH_SIGNED:-1000}
RUNS=${BENCH_RUNS:-5}
command -v node >/dev/null 2>&1 && [ -x /usr/bin/chromium ] && [ -f build/web/verify.js ] &&
    [ -f web/node_modules/.package-lock.json ] ||
    { echo "bench web: skipped (needs node, /usr/bin/chromium and make web)"; exit 0; }
base=/tmp; [ -d /dev/shm ] && [ -w /dev/shm ] && base=/dev/shm
T=$(mktemp -d "$base/umpire-bench-web.XXXXXX")
trap 'rm -rf "$T"' EXIT
. bench/lib.sh
export SOURCE_DATE_EPOCH=1767225600

# --- the first view of a 100-turn campaign's pages -----------------------------------------------
# Each page's own clock (web/test/site.mjs): first paint (first-contentful-paint), the document
# read (DOMContentLoaded), the reports rendered by site.js (turn pages), the load event; and
# the wall time of the navigation as puppeteer sees it, against an empty page's.
sh bench/signed-campaign.sh "$BIN" "$T/c100" 100
"$BIN" site "$T/c100" "$T/site" >/dev/null 2>&1
printf '<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>x</title></head><body></body></html>\n' >"$T/site/blank.html"
: >"$T/views"
for r in $(seq "$RUNS"); do
    # a fresh browser and profile each run: the first view, nothing cached
    node web/test/site.mjs "$T/site" blank.html index.html turn-0100/index.html >"$T/views.json"
    node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
        for (const x of r) console.log(x.page, x.load_ms, x.first_paint_ms ?? -1, x.dom_ms ?? -1, x.rendered_ms ?? -1, x.load_event_ms ?? -1);' "$T/views.json" >>"$T/views"
done
view() { awk -v p="$1" -v c="$2" '$1 == p { print $c }' "$T/views" | median; }
b=$(view blank.html 2)
for p in index.html turn-0100/index.html; do
    rendered=""; [ "$(view "$p" 5)" = -1 ] || rendered=", reports rendered $(view "$p" 5) ms"
    row "site of 100 turns, first view: $p" "first paint $(view "$p" 3) ms, DOM $(view "$p" 4) ms$rendered, load $(view "$p" 6) ms" "" "< 1 s"
    row "site of 100 turns, $p: navigation wall" "$(view "$p" 2) ms (empty page $b ms)" "$(ratio "$(view "$p" 2)" "$b")" ""
done
row "site of 100 turns: files / bytes" "$(find "$T/site" -type f | wc -l) / $(du -sb "$T/site" | cut -f1)" "" ""

# --- the JavaScript verifier on N signed turns --------------------------------------------------
# $BENCH_SIGNED_CAMPAIGN: a campaign bench/signed-campaign.sh made before (N turns), cloned and
# never written, instead of playing one here (a quarter of an hour on a loaded machine)
if [ -n "${BENCH_SIGNED_CAMPAIGN:-}" ]; then
    git clone -q "$BENCH_SIGNED_CAMPAIGN" "$T/c"
    N=$(git -C "$T/c" tag -l 'turn-*' | grep -vc '^turn-0000$')
else
    sh bench/signed-campaign.sh "$BIN" "$T/c" "$N"
fi
git clone -q "$T/c" "$T/clone"
git -C "$T/clone" bundle create "$T/c.bundle" --all 2>/dev/null
# node: the bundle of make web on the cores (its workers check the rounds beside the main
# thread), and on one thread (UMPIRE_VERIFY_THREADS=1); the floor: umpire verify of the same
# clone
: >"$T/node"; : >"$T/node1"; : >"$T/c-verify"
for r in $(seq "$RUNS"); do
    # fresh clones: both verifiers remember the head they verified (refs/umpire/verified)
    rm -rf "$T/v1" "$T/v2" "$T/v3"; for v in v1 v2 v3; do git clone -q "$T/c" "$T/$v"; done
    timed "$T/node" sh -c 'node build/web/umpire-verify.mjs "$1" >/dev/null; [ $? -le 3 ]' sh "$T/v1"
    timed "$T/node1" sh -c 'UMPIRE_VERIFY_THREADS=1 node build/web/umpire-verify.mjs "$1" >/dev/null; [ $? -le 3 ]' sh "$T/v3"
    timed "$T/c-verify" sh -c '"$1" verify "$2" >/dev/null; [ $? -le 3 ]' sh "$BIN" "$T/v2"
done
row "JS verifier, $N signed turns, node: wall" "$(ms "$(col 1 "$T/node")") ms (umpire verify $(ms "$(col 1 "$T/c-verify")") ms)" "$(ratio "$(col 1 "$T/node")" "$(col 1 "$T/c-verify")")" "< 10 s"
row "JS verifier, $N signed turns, node: cpu" "$(ms "$(cpu "$T/node")") ms (umpire verify $(ms "$(cpu "$T/c-verify")") ms)" "$(ratio "$(cpu "$T/node")" "$(cpu "$T/c-verify")")" ""
row "JS verifier, node, $(nproc) threads vs 1: wall" "$(ms "$(col 1 "$T/node")") vs $(ms "$(col 1 "$T/node1")") ms ($(ms "$(cpu "$T/node1")") ms cpu)" "$(ratio "$(col 1 "$T/node")" "$(col 1 "$T/node1")")" ">= 0.5 ($(nproc) cores)"
# the page (web/test/browser.mjs, the clone as a git bundle): the verification alone, from the
# bundle given to the verdict shown (wall, and the CPU time of all the browser's processes,
# its workers' included), against the same on a one-turn campaign; and the whole run (the
# browser started, the page opened, the verification)
sh bench/signed-campaign.sh "$BIN" "$T/one" 1
git -C "$T/one" bundle create "$T/one.bundle" --all 2>/dev/null
: >"$T/page"; : >"$T/page1"; : >"$T/pagev"; : >"$T/pagev1"
field() { node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); console.log(r[process.argv[2]] / 1000)' "$1" "$2"; }
for r in $(seq "$RUNS"); do
    timed "$T/page" sh -c 'node web/test/browser.mjs build/web/index.html --bundle "$1" >"$2" &&
        grep -q "\"exit\": 3," "$2"' sh "$T/c.bundle" "$T/page.json" # the page reached the verdict
    echo "$(field "$T/page.json" verify_ms) $(field "$T/page.json" verify_cpu_ms)" >>"$T/pagev"
    timed "$T/page1" sh -c 'node web/test/browser.mjs build/web/index.html --bundle "$1" >"$2"' sh "$T/one.bundle" "$T/page1.json"
    echo "$(field "$T/page1.json" verify_ms) $(field "$T/page1.json" verify_cpu_ms)" >>"$T/pagev1"
done
row "JS verifier, $N signed turns, Chromium: wall" "$(ms "$(col 1 "$T/pagev")") ms (1 turn $(ms "$(col 1 "$T/pagev1")") ms)" "$(ratio "$(col 1 "$T/pagev")" "$(col 1 "$T/pagev1")")" "< 10 s"
row "JS verifier, $N signed turns, Chromium: cpu" "$(ms "$(col 2 "$T/pagev")") ms (1 turn $(ms "$(col 2 "$T/pagev1")") ms)" "$(ratio "$(col 2 "$T/pagev")" "$(col 2 "$T/pagev1")")" ""
row "  the whole run (browser, page, verify): wall" "$(ms "$(col 1 "$T/page")") ms (1 turn $(ms "$(col 1 "$T/page1")") ms)" "$(ratio "$(col 1 "$T/page")" "$(col 1 "$T/page1")")" ""
