# umpire site DIR OUT (issue 35 item 1): the campaign's static pages. On a shipped demo with
# maps (harbour-raid, open): every turn's page, its map copied, the dice table with each die's
# derivation in the words of `umpire audit DIR T:J`, the same bytes twice, the schemas' $id
# on the campaign's pages; on a sealed campaign: no byte of a side's order files or private
# report before the reveal, every player's view after it. Then in Debian's Chromium from
# file:// (web/test/site.mjs): no console error, no request outside the site, the map and the
# dice table shown, a derivation opened; and the verifier page copied into the site gives,
# from the clone, the verdict `umpire verify` gives.
. "$ROOT/tests/e2e/lib.sh"
[ -f "$ROOT/build/web/site.js" ] || skip "no build/web: make web"
HR="$ROOT/campaigns/harbour-raid"

# The demo with maps played open, its pages made twice: the same bytes.
{ cat "$HR/scenario.yaml"; printf 'publish:\n  pages: https://example.org/harbour/\n'; } >"$TMP/pages.yaml"
# shellcheck disable=SC2046
"$BIN" init "$TMP/h" --scenario "$TMP/pages.yaml" --secret-file "$HR/demo.secret" \
    $(cat "$HR/demo.init") --visibility open >/dev/null
play harbour-raid "$TMP/h" 3   # open, the demo's first turns (it is played sealed: its rounds
# are tuned for the sealed game, whose dice differ from an open one's, so that later orders may
# not fit an open game)
expect 0 "$BIN" site "$TMP/h" "$TMP/s1"
sum=$(sha256sum <"$ROOT/build/web/verify.js" | cut -c1-64)
has "$TMP/out" "$sum  verify/verify.js"
expect 0 "$BIN" site "$TMP/h" "$TMP/s2"
diff -r "$TMP/s1" "$TMP/s2" >/dev/null || die "two runs of umpire site differ"
last=$(git -C "$TMP/h" tag -l 'turn-*' | sort | tail -1)
for t in $(git -C "$TMP/h" tag -l 'turn-*'); do
    [ -f "$TMP/s1/$t/index.html" ] || die "no page for $t"
done
ls "$TMP/s1/$last/"*.svg >/dev/null 2>&1 || die "no map copied for $last"
git -C "$TMP/h" show "$last:reports/$last/attacker.svg" >"$TMP/map.svg"
cmp "$TMP/s1/$last/attacker.svg" "$TMP/map.svg" ||
    die "the map is not the committed one"
has "$TMP/s1/index.html" "not provably fair: "
has "$TMP/s1/index.html" "$(sed -n 's/^  commitment: //p' "$TMP/h/campaign.yaml")"
has "$TMP/s1/index.html" "$(git -C "$TMP/h" show turn-0000:campaign.yaml | sha256sum | cut -c1-64)"
# the schemas, their $id on the campaign's pages, as the order template's $schema names them
has "$TMP/s1/schemas/land-raid-orders.schema.json" '"$id": "https://example.org/harbour/schemas/land-raid-orders.schema.json"'
cat "$TMP/h/reports/$last/"*.md >"$TMP/last.md"
has "$TMP/last.md" '$schema=https://example.org/harbour/schemas/land-raid-orders.schema.json'
# die 1 of turn 2 explained as `umpire audit` explains it
expect 0 "$BIN" audit "$TMP/h" 2:1
sed -n '/^die      j = /,/^         value = /p' "$TMP/out" >"$TMP/audit.txt"
[ -s "$TMP/audit.txt" ] || die "umpire audit printed no die"
python3 - "$TMP/s1/turn-0002/index.html" "$TMP/audit.txt" <<'PY' || die "the page's derivation of die 1 is not umpire audit's"
import html, re, sys
page = open(sys.argv[1]).read()
row = re.search(r'<tr id="die-1">.*?<pre>(.*?)</pre>', page, re.S).group(1)
sys.exit(html.unescape(row) != open(sys.argv[2]).read())
PY
# HTML in a player's words is text: an order comment or an event never makes markup
grep -q '<script>' "$TMP/s1"/turn-*/index.html && die "a page holds a <script> element of a report"

# The README's "Checking a game with only a browser": every command as shown, its output as
# shown (tests/e2e/readme_check.py), umpire on the PATH.
mkdir -p "$TMP/readme/bin" "$TMP/readme/rec"
ln -s "$BIN" "$TMP/readme/bin/umpire"
cp -r "$TMP/h" "$TMP/readme/harbour"
git clone -q "$TMP/readme/harbour" "$TMP/readme/harbour-clone"
: >"$TMP/readme/rec/index"
awk '/^```/ { fence = !fence } /^## / && !fence { on = ($0 == "## Checking a game with only a browser"); next }
    on && fence && /^\$ / { sub(/^\$ /, ""); print }' "$ROOT/README.md" >"$TMP/readme/cmds"
[ "$(wc -l <"$TMP/readme/cmds")" -ge 3 ] || die "no commands in the README's browser section"
n=0
while IFS= read -r cmd; do
    n=$((n + 1))
    (cd "$TMP/readme" && PATH="$TMP/readme/bin:$PATH" sh -c "$cmd") >"$TMP/readme/rec/$n" 2>&1 ||
        { cat "$TMP/readme/rec/$n"; die "the README's '$cmd' failed"; }
    printf '%s\t%s\n' "$cmd" "$TMP/readme/rec/$n" >>"$TMP/readme/rec/index"
done <"$TMP/readme/cmds"
expect 0 python3 "$ROOT/tests/e2e/readme_check.py" "$ROOT/README.md" "## Checking a game with only a browser" "$TMP/readme/rec/index"
[ -s "$TMP/readme/harbour.bundle" ] || die "the README's bundle was not made"

# docs/guide-umpire.md, "The campaign's pages": its commands, as shown, push the pages to a
# `pages` branch of the players' remote (a bare repository made by umpire publish), after turn
# 2 and again after turn 3: the second push follows the first (no force).
awk '/^### The campaign.s pages/ { on = 1; next } on && /^```/ { if (fence) exit; fence = 1; next }
    on && fence' "$ROOT/docs/guide-umpire.md" >"$TMP/pages.sh"
grep -q 'push -q /srv/git/harbour-raid.git pages' "$TMP/pages.sh" || die "no push in the guide's pages commands"
sed -i "s|/srv/git/harbour-raid.git|$TMP/remote.git|" "$TMP/pages.sh"
mkdir "$TMP/pages" && cd "$TMP/pages"
# shellcheck disable=SC2046
"$BIN" init harbour --scenario "$HR/scenario.yaml" --secret-file "$HR/demo.secret" $(cat "$HR/demo.init") --visibility open >/dev/null
play harbour-raid "$TMP/pages/harbour" 2
expect 0 "$BIN" publish harbour "$TMP/remote.git"
for last in 2 3; do
    [ "$last" = 2 ] || (cd "$ROOT" && tools/demo-play "$BIN" harbour-raid "$TMP/pages/harbour" 3 3 >/dev/null)
    PATH="$TMP/readme/bin:$PATH" sh -e "$TMP/pages.sh" >"$TMP/pages.out" 2>&1 || { cat "$TMP/pages.out"; die "the guide's pages commands failed"; }
    git -C "$TMP/remote.git" show pages:index.html | cmp - harbour-site/index.html || die "the remote's pages are not the site"
    git -C "$TMP/remote.git" show "pages:turn-000$last/index.html" >/dev/null || die "the remote's pages lack turn $last"
done
[ "$(git -C "$TMP/remote.git" rev-list --count pages)" = 2 ] || die "the pages branch is not two commits, one after the other"
git -C "$TMP/remote.git" show pages:.nojekyll >/dev/null || die "no .nojekyll on the pages branch"
cd "$TMP"

# Bad usage and a folder that is no campaign.
expect 64 "$BIN" site "$TMP/h"
has "$TMP/err" "see 'umpire help site'"
expect 66 "$BIN" site "$TMP/nothing" "$TMP/s3"
[ ! -e "$TMP/s3" ] || die "umpire site wrote pages on error"

# The shipped demo as the demo plays it (sealed), before and after the reveal.
C="$TMP/c"
demo_played harbour-raid "$C"
grep -qx 'visibility: sealed' "$C/campaign.yaml" || die "the demo is not sealed"
expect 0 "$BIN" site "$C" "$TMP/sealed"
has "$TMP/sealed/turn-0002/index.html" "stays private until the reveal"
cat "$TMP/sealed"/turn-*/index.html >"$TMP/sealed.html"
for d in "$HR"/orders/turn-*; do
    for f in "$d"/*.yaml; do
        sed -n 's/^ *# *//p' "$f" | awk 'length($0) >= 12' | while IFS= read -r line; do
            if grep -qF -- "$line" "$TMP/sealed.html"; then die "the sealed site holds a comment of $f: $line"; fi
        done
    done
done
for p in attacker defender; do
    grep -qF "report for $p" "$TMP/sealed.html" && die "the sealed site shows $p's report before the reveal"
done
"$BIN" reveal "$C" >/dev/null
expect 0 "$BIN" site "$C" "$TMP/revealed"
# the result at game end, in the words umpire status prints
has "$TMP/revealed/index.html" "The game is over ("
"$BIN" status "$C" >"$TMP/status.txt" 2>&1 || true
grep -q "^result: ." "$TMP/status.txt" || { cat "$TMP/status.txt"; die "umpire status shows no result"; }
has "$TMP/revealed/index.html" "$(sed -n 's/^result: //p' "$TMP/status.txt" | sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g; s/"/\&quot;/g' | sed "s/'/\&#39;/g")"
for p in attacker defender; do
    has "$TMP/revealed/turn-0002/index.html" "report for $p"
    [ -f "$TMP/revealed/turn-0002/$p/map.svg" ] || die "no map of $p after the reveal"
    # the view re-rendered from the reveal is the one the player was mailed
    cmp "$TMP/revealed/turn-0002/$p/map.svg" "$C/.umpire/outbox/$p/turn-0002/map.svg" ||
        die "$p's map after the reveal is not the one he was sent"
done

# In the browser, from file://.
command -v node >/dev/null 2>&1 || skip "no node (tools/install-deps test installs it)"
[ -x /usr/bin/chromium ] || skip "no /usr/bin/chromium (tools/install-deps test installs it)"
[ -f "$ROOT/web/node_modules/.package-lock.json" ] || skip "no web/node_modules: make web"
# The bundle is reproducible: built again elsewhere from the same package-lock.json, the same
# bytes as the one umpire site copied (so a player compares its SHA-256 with the release's).
(cd "$ROOT/web" && node build.mjs "$TMP/web-again" >/dev/null)
for f in verify.js site.js; do
    cmp "$TMP/web-again/$f" "$ROOT/build/web/$f" || die "two builds of $f differ"
done
cmp "$TMP/web-again/verify.js" "$TMP/s1/verify/verify.js" || die "the site's verifier is not the bundle"
node "$ROOT/web/test/site.mjs" "$TMP/s1" index.html turn-0002/index.html >"$TMP/site.json"
node "$ROOT/web/test/site.mjs" "$TMP/revealed" turn-0002/index.html >"$TMP/revealed.json"
node -e '
    const bad = [];
    for (const f of process.argv.slice(1)) for (const r of JSON.parse(require("fs").readFileSync(f, "utf8"))) {
        const at = `${f}: ${r.page}`;
        if (r.console_errors.length) bad.push(`${at}: console errors: ${r.console_errors.join(" | ")}`);
        if (r.page_errors.length) bad.push(`${at}: page errors: ${r.page_errors.join(" | ")}`);
        if (r.outside_requests.length) bad.push(`${at}: requests outside the site: ${r.outside_requests.join(" ")}`);
        if (r.failed.length) bad.push(`${at}: failed: ${r.failed.join(" ")}`);
        if (r.page === "index.html") { if (r.turn_rows < 2) bad.push(`${at}: no table of turns`); continue; }
        if (r.markdown_left || !r.rendered) bad.push(`${at}: the reports are not rendered`);
        if (!r.images.length || r.images.some((i) => !(i.width > 0))) bad.push(`${at}: a map not shown: ${JSON.stringify(r.images)}`);
        if (!(r.dice_rows > 0)) bad.push(`${at}: no dice table`);
        if (!r.derivation_shown || !r.derivation.includes("value = 1 + x mod n")) bad.push(`${at}: the derivation does not open`);
    }
    if (bad.length) { console.log(bad.join("\n")); process.exit(1); }
' "$TMP/site.json" "$TMP/revealed.json" || die "the pages in Chromium"
# the verifier page in the site, given the clone: umpire verify's verdict
git clone -q "$TMP/h" "$TMP/h-clone"
set +e; "$BIN" verify "$TMP/h-clone" >"$TMP/verify.out" 2>&1; want=$?; set -e
node "$ROOT/web/test/browser.mjs" "$TMP/s1/verify/index.html" --folder "$TMP/h-clone" >"$TMP/page.json"
node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    if (r.exit !== Number(process.argv[2]) || r.console_errors.length || r.outside_requests.length) { console.log(JSON.stringify(r, null, 1)); process.exit(1); }
' "$TMP/page.json" "$want" || die "the site's verifier page and umpire verify differ (exit $want)"
grep -q "^verdict: " "$TMP/verify.out" && has "$TMP/page.json" "$(grep '^verdict: ' "$TMP/verify.out")"
true
