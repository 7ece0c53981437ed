# The sealing page (build/web/seal.html, issue 36 item 3) in a real browser: Debian's Chromium,
# headless, driven by puppeteer-core (web/test/seal-browser.mjs), opened from file://, given a
# campaign.yaml with `orders: timelocked` (a demo-beacon campaign, a schedule, the umpire's
# recipient) and a shipped order file: the file it offers, <name>.age, is locked to R(turn)
# computed here independently, and `umpire-tlock open` with the demo beacon's signature of that
# round and the umpire's identity gives back the order file's bytes. A file that breaks the
# rule system's schema is refused. Served over http beside campaign.yaml, the page reads it and
# asks for nothing but its own files. No console error, no request outside the page's folder.
. "$ROOT/tests/e2e/lib.sh"
command -v node >/dev/null 2>&1 || skip "no node (tools/install-deps test installs it)"
[ -x /usr/bin/chromium ] || skip "no /usr/bin/chromium (tools/install-deps test installs it)"
PAGE="$ROOT/build/web/seal.html"
TLOCK="$ROOT/build/web/umpire-tlock.mjs"
[ -f "$PAGE" ] && [ -f "$TLOCK" ] || skip "no build/web: make web"

# page PAGE CAMPAIGN ORDERS OUT: the answer of the page (a file or an http URL) in
# $TMP/page.json, the sealed file in OUT.
page() {
    node "$ROOT/web/test/seal-browser.mjs" "$1" "$2" "$3" "$4" >"$TMP/page.json" || { cat "$TMP/page.json"; die "seal-browser.mjs failed"; }
    node -e '
        const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
        const bad = [];
        if (r.console_errors.length) bad.push("console errors: " + r.console_errors.join(" | "));
        if (r.page_errors.length) bad.push("page errors: " + r.page_errors.join(" | "));
        if (r.outside_requests.length) bad.push("requests outside the page: " + r.outside_requests.join(" "));
        if (bad.length) { console.log(JSON.stringify(r, null, 1)); console.log(bad.join("\n")); process.exit(1); }
    ' "$TMP/page.json" || die "the page ($*)"
}
field() { node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); console.log(r[process.argv[2]]);' "$TMP/page.json" "$1"; }

C="$TMP/c"
new_campaign aspenbach-1809 "$C"
node "$TLOCK" keygen >"$TMP/umpire.id"
recipient=$(sed -n 's/^# public key: //p' "$TMP/umpire.id")
cat >>"$C/campaign.yaml" <<YAML
schedule:
  first_deadline: 2026-03-02T18:00:00Z
  every: 2d
  grace: 1h
orders: timelocked
timelock:
  recipient: $recipient
YAML
ORDERS="$TMP/french.yaml"
cp "$ROOT/campaigns/aspenbach-1809/orders/turn-0001/french.yaml" "$ORDERS"
sed -i 's/^turn: 1$/turn: 3/' "$ORDERS"
grep -q '^turn: 3$' "$ORDERS" || die "the order file names no turn"

page "$PAGE" "$C/campaign.yaml" "$ORDERS" "$TMP/out.age"
[ "$(field state)" = sealed ] || { cat "$TMP/page.json"; die "the page did not seal"; }
[ "$(field download)" = french.yaml.age ] || die "the download is not named french.yaml.age"

# R(3), here in shell arithmetic: deadline 2026-03-02T18:00Z + 2 * 2d, + grace 1h + the close
# window 300 s + beacon_delay, then the first demo-beacon round out at or after it.
genesis=$(sed -n 's/^  beacon_genesis: //p' "$C/campaign.yaml")
period=$(sed -n 's/^  beacon_period: //p' "$C/campaign.yaml")
delay=$(sed -n 's/^  beacon_delay: //p' "$C/campaign.yaml")
at=$(( $(date -u -d 2026-03-02T18:00:00Z +%s) + 2 * 2 * 86400 + 3600 + 300 + delay ))
R=$(( (at - genesis + period - 1) / period + 1 ))
[ "$(field round)" = "$R" ] || die "the page sealed to round $(field round), R(3) is $R"
has "$TMP/page.json" "turn 3 closes on round $R of chain "
chain=$(sed -n 's/^  beacon_chain: //p' "$C/campaign.yaml")
node "$TLOCK" inspect "$TMP/out.age" >"$TMP/inspect"
printf 'round %s\nchain %s\n' "$R" "$chain" | diff - "$TMP/inspect" || die "inspect disagrees"

# The umpire opens it after the round with the demo beacon's signature and his identity.
key=$(sed -n 's/^  beacon_public_key: //p' "$C/campaign.yaml")
printf '{"public_key":"%s","period":%s,"genesis_time":%s,"hash":"%s","schemeID":"bls-unchained-g1-rfc9380","metadata":{"beaconID":"umpire-demo"}}\n' \
    "$key" "$period" "$genesis" "$chain" >"$TMP/info.json"
sig=$("$ROOT/tools/demo-beacon" "$R" | sed -n 2p)
node "$TLOCK" open --round "$R" --signature "$sig" --chain-info "$TMP/info.json" --identity "$TMP/umpire.id" \
    <"$TMP/out.age" >"$TMP/opened"
cmp "$ORDERS" "$TMP/opened" || die "the opened file differs from the order file"
# without the identity: only the inner layer, which does not show the orders
node "$TLOCK" open --round "$R" --signature "$sig" --chain-info "$TMP/info.json" <"$TMP/out.age" >"$TMP/inner"
head -1 "$TMP/inner" | grep -qx -- '-----BEGIN AGE ENCRYPTED FILE-----' || die "the inner layer is not an age file"
! grep -q french "$TMP/inner" || die "the inner layer shows the orders"

# Served over http with the campaign's pages: the page reads campaign.yaml and overrides.yaml
# beside it, asks for nothing else (a static server on the loopback, which logs every path asked).
mkdir "$TMP/site"
cp "$ROOT/build/web/seal.html" "$ROOT/build/web/seal.js" "$ROOT/build/web/verify.css" "$C/campaign.yaml" "$TMP/site/"
printf 'overrides: []\n' >"$TMP/site/overrides.yaml" # as umpire site writes it without a schedule change
node -e '
    const http = require("http"), fs = require("fs"), path = require("path");
    const [dir, portFile, log] = process.argv.slice(1);
    const s = http.createServer((q, r) => {
        fs.appendFileSync(log, q.url + "\n");
        const f = path.join(dir, path.basename(decodeURIComponent(q.url.split("?")[0])));
        fs.readFile(f, (e, b) => { if (e) { r.writeHead(404); r.end(); } else { r.writeHead(200); r.end(b); } });
    });
    s.listen(0, "127.0.0.1", () => fs.writeFileSync(portFile, String(s.address().port)));
' "$TMP/site" "$TMP/port" "$TMP/served.log" &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
n=0; while [ ! -s "$TMP/port" ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n + 1)); done
[ -s "$TMP/port" ] || die "the static server did not start"
page "http://127.0.0.1:$(cat "$TMP/port")/seal.html" - "$ORDERS" "$TMP/served.age"
[ "$(field state)" = sealed ] || { cat "$TMP/page.json"; die "the page served with campaign.yaml did not seal"; }
[ "$(field round)" = "$R" ] || die "served: round $(field round), not $R"
node "$TLOCK" open --round "$R" --signature "$sig" --chain-info "$TMP/info.json" --identity "$TMP/umpire.id" \
    <"$TMP/served.age" | cmp "$ORDERS" - || die "the file sealed by the served page does not open to the order file"
sort -u "$TMP/served.log" | tr '\n' ' ' >"$TMP/paths"
[ "$(cat "$TMP/paths")" = "/campaign.yaml /overrides.yaml /seal.html /seal.js /verify.css " ] || die "the served page asked for $(cat "$TMP/paths")"
kill "$server"; trap - EXIT

# A key the schema does not know: refused, nothing offered.
{ cat "$ORDERS"; echo "bogus: 1"; } >"$TMP/bad.yaml"
page "$PAGE" "$C/campaign.yaml" "$TMP/bad.yaml" "$TMP/bad.age"
[ "$(field state)" = refused ] || die "a file breaking the schema was sealed"
has "$TMP/page.json" "hm-events-orders.schema.json"
has "$TMP/page.json" "bogus"
[ ! -e "$TMP/bad.age" ] || die "a refused file was offered"
echo "ok"
