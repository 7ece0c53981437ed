# Entropy players in an IGOUGO game (issue 34 item 4; docs/fairness.md, "Contributions"):
# harbour-raid, one side due per turn. Turn 1: the attacker is due and the defender, not due,
# sends a contribution (his entropy: alone, no orders): checked, closed, receipted, revealed,
# two independent contributors. Turn 2: the defender is due and the attacker sends nothing:
# not missing, just one contributor: both verifiers name turn 2 alone (few-contributors).
# A clone whose export changes the contributor's nonce fails both verifiers (65). By mail: the
# player not due gets his contribution template with his report and in a reminder (real SMTP);
# sealed, the report mail still verifies as his view with the template beside it.
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
  remind: 1d
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

# Nothing tells a player who is not due to contribute but the mail umpire sends him. Turn 2
# (the defender due): the attacker's report of turn 1 carries his contribution template for
# turn 2 (the committed report unchanged), and once the deadline is schedule.remind away
# `umpire run` reminds him of it, template attached, as it reminds the defender of his orders.
# Everything goes out through a real SMTP server on 127.0.0.1 (aiosmtpd, as t_mail); the
# template, filled in, is what `umpire check` and the inbox take.
$PY -c 'import aiosmtpd' 2>/dev/null || die "python3-aiosmtpd missing (make deps)"
$PY "$ROOT/tests/e2e/mail/smtp-server.py" smtp & server=$!
trap 'kill $server 2>/dev/null || true' EXIT
i=0; while [ ! -f smtp/port ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
[ -f smtp/port ] || die "the SMTP server did not start"
export UMPIRE_SMTP_URL="smtp://127.0.0.1:$(cat smtp/port)" UMPIRE_SMTP_TLS=none
# turn 2's deadline is 2026-01-05T18:00:00Z (1767636000): 12 h before it, within remind: 1d
expect 0 at 1767592800 "$BIN" run m --maildir md
has "$TMP/out" "reminders for turn 2"
# mail SUBJECT TO DIR: the attachments of the one message SUBJECT to TO the server got, saved in
# DIR, and its body as DIR/body
mail() {
    $PY - smtp "$1" "$2" "$3" <<'PY'
import email, email.policy, glob, os, sys
found = []
for path in sorted(glob.glob(sys.argv[1] + "/*.eml")):
    m = email.message_from_binary_file(open(path, "rb"), policy=email.policy.default)
    if m["Subject"] == sys.argv[2] and m["To"] == sys.argv[3]:
        found.append(m)
assert len(found) == 1, "%d messages '%s' to %s" % (len(found), sys.argv[2], sys.argv[3])
os.makedirs(sys.argv[4])
open(sys.argv[4] + "/body", "wb").write(found[0].get_body(("plain",)).get_content().encode())
for a in found[0].iter_attachments():
    open(sys.argv[4] + "/" + a.get_filename(), "wb").write(a.get_payload(decode=True))
PY
}
mail "[harbour-raid] turn 1: your report" blood@attacker.example rep-a || die "the attacker's report mail"
mail "[harbour-raid] turn 1: your report" governor@defender.example rep-d || die "the defender's report mail"
[ -f rep-a/contribution-0002.yaml ] || die "the attacker's report mail carries no contribution template"
[ -f rep-d/contribution-0002.yaml ] && die "the defender, due on turn 2, gets a contribution template"
# the report attached is the committed one, byte for byte; the body adds the paragraph after it
git -C m show turn-0001:reports/turn-0001/attacker.md >rep-a/committed.md
cmp -s rep-a/committed.md rep-a/report-0001.md || die "the mailed report is not the committed one"
head -c "$(wc -c <rep-a/committed.md)" rep-a/body | cmp -s - rep-a/committed.md ||
    die "the report mail's body does not start with the committed report"
has rep-a/body "You are not due on turn 2, but harbour-raid takes every player's entropy"
has rep-a/contribution-0002.yaml "entropy: # the SHA-256 'umpire nonce' prints"
has rep-a/contribution-0002.yaml "umpire nonce --campaign harbour-raid --turn 2 --player attacker"
mail "[harbour-raid] turn 2: your contribution is missing" blood@attacker.example rem-a ||
    die "no contribution reminder to the attacker"
mail "[harbour-raid] turn 2: your orders are missing" governor@defender.example rem-d ||
    die "no orders reminder to the defender"
has rem-a/body "umpire has no contribution from you (attacker) for turn 2 of harbour-raid yet"
has rem-a/body "The deadline is 2026-01-05T18:00:00Z."
cmp -s rem-a/contribution-0002.yaml rep-a/contribution-0002.yaml || die "two templates for one turn"
has rem-a/body "player: attacker"
# the template docs/fairness.md shows ("Contributions", after "By mail") is this one
awk '/^By mail, umpire tells him so/ { on = 1 } on && /^```yaml$/ { inb = 1; next }
    inb && /^```$/ { exit } inb' "$ROOT/docs/fairness.md" >doc-template.yaml
cmp -s doc-template.yaml rem-a/contribution-0002.yaml ||
    { diff doc-template.yaml rem-a/contribution-0002.yaml >&2; die "docs/fairness.md shows another template"; }
# as it comes, the template is refused (no entropy); filled in, it is a contribution
expect 65 "$BIN" check m rem-a/contribution-0002.yaml
has "$TMP/err" "contribution-0002.yaml:11:9: error: entropy is empty"
sed "s/^entropy: .*/entropy: $(hash_of "$(nonce 2 attacker)")/" rem-a/contribution-0002.yaml >c2-attacker.yaml
expect 0 "$BIN" check m c2-attacker.yaml
has "$TMP/out" "c2-attacker.yaml: ok: entropy (not due: no orders) of attacker for turn 2 of harbour-raid"
$DELIVER md blood@attacker.example c2-attacker.yaml c2 1767592860
expect 0 at 1767592920 "$BIN" run m --maildir md
has "$TMP/out" "inbox: turn 2: 1 accepted"
mail "[harbour-raid] turn 2: orders accepted" blood@attacker.example acc-a || die "no acceptance"
has acc-a/body "Your entropy for turn 2 is accepted"
# his contribution in, `umpire remind` reminds the defender alone
expect 0 "$BIN" remind m
has "$TMP/out" "turn 2: 1 reminder queued"

# Sealed: the report mail's files are the report, view, salt, orders and map as ever, then the
# template; saved side by side they still verify as his view (verify --view reads no template).
unset UMPIRE_SMTP_URL
expect 0 "$BIN" init s --scenario scenario.yaml --secret-file "$HR/demo.secret" \
    --visibility sealed --entropy players
$DELIVER mds blood@attacker.example "$TMP/o1-attacker.yaml" s1 1767300060
$DELIVER mds governor@defender.example "$TMP/o1-defender.yaml" s2 1767300120
expect 0 at 1767300240 "$BIN" run s --maildir mds
has "$TMP/out" "turn 1: closed with 2 order files"
$DELIVER mds blood@attacker.example "$TMP/r1-attacker.yaml" s3 1767300300
$DELIVER mds governor@defender.example "$TMP/r1-defender.yaml" s4 1767300360
expect 0 at 1767300420 "$BIN" run s --maildir mds
ls s/.umpire/outbox/*/report-0001-attacker.eml >/dev/null || die "no sealed report mail to the attacker"
$PY - s/.umpire/outbox/*/report-0001-attacker.eml view-a <<'PY' || die "the sealed report mail's files"
import email, email.policy, os, sys
m = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=email.policy.default)
names = [a.get_filename() for a in m.iter_attachments()]
assert names == ["report-0001.md", "view-0001.yaml", "salt-0001.yaml", "orders-0001.yaml",
                 "map-0001.svg", "contribution-0002.yaml"], names
os.makedirs(sys.argv[2])
for a in m.iter_attachments():
    open(sys.argv[2] + "/" + a.get_filename(), "wb").write(a.get_payload(decode=True))
PY
cmp -s view-a/report-0001.md s/.umpire/outbox/attacker/turn-0001/report.md ||
    die "the sealed report mailed is not the one the outbox keeps"
git clone -q s sc
expect 3 "$BIN" verify sc --view view-a
has "$TMP/out" "his report and view of the state open the commitments there"
true
