# t_long_campaign_mail.sh — a long campaign played by mail with `umpire run` alone (issue 37,
# "Done when"): the Land Raid example (harbour-raid) under a schedule, entropy beacon (umpire's
# demo beacon, signed rounds from tools/demo-beacon), through a missed turn (closed at the
# deadline without the player), an extension asked by mail (`extend 24h`), a pause and its
# early resume, a stand-in taking a seat (the old address refused from then on), and the end
# by a side's signed concession; `umpire verify` and the
# JavaScript verifier pass on a fresh clone after each step. Then a history whose close
# carries an override made after the deadline it moves: every verifier fails it, naming why.
# The defender's second miss in a row puts his side in civil disorder (schedule.civil_disorder
# 2, issue 37 item 1), which his next orders end.
. "$ROOT/tests/e2e/lib.sh"
SRC=$ROOT/campaigns/harbour-raid
PY=/usr/bin/python3
JS="$ROOT/tools/umpire-verify.mjs"
[ -x "$ROOT/build/release/umpire-bls" ] || skip "no BLS helper (make builds build/release/umpire-bls)"
with_emails "$SRC/scenario.yaml" attacker=blood@example.org defender=governor@example.org > scenario.yaml
cat >> scenario.yaml <<'YAML'
schedule:
  first_deadline: 2026-01-02T12:00:00Z
  every: 1d
  extensions: 2d
  civil_disorder: 2
mail:
  from: umpire@example.org
YAML
expect 0 "$BIN" init c --scenario scenario.yaml --secret-file "$SRC/demo.secret" \
    --visibility open --demo-beacon
mkdir -p md/new md/cur md/tmp
D1=1767355200   # turn 1's deadline, 2026-01-02T12:00:00Z
BEACON="$ROOT/tools/demo-beacon"

# run AT: one pass of `umpire run` at AT, as cron would.
run() { SOURCE_DATE_EPOCH=$1 expect 0 "$BIN" run c --maildir md --beacon-command "$BEACON"; }
# verified: every verifier on a fresh clone (demo beacon, secret from a file: exit 3).
verified() {
    rm -rf cl && git clone -q c cl
    expect 3 "$BIN" verify cl
    expect 3 node "$JS" cl
}
# orders N PLAYER [EXTRA]: an order file with no orders for turn N (EXTRA: a top-level line).
orders() {
    printf 'campaign: harbour-raid\nturn: %s\nplayer: %s\n%sorders: []\n' "$1" "$2" "${3:-}" \
        > "t$1-$2.yaml"
}
# body FROM TEXT ID AT: a plain mail from FROM whose body is TEXT, delivered at AT.
body() { $PY "$ROOT/tests/e2e/mail/plain-mail.py" md "$@"; }
deliver() { $PY "$ROOT/tests/e2e/mail/deliver.py" md "$@"; }
status_has() { SOURCE_DATE_EPOCH=$1 expect 0 "$BIN" status c --json; has "$TMP/out" "$2"; }

# Turn 1: the attacker's orders by mail; closed once in, resolved once its round is out.
orders 1 attacker
deliver blood@example.org t1-attacker.yaml m1 $((D1 - 7200))
run $((D1 - 7000))
has "$TMP/out" "turn 1: closed with 1 order file"
run $((D1 - 6000))
has "$TMP/out" "mail: the reports of turn 1 queued"
verified

# Turn 2: a missed turn. The defender sends nothing; at the deadline the turn closes without
# him ("no orders from defender"), listed among the umpire's overrides.
D2=$((D1 + 86400))
run $((D2 - 3600))
status_has $((D2 - 3600)) '"missing": [
    "defender"
  ]'
run $((D2 + 60))
has "$TMP/out" "turn 2: closed with 0 order files"
run $((D2 + 1060))
has "$TMP/out" "mail: the reports of turn 2 queued"
git -C c show turn-0002:reports/turn-0002/defender.md > r2.md
has r2.md "## Umpire's overrides"
has r2.md "defender: the turn closed without his orders"
verified

# Turn 3: the attacker asks for a day more by mail; every deadline moves, everyone is told.
D3=$((D2 + 86400))
body blood@example.org "extend 24h" ext1 $((D3 - 7200))
run $((D3 - 7100))
has "$TMP/out" "inbox: turn 3: 1 accepted"
grep -q 'Subject: \[harbour-raid\] turn 3: extension granted' c/.umpire/outbox/new/reply-* ||
    die "no 'extension granted' reply"
for p in attacker defender; do
    [ -f c/.umpire/outbox/new/override-1-0003-$p.eml ] || die "$p was not told of the extension"
done
status_has $((D3 - 7100)) '"deadline": "2026-01-05T12:00:00Z"'
# Over the budget (2d, a day used): refused, nothing moves.
body blood@example.org "extend 2d" ext2 $((D3 - 7000))
run $((D3 - 6900))
has "$TMP/out" "1 refused"
status_has $((D3 - 6900)) '"deadline": "2026-01-05T12:00:00Z"'
# Past the old deadline the turn still waits: the new one stands.
run $((D3 + 600))
grep -q "turn 3: closed" "$TMP/out" && die "turn 3 closed at its old deadline"
orders 3 attacker
deliver blood@example.org t3-attacker.yaml m3 $((D3 + 700))
run $((D3 + 800))
has "$TMP/out" "turn 3: closed with 1 order file"
run $((D3 + 1800))
verified
git -C c show close-0003:journal/turn-0003.close.yaml > close3.yaml
has close3.yaml "- kind: extend"
[ ! -e cl/.umpire ] || die "verify made .umpire/ in a clone"
# The closes' overrides as the umpire's copy read them (.git/umpire/closes-read.yaml, a cache
# keyed by the last close's commit id, issue 38): a stale, broken or missing one is read
# again from the close files, and the schedule stands as before.
has c/.git/umpire/closes-read.yaml "through: 3"
has c/.git/umpire/closes-read.yaml "- kind: extend"
status_has $((D3 + 1900)) '"deadline": "2026-01-0'
cp "$TMP/out" status.json
sed -i 's/^close: .*/close: 0000000000000000000000000000000000000000/' c/.git/umpire/closes-read.yaml
status_has $((D3 + 1900)) '"deadline": "2026-01-0'
cmp -s "$TMP/out" status.json || die "a stale cache changed the status"
grep -q '^close: 0000' c/.git/umpire/closes-read.yaml && die "a stale cache was kept"
printf 'through: 3\nclose: [\n' > c/.git/umpire/closes-read.yaml
status_has $((D3 + 1900)) '"deadline": "2026-01-0'
cmp -s "$TMP/out" status.json || die "a broken cache changed the status"
rm c/.git/umpire/closes-read.yaml
status_has $((D3 + 1900)) '"deadline": "2026-01-0'
cmp -s "$TMP/out" status.json || die "a missing cache changed the status"
has c/.git/umpire/closes-read.yaml "- kind: extend"

# Turn 4: the umpire pauses the campaign; nothing closes during the pause; he resumes early.
# The defender sends nothing again: closed at the deadline as it stands after the pause and
# the resume, his second miss in a row puts his side in civil disorder.
SOURCE_DATE_EPOCH=$((D3 + 3600)) expect 0 "$BIN" pause c --until 2026-01-08T00:00:00Z \
    --reason "the defender is travelling"
has "$TMP/out" "paused until 2026-01-08T00:00:00Z"
run $((D3 + 3800))
has "$TMP/out" "turn 4: paused until 2026-01-08T00:00:00Z"
SOURCE_DATE_EPOCH=$((D3 + 7200)) expect 0 "$BIN" resume c --reason "back early"
has "$TMP/out" "resumed (every deadline moves -"
SOURCE_DATE_EPOCH=$((D3 + 7300)) expect 0 "$BIN" status c --json
D4=$($PY -c 'import calendar, json, sys, time
print(calendar.timegm(time.strptime(json.load(open(sys.argv[1]))["deadline"], "%Y-%m-%dT%H:%M:%SZ")))' "$TMP/out")
[ "$D4" -gt $((D3 + 86400)) ] || die "turn 4's deadline $D4 did not move with the pause"
run $((D4 - 60))
grep -q "turn 4: closed" "$TMP/out" && die "turn 4 closed before its deadline"
run $((D4 + 60))
has "$TMP/out" "turn 4: closed with 0 order files"
run $((D4 + 1060))
has "$TMP/out" "mail: the reports of turn 4 queued"
verified
expect 0 "$BIN" log cl --umpire
has "$TMP/out" "paused until 2026-01-08T00:00:00Z"
has "$TMP/out" ": the defender is travelling"
has "$TMP/out" "resumed"
expect 0 "$BIN" log cl --turn 4
has "$TMP/out" "defender: civil disorder: 2 turns missed in a row"
SOURCE_DATE_EPOCH=$((D4 + 1100)) expect 0 "$BIN" status c --json
has "$TMP/out" '"civil_disorder": true'
D3=$((D4 - 7200))   # the stand-in's turn below counts from here

# Turn 5: a stand-in takes the attacker's seat. The old address is refused from then on; the
# newcomer gets his side's briefing and last report; the record names no address.
T5=$((D3 + 10000))
SOURCE_DATE_EPOCH=$T5 expect 0 "$BIN" players c --replace attacker --email deputy@example.org \
    --reason "Blood sails for Jamaica"
has "$TMP/out" "seat attacker: new player from turn 5"
[ -f c/.umpire/outbox/new/standin-0005-briefing-0000-attacker.eml ] || die "no briefing for the stand-in"
[ -f c/.umpire/outbox/new/standin-0005-report-0004-attacker.eml ] || die "no last report for the stand-in"
grep -q "deputy@example.org" c/.umpire/outbox/new/standin-0005-briefing-0000-attacker.eml ||
    die "the stand-in's briefing is not to his address"
orders 5 attacker
deliver blood@example.org t5-attacker.yaml m5old $((T5 + 100))
run $((T5 + 200))
has "$TMP/out" "0 accepted, 1 refused"
deliver deputy@example.org t5-attacker.yaml m5 $((T5 + 300))
run $((T5 + 400))
has "$TMP/out" "turn 5: closed with 1 order file"
run $((T5 + 1400))
verified
git -C c show close-0005:journal/turn-0005.close.yaml > close5.yaml
has close5.yaml "kind: replace"
grep -q "example.org" close5.yaml && die "an address in the public record"
expect 0 "$BIN" log cl --umpire --json
has "$TMP/out" '"kind": "replace"'

# Turn 6: the defender concedes by his order file; the game ends with a winner.
T6=$((T5 + 2000))
orders 6 defender "concede: true
"
deliver governor@example.org t6-defender.yaml m6 $T6
run $((T6 + 100))
has "$TMP/out" "turn 6: closed with 1 order file"
run $((T6 + 1100))
has "$TMP/out" "mail: the game's end queued"
SOURCE_DATE_EPOCH=$((T6 + 1200)) expect 0 "$BIN" status c --json
has "$TMP/out" '"winner": "attacker"'
has "$TMP/out" '"result": "attacker wins: defender conceded on turn 6"'
git -C c show turn-0006:reports/turn-0006/attacker.md > r6.md
has r6.md "**attacker wins: defender conceded on turn 6.**"
verified
# Later turns are refused.
orders 7 attacker
deliver deputy@example.org t7-attacker.yaml m7 $((T6 + 1300))
run $((T6 + 1400))
has "$TMP/out" "1 refused"
SOURCE_DATE_EPOCH=$((T6 + 1500)) expect 65 "$BIN" turn c t7-attacker.yaml
has "$TMP/err" "the game is over (defender conceded on turn 6)"

# A change recorded after a deadline cannot move it: an extension made once turn 2's deadline
# had passed, carried by its close, fails every verifier with the reason.
rm -rf bad && "$BIN" init bad --scenario scenario.yaml --secret-file "$SRC/demo.secret" \
    --visibility open --demo-beacon >/dev/null
mkdir -p mdb/new mdb/cur mdb/tmp
$PY "$ROOT/tests/e2e/mail/deliver.py" mdb blood@example.org t1-attacker.yaml b1 $((D1 - 7200))
SOURCE_DATE_EPOCH=$((D1 - 7000)) expect 0 "$BIN" run bad --maildir mdb --beacon-command "$BEACON"
SOURCE_DATE_EPOCH=$((D1 - 6000)) expect 0 "$BIN" run bad --maildir mdb --beacon-command "$BEACON"
has "$TMP/out" "mail: the reports of turn 1 queued"
cat > bad/.umpire/overrides.yaml <<YAML
overrides:
- kind: extend
  turn: 2
  at: $((D2 + 600))
  at_utc: "late"
  player: defender
  shift: 86400
  reason: backdated
YAML
SOURCE_DATE_EPOCH=$((D2 + 700)) expect 0 "$BIN" close bad --allow-missing
rm -rf badcl && git clone -q bad badcl
expect 65 "$BIN" verify badcl
has "$TMP/out" "which had passed then (a change recorded after a deadline cannot move it)"
expect 65 node "$JS" badcl
has "$TMP/out" "which had passed then"
