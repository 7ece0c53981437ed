# The verifier page (build/web/index.html, made by `make web`) in a real browser: Debian's
# Chromium, headless, a fresh profile, driven by puppeteer-core (web/test/browser.mjs) opens it
# from file://, gives it a clone (a `git bundle`, or the clone's folder), and shows the same
# verdict as tools/umpire-verify.mjs and the same outcome as `umpire verify`, on a demo played
# on the (signed) demo beacon, on a campaign of entropy none, and on a tampered clone; with no
# console error and no request outside the page's folder (the browser's request log).
. "$ROOT/tests/e2e/lib.sh"
command -v node >/dev/null 2>&1 || skip "no node (tools/install-deps test installs it)"
[ -x /usr/bin/chromium ] || skip "no /usr/bin/chromium (tools/install-deps test installs it)"
PAGE="$ROOT/build/web/index.html"
[ -f "$PAGE" ] && [ -f "$ROOT/web/node_modules/.package-lock.json" ] || skip "no build/web: make web"
JS="$ROOT/tools/umpire-verify.mjs"

# page WANT-EXIT ARGS...: the page's verdict for ARGS (--bundle FILE, --folder DIR, --receipt
# FILE) is WANT-EXIT's, shown with no console or page error and no request outside the page.
page() {
    _want=$1; shift
    node "$ROOT/web/test/browser.mjs" "$PAGE" "$@" >"$TMP/page.json" || { cat "$TMP/page.json"; die "browser.mjs failed"; }
    node -e '
        const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
        const bad = [];
        if (r.exit !== Number(process.argv[2])) bad.push(`exit ${r.exit}, ${process.argv[2]} expected`);
        if (r.console_errors.length) bad.push("console errors: " + r.console_errors.join(" | "));
        if (r.page_errors.length) bad.push("page errors: " + r.page_errors.join(" | "));
        if (r.outside_requests.length) bad.push("requests outside the page: " + r.outside_requests.join(" "));
        if (!r.says_no_rules) bad.push("the page does not say it does not re-run the rules (umpire verify does)");
        if ([0, 3, 65].includes(r.exit) && !r.lines.includes(r.verdict)) bad.push(`the lines do not hold the verdict shown (${r.verdict})`);
        if (bad.length) { console.log(JSON.stringify(r, null, 1)); console.log(bad.join("\n")); process.exit(1); }
        require("fs").writeFileSync(process.argv[1] + ".lines", r.lines.join("\n") + "\n");
    ' "$TMP/page.json" "$_want" || die "the page ($*)"
}
# same DIR: the page shows exactly the lines tools/umpire-verify.mjs prints for DIR.
same() {
    node "$JS" "$1" >"$TMP/cli.out" 2>/dev/null || true
    diff "$TMP/cli.out" "$TMP/page.json.lines" || die "the page and tools/umpire-verify.mjs differ on $1"
}

# The demo on the demo beacon: every round's BLS signature checked in the browser.
demo_played aspenbach-1809 "$TMP/a"
git clone -q "$TMP/a" "$TMP/a-clone"
git -C "$TMP/a-clone" bundle create "$TMP/a.bundle" --all 2>/dev/null
page 3 --bundle "$TMP/a.bundle"
has "$TMP/page.json" "BLS signature checked"
has "$TMP/page.json" "verdict: consistent, not proven fair"
same "$TMP/a-clone"
set +e; "$BIN" verify "$TMP/a-clone" >/dev/null 2>&1; rc=$?; set -e
[ "$rc" -eq 0 ] || [ "$rc" -eq 3 ] || die "umpire verify exit $rc on the demo"
# the clone's folder, as a player drops it
page 3 --folder "$TMP/a-clone"
has "$TMP/page.json" "turn 9: ok: close, key, digest, beacon round "

# Entropy none (one step a turn), and a die value edited in an export, tag moved: failed in
# the page as in umpire verify.
C="$TMP/c"
new_campaign harbour-raid "$C" --entropy none --visibility open; play harbour-raid "$C" 2
git clone -q "$C" "$TMP/c-clone"; git -C "$TMP/c-clone" bundle create "$TMP/c.bundle" --all 2>/dev/null
page 3 --bundle "$TMP/c.bundle"
has "$TMP/page.json" "reason: entropy-none: "
git clone -q "$C" "$TMP/die"
awk '/^  value: / { if (n++ == 1) { $0 = "  value: " ($2 % 6) + 1 } } { print }' "$C/journal/turn-0002.yaml" >"$TMP/die/journal/turn-0002.yaml"
git -C "$TMP/die" -c user.name=m -c user.email=m@example.org commit -qam tamper
git -C "$TMP/die" tag -f turn-0002 >/dev/null
git -C "$TMP/die" bundle create "$TMP/die.bundle" --all 2>/dev/null
page 65 --bundle "$TMP/die.bundle"
has "$TMP/page.json" "verify: FAILED: turn 2: die 1 differs from the seed"
# the tampered clone's folder (its files read as the verifier needs them): failed the same way
page 65 --folder "$TMP/die"
has "$TMP/page.json" "verify: FAILED: turn 2: die 1 differs from the seed"
same "$TMP/die"
expect 65 "$BIN" verify "$TMP/die"
same "$TMP/die"
# not a bundle: the page says so (exit 66), and nothing else happens
printf 'hello\n' >"$TMP/not.bundle"
page 66 --bundle "$TMP/not.bundle"
has "$TMP/page.json" "not a git bundle"

# A close time-stamped by a test authority (tests/tsa, as t_timestamps): no witness until the
# player gives the page the authority's CA certificate, then the close's token witnesses it,
# the same lines as tools/umpire-verify.mjs --trust-tsa.
if command -v openssl >/dev/null 2>&1; then
    sh "$ROOT/tests/tsa/make-tsa.sh" tsa
    /usr/bin/python3 "$ROOT/tests/tsa/tsa-server.py" tsa http & server=$!
    trap 'kill $server 2>/dev/null || true' EXIT
    i=0; while [ ! -f http/port ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
    [ -f http/port ] || die "the time-stamp server did not start"
    H="$ROOT/campaigns/harbour-raid"
    NOW=$(date +%s)
    expect 0 env SOURCE_DATE_EPOCH="$NOW" "$BIN" init ts --scenario "$H/scenario.yaml" --secret-file "$H/demo.secret" \
        --visibility open --demo-beacon --tsa "test=http://127.0.0.1:$(cat http/port)/"
    expect 0 env SOURCE_DATE_EPOCH="$NOW" "$BIN" close ts "$H/orders/turn-0001/attacker.yaml"
    git clone -q ts "$TMP/ts-clone"; git -C "$TMP/ts-clone" bundle create "$TMP/ts.bundle" --all 2>/dev/null
    page 3 --bundle "$TMP/ts.bundle"
    has "$TMP/page.json" "): no witness: its signer does not chain to an authority this verifier trusts"
    page 3 --bundle "$TMP/ts.bundle" --trust-tsa tsa/testca.pem
    has "$TMP/page.json" "turn 1: time stamp (test, genTime "
    has "$TMP/page.json" "): witnesses the close"
    node "$JS" "$TMP/ts-clone" --trust-tsa tsa/testca.pem >"$TMP/cli.out" 2>/dev/null || true
    diff "$TMP/cli.out" "$TMP/page.json.lines" || die "the page and tools/umpire-verify.mjs --trust-tsa differ"
    kill $server 2>/dev/null || true
else
    echo "skipped: the time-stamped close (no openssl command)"
fi

# Sealed: a player's outbox of one turn given to the page (his report, view and salt open the
# export's commitments); the same file edited fails.
S="$TMP/s"
new_campaign harbour-raid "$S" --entropy none; play harbour-raid "$S" 1
git clone -q "$S" "$TMP/s-clone"; git -C "$TMP/s-clone" bundle create "$TMP/s.bundle" --all 2>/dev/null
cp -r "$S/.umpire/outbox/attacker/turn-0001" "$TMP/view-ok"
page 3 --bundle "$TMP/s.bundle" --view "$TMP/view-ok"
has "$TMP/page.json" "view view-ok: ok: attacker's orders for turn 1 are the ones committed"
cp -r "$TMP/view-ok" "$TMP/view-bad"; echo "# edited" >>"$TMP/view-bad/report.md"
page 65 --bundle "$TMP/s.bundle" --view "$TMP/view-bad"
has "$TMP/page.json" "view view-bad: view-bad/report.md does not open the commitment journal/turn-0001.yaml holds for attacker's report of turn 1"
