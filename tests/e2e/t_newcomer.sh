# The newcomer's rough edges (issue 33): "1 order file", did-you-mean for a rule system's name,
# the caret under a Latin-1 byte, and the ways forward when no beacon round can be fetched.
. "$ROOT/tests/e2e/lib.sh"
HR="$ROOT/campaigns/harbour-raid"
A1="$HR/orders/turn-0001/attacker.yaml"

# A rule system's name mistyped: on the command line and in a scenario.
expect 66 "$BIN" rules land-riad
has "$TMP/err" "unknown rule system 'land-riad'; did you mean 'land-raid'?"
expect 66 "$BIN" rules chess
has "$TMP/err" "unknown rule system 'chess'; one of: land-raid, nhis, hm-events, warmaster, reivers"
sed 's/^rules: land-raid$/rules: landraid/' "$HR/scenario.yaml" > typo.yaml
grep -q '^rules: landraid$' typo.yaml || die "the scenario has no 'rules: land-raid' line"
expect 65 "$BIN" init t --scenario typo.yaml --secret-file "$HR/demo.secret"
has "$TMP/err" "unknown rule system 'landraid' (see 'umpire rules'); did you mean 'land-raid'?"

# An order file saved as Latin-1: the caret under the 'é' (a byte that is not UTF-8), not
# under the space after it, and the byte named.
"$BIN" init d --scenario "$HR/scenario.yaml" --secret-file "$HR/demo.secret" --entropy none >/dev/null
printf 'campaign: harbour-raid\nturn: 1\nplayer: attacker\n# caf\351 au lait\norders: []\n' > latin1.yaml
expect 65 "$BIN" check d latin1.yaml
has "$TMP/err" "latin1.yaml:4:6: error: byte #xE9 is not UTF-8, perhaps Latin-1 'é'"
awk 'f { print; exit } /latin1.yaml:4:6/ { f = 1 }' "$TMP/err" > src.txt
awk 'f == 2 { print; exit } f { f++ } /latin1.yaml:4:6/ { f = 1 }' "$TMP/err" > caret.txt
[ "$(cat src.txt)" = '    4 | # caf\xe9 au lait' ] || { cat "$TMP/err"; die "source line"; }
[ "$(cat caret.txt)" = '      |      ^' ] || { cat "$TMP/err"; die "the caret is not under the Latin-1 byte"; }

# A beacon round that cannot be fetched (no network, a relay down): the ways forward.
SOURCE_DATE_EPOCH=1694770000 "$BIN" init b --scenario "$HR/scenario.yaml" \
    --secret-file "$HR/demo.secret" --visibility open --entropy beacon >/dev/null
SOURCE_DATE_EPOCH=1694775003 expect 0 "$BIN" close b "$A1"
has "$TMP/out" "Turn 1 closed: 1 order file, 0 players without; D_t "   # not "1 order files"
SOURCE_DATE_EPOCH=1694776003 expect 74 "$BIN" turn b --beacon-fetch --beacon-url http://127.0.0.1:1/x
has "$TMP/err" "cannot fetch http://127.0.0.1:1/x/public/657413"
has "$TMP/err" "turn 1 needs beacon round 657413; ways forward:"
has "$TMP/err" "(umpire turn b --beacon VALUE --beacon-signature SIG)"
has "$TMP/err" "(--beacon-url URL)"
has "$TMP/err" "(umpire init --entropy players)"

# The next orders' template names a schema a player's editor reaches: under the campaign's
# pages (publish.pages, https), not the umpire's installed file:///usr/local/... copy.
{ cat "$HR/scenario.yaml"; printf 'publish:\n  pages: https://example.org/harbour/\n'; } > pages.yaml
expect 0 "$BIN" init p --scenario pages.yaml --secret-file "$HR/demo.secret" --entropy none
expect 0 "$BIN" turn p "$A1"
has p/.umpire/outbox/defender/turn-0001/report.md \
    '# yaml-language-server: $schema=https://example.org/harbour/schemas/land-raid-orders.schema.json'
if grep -q 'file:///' p/.umpire/outbox/defender/turn-0001/report.md; then die "a file:/// schema"; fi
expect 0 python3 "$ROOT/tools/check-schemas.py" p   # campaign.yaml's publish.pages in its schema
{ cat "$HR/scenario.yaml"; printf 'publish:\n  pages: http://example.org/harbour\n'; } > http.yaml
expect 65 "$BIN" init h --scenario http.yaml --secret-file "$HR/demo.secret" --entropy none
has "$TMP/err" "'http://example.org/harbour' is not an https URL"
