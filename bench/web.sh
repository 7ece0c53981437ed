#!/bin/sh
# bench/web.sh BIN FLOOR — `make bench`, part 3 (issue 35 item 5): the browser side. Rows:
# the first view of a 100-turn campaign's pages (`umpire site`) in Debian's Chromium from
# file:// (the index and the last turn's page: first paint, document read, reports rendered,
# load, on the page's clock), against the floor of an empty page in the same browser; the JavaScript verifier on a 1,000-turn signed campaign (BENCH_SIGNED turns,
# bench/signed-campaign.sh) with node (tools/umpire-verify.mjs, the bundle of make web) against
# `umpire verify` of the same clone, and in the page (web/test/browser.mjs, the clone as a git
# bundle) against the same browser's run on a one-turn campaign (start, page, profile).
# Skipped, saying why, without node, Chromium or build/web. Public tools only; speed is
# measured here, never asserted in tests.
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
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
timed() { out=$1; shift; "$FLOOR" run "$@" >> "$out" || { echo "bench: failed: $*" >&2; exit 1; }; }
col() { awk -v c="$1" '{ print $c }' "$2" | median; }
cpu() { awk '{ print $2 + $3 }' "$1" | median; }
ms() { awk -v s="$1" 'BEGIN { printf "%.1f", s * 1000 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
row() { printf '%-44s %-34s %-10s %s\n' "$1" "$2" "$3" "$4"; }
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
sh bench/signed-campaign.sh "$BIN" "$T/c" "$N"
git clone -q "$T/c" "$T/clone"
git -C "$T/clone" bundle create "$T/c.bundle" --all 2>/dev/null
: >"$T/node"; : >"$T/c-verify"
for r in $(seq "$RUNS"); do
    # fresh clones: both verifiers remember the head they verified (refs/umpire/verified)
    rm -rf "$T/v1" "$T/v2"; git clone -q "$T/c" "$T/v1"; git clone -q "$T/c" "$T/v2"
    timed "$T/node" sh -c 'node build/web/umpire-verify.mjs "$1" >/dev/null; [ $? -le 3 ]' sh "$T/v1"
    timed "$T/c-verify" sh -c '"$1" verify "$2" >/dev/null; [ $? -le 3 ]' sh "$BIN" "$T/v2"
done
row "JS verifier, $N signed turns, node: wall" "$(ms "$(col 1 "$T/node")") ms (umpire verify $(ms "$(col 1 "$T/c-verify")") ms)" "$(ratio "$(col 1 "$T/node")" "$(col 1 "$T/c-verify")")" "< 10 s"
row "JS verifier, $N signed turns, node: cpu" "$(ms "$(cpu "$T/node")") ms (umpire verify $(ms "$(cpu "$T/c-verify")") ms)" "$(ratio "$(cpu "$T/node")" "$(cpu "$T/c-verify")")" ""
sh bench/signed-campaign.sh "$BIN" "$T/one" 1
git -C "$T/one" bundle create "$T/one.bundle" --all 2>/dev/null
: >"$T/page"; : >"$T/page1"
for r in $(seq "$RUNS"); do
    timed "$T/page" sh -c 'node web/test/browser.mjs build/web/index.html --bundle "$1" >"$2" &&
        grep -q "\"exit\": 3," "$2"' sh "$T/c.bundle" "$T/page.json" # the page reached the verdict
    timed "$T/page1" node web/test/browser.mjs build/web/index.html --bundle "$T/one.bundle"
done
row "JS verifier, $N signed turns, Chromium: wall" "$(ms "$(col 1 "$T/page")") ms (1 turn $(ms "$(col 1 "$T/page1")") ms)" "$(ratio "$(col 1 "$T/page")" "$(col 1 "$T/page1")")" "< 10 s"
