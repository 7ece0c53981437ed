# Entropy players in an IGOUGO game (issue 34 item 4; docs/fairness.md, "Contributions"):
# harbour-raid, one side due per turn. Turn 1: the attacker is due and the defender, not due,
# sends a contribution (his entropy: alone, no orders): checked, closed, receipted, revealed,
# two independent contributors. Turn 2: the defender is due and the attacker sends nothing:
# not missing, just one contributor: both verifiers name turn 2 alone (few-contributors).
# A clone whose export changes the contributor's nonce fails both verifiers (65).
. "$ROOT/tests/e2e/lib.sh"
HR="$ROOT/campaigns/harbour-raid"
P="$TMP/p"
new_campaign harbour-raid "$P" --entropy players --visibility open
nonce() { printf 'umpire test nonce %s %s' "$1" "$2" | sha256sum | cut -c1-64; }
hash_of() { printf %s "$1" | xxd -r -p | sha256sum | cut -c1-64; }
reveal() { printf 'campaign: harbour-raid\nturn: %s\nplayer: %s\nnonce: %s\n' "$1" "$2" "$(nonce "$1" "$2")" >"$TMP/r$1-$2.yaml"; }
contribution() { printf 'campaign: harbour-raid\nturn: %s\nplayer: %s\nentropy: %s\n' "$1" "$2" "$(hash_of "$(nonce "$1" "$2")")"; }

# Turn 1: the attacker's orders, the defender's contribution.
{ cat "$HR/orders/turn-0001/attacker.yaml"; echo "entropy: $(hash_of "$(nonce 1 attacker)")"; } >"$TMP/o1-attacker.yaml"
contribution 1 defender >"$TMP/o1-defender.yaml"
expect 0 "$BIN" check "$P" "$TMP/o1-defender.yaml"
has "$TMP/out" "$TMP/o1-defender.yaml: ok: entropy (not due: no orders) of defender for turn 1 of harbour-raid"
# a player who is not due still sends no orders, and a contribution carries its entropy:
{ cat "$TMP/o1-defender.yaml"; echo "orders: []"; } >"$TMP/bad-orders.yaml"
expect 65 "$BIN" check "$P" "$TMP/bad-orders.yaml"
has "$TMP/err" "player 'defender' is not due on turn 1 (orders from a due player expected; a player who is not due sends his entropy: alone, without orders)"
grep -v '^entropy:' "$TMP/o1-defender.yaml" >"$TMP/bad-entropy.yaml"
expect 65 "$BIN" check "$P" "$TMP/bad-entropy.yaml"
has "$TMP/err" "no 'entropy:' (this campaign's players commit to a nonce"
{ cat "$TMP/o1-defender.yaml"; echo "standing: { response: none }"; } >"$TMP/bad-standing.yaml"
expect 65 "$BIN" check "$P" "$TMP/bad-standing.yaml"
has "$TMP/err" "player 'defender' is not due on turn 1: his file is his entropy: alone (no standing orders expected)"
# the rule system's schema takes a contribution, and refuses one with standing orders
/usr/bin/python3 - "$ROOT/schemas/land-raid-orders.schema.json" "$TMP/o1-defender.yaml" "$TMP/bad-standing.yaml" <<'PY' || die "the schema and umpire disagree on a contribution"
import json, sys, yaml, jsonschema
v = jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))
assert not list(v.iter_errors(yaml.safe_load(open(sys.argv[2])))), "the contribution is refused"
assert list(v.iter_errors(yaml.safe_load(open(sys.argv[3])))), "standing orders in a contribution are taken"
PY

expect 0 env SOURCE_DATE_EPOCH=1767312000 "$BIN" close "$P" "$TMP/o1-attacker.yaml" "$TMP/o1-defender.yaml" --receipts "$TMP/rc1"
has "$TMP/out" "Turn 1 closed: 2 order files, 0 players without"
has "$TMP/rc1/defender.yaml" "file_sha256: $(sha256sum "$TMP/o1-defender.yaml" | cut -c1-64)"
# the close commits the contribution like any file: its hash, its entropy, and his receipt names it
has "$P/journal/turn-0001.close.yaml" "entropy: $(hash_of "$(nonce 1 defender)")"
dsha=$(sha256sum "$TMP/o1-defender.yaml" | cut -c1-64)
has "$P/journal/turn-0001.close.yaml" "sha256: $dsha"
reveal 1 attacker; reveal 1 defender
expect 0 "$BIN" reveal "$P" "$TMP/r1-attacker.yaml" "$TMP/r1-defender.yaml"
has "$TMP/out" "ok: defender's nonce for turn 1 matches the close"
expect 0 env SOURCE_DATE_EPOCH=1767312600 "$BIN" turn "$P"
has "$P/journal/turn-0001.yaml" "beacon_value: attacker nonce $(nonce 1 attacker) defender nonce $(nonce 1 defender)"
has "$P/orders/turn-0001/defender.yaml" "player: defender"
grep -q "no orders from defender" "$P/journal/turn-0001.yaml" && die "the contributor is journaled as sending no orders"

# Turn 2: the defender due, the attacker silent: not missing, no contribution.
{ cat "$HR/orders/turn-0002/defender.yaml"; echo "entropy: $(hash_of "$(nonce 2 defender)")"; } >"$TMP/o2-defender.yaml"
expect 0 env SOURCE_DATE_EPOCH=1767398400 "$BIN" close "$P" "$TMP/o2-defender.yaml"
has "$TMP/out" "Turn 2 closed: 1 order file, 0 players without"
reveal 2 defender
expect 0 "$BIN" reveal "$P" "$TMP/r2-defender.yaml"
expect 0 env SOURCE_DATE_EPOCH=1767399000 "$BIN" turn "$P"
expect 0 "$BIN" replay "$P"

# Both verifiers, on a plain clone: turn 2 alone has fewer than two contributors.
git clone -q "$P" "$TMP/pc"
expect 3 "$BIN" verify "$TMP/pc"
has "$TMP/out" "turn 1: ok: close, key, digest, reveals, seed, "
grep '^verdict: \|^reason: ' "$TMP/out" >"$TMP/c.v"
expect 3 node "$JSV" "$TMP/pc"
has "$TMP/out" "reveals (2 of 2 nonces)"
grep '^verdict: \|^reason: ' "$TMP/out" >"$TMP/js.v"
cmp -s "$TMP/c.v" "$TMP/js.v" || { diff "$TMP/c.v" "$TMP/js.v" >&2; die "the verifiers disagree"; }
has "$TMP/c.v" "reason: few-contributors: entropy players: fewer than two independent contributors in turns 2"
# the contributor's receipt checks against the history, in both verifiers
expect 3 "$BIN" verify "$TMP/pc" --receipt "$TMP/rc1/defender.yaml"
has "$TMP/out" "defender.yaml: ok: defender's orders for turn 1 are the ones closed in $(git -C "$P" rev-parse close-0001)"
expect 3 node "$JSV" "$TMP/pc" --receipt "$TMP/rc1/defender.yaml"

# The contributor's nonce changed in turn 1's export, B_t made to match the new reveals text:
# the nonce no longer hashes to the entropy his contribution committed to (umpire verify
# fails it at the seed this B_t gives, before its replay would reach the reveals).
tclone bad "$P"
old_text="attacker nonce $(nonce 1 attacker) defender nonce $(nonce 1 defender)"
new_text="attacker nonce $(nonce 1 attacker) defender nonce $(nonce 9 defender)"
old_b=$(printf %s "$old_text" | sha256sum | cut -c1-64)
new_b=$(printf %s "$new_text" | sha256sum | cut -c1-64)
sed -i -e "s/^beacon: $old_b\$/beacon: $new_b/" -e "s/^beacon_value: $old_text\$/beacon_value: $new_text/" \
    "$TMP/bad/journal/turn-0001.yaml"
has "$TMP/bad/journal/turn-0001.yaml" "beacon: $new_b"
has "$TMP/bad/journal/turn-0001.yaml" "defender nonce $(nonce 9 defender)"
tcommit bad turn-0001
both_fail "$TMP/bad"
has "$TMP/out" "verify: FAILED: turn 1: seed differs"
has "$TMP/js.out" "verify: FAILED: turn 1: reveals: the nonce of defender does not hash to the entropy its order file committed to"

# By mail, on a schedule: the attacker's orders alone do not close the turn before its
# deadline (the defender may still contribute); his contribution by mail does; both reveals
# by mail resolve it, and turn 1 has two contributors.
PY=/usr/bin/python3
DELIVER="$PY $ROOT/tests/e2e/mail/deliver.py"
at() { _t=$1; shift; env SOURCE_DATE_EPOCH="$_t" "$@"; }
cd "$TMP"
with_emails "$HR/scenario.yaml" attacker=blood@attacker.example defender=governor@defender.example >scenario.yaml
cat >>scenario.yaml <<'YAML'
schedule:
  first_deadline: 2026-01-03T18:00:00Z
  every: 2d
  missing: no-orders
  reveal: 12h
mail:
  from: umpire@example.org
YAML
expect 0 "$BIN" init m --scenario scenario.yaml --secret-file "$HR/demo.secret" \
    --visibility open --entropy players
$DELIVER md blood@attacker.example "$TMP/o1-attacker.yaml" o1 1767300060
expect 0 at 1767300120 "$BIN" run m --maildir md --verbose
has "$TMP/out" "inbox: turn 1: 1 accepted"
has "$TMP/out" "turn 1: waiting for orders"
$DELIVER md governor@defender.example "$TMP/o1-defender.yaml" o2 1767300180
expect 0 at 1767300240 "$BIN" run m --maildir md
has "$TMP/out" "inbox: turn 1: 1 accepted"
has "$TMP/out" "turn 1: closed with 2 order files"
grep -l "Your entropy for turn 1 is accepted: you are not due, so your file gives no" m/.umpire/outbox/*/*.eml |
    xargs grep -l "governor@defender.example" >/dev/null || die "no acceptance of the contribution"
has m/journal/turn-0001.close.yaml "sha256: $dsha"
grep -l "Subject: \[harbour-raid\] turn 1 closed: your receipt" m/.umpire/outbox/*/*.eml |
    xargs grep -l "governor@defender.example" | xargs grep -l "$dsha" >/dev/null ||
    die "the defender's receipt does not name his contribution"
$DELIVER md blood@attacker.example "$TMP/r1-attacker.yaml" r1 1767300300
$DELIVER md governor@defender.example "$TMP/r1-defender.yaml" r2 1767300360
expect 0 at 1767300420 "$BIN" run m --maildir md
has "$TMP/out" "inbox: turn 1: 2 accepted"
has m/journal/turn-0001.yaml "beacon_value: attacker nonce $(nonce 1 attacker) defender nonce $(nonce 1 defender)"
git clone -q m mc
expect 3 "$BIN" verify mc
grep -q 'few-contributors' "$TMP/out" && die "two contributors named as fewer"
expect 3 node "$JSV" mc
grep -q 'few-contributors' "$TMP/out" && die "two contributors named as fewer (JS)"
true
