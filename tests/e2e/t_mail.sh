# t_mail.sh — a game by mail with real parts: a Maildir of real messages (multipart with an
# attachment, inline quoted-printable, Latin-1 base64, HTML only, a forged sender, another
# campaign's mail, a duplicate delivery, bad orders, orders for another player) read by
# `umpire inbox`; every reply sent by `umpire send` to a real SMTP server on 127.0.0.1
# (aiosmtpd) and checked message by message, a failed send retried; `umpire status` (text and
# JSON) at each step; `umpire publish` to a real bare repository and a clone that verifies.
. "$ROOT/tests/e2e/lib.sh"
SRC=$ROOT/campaigns/bewcastle-fray
PY=/usr/bin/python3   # Debian's, which has python3-aiosmtpd
$PY -c 'import aiosmtpd' 2>/dev/null || die "python3-aiosmtpd missing (make deps)"

# The scenario with the players' addresses, forster's SSH key, a schedule and mail settings
# (docs/formats.md).
ssh-keygen -q -t ed25519 -N '' -C forster -f forster.key
ssh-keygen -q -t ed25519 -N '' -C other -f other.key
sed -e 's/^  - id: armstrong$/  - id: armstrong\n    email: [blood@example.org, Peter.Blood@Example.net]/' \
    -e 's/^  - id: forster$/  - id: forster\n    email: governor@example.org\n    ssh_key: "KEY"/' \
    "$SRC/scenario.yaml" | awk -v k="$(cat forster.key.pub)" '{ sub(/KEY/, k); print }' > scenario.yaml
cat >> scenario.yaml <<'YAML'
schedule:
  first_deadline: 2026-01-03T18:00:00Z
  every: 2d
  grace: 1h
  missing: no-orders
publish:
  remote: remote.git
mail:
  from: umpire@example.org
  smtp: smtp://127.0.0.1:1
  tls: none
YAML
expect 0 "$BIN" init c --scenario scenario.yaml --secret-file "$SRC/demo.secret" --entropy none
has c/campaign.yaml "missing: no-orders"
python3 "$ROOT/tools/check-schemas.py" c >/dev/null || die "campaign.yaml does not match its schema"
# A journal from before the submissions table gets it (and its triggers) when opened.
sqlite3 c/.umpire/journal.sqlite "DROP TABLE submissions"
expect 0 "$BIN" status c
[ "$(sqlite3 c/.umpire/journal.sqlite "SELECT count(*) FROM sqlite_master WHERE name LIKE 'submissions%'")" -eq 4 ] \
    || die "the submissions table and its 3 triggers are not back"

# A bad setting points at its line.
sed 's/every: 2d/every: soon/' scenario.yaml > bad.yaml
expect 65 "$BIN" init bad --scenario bad.yaml --secret-file "$SRC/demo.secret" --entropy none
has "$TMP/err" "every 'soon' (a duration like 90s, 45m, 12h or 7d expected)"

# Before any mail: both due, both missing.
expect 0 "$BIN" status c
has "$TMP/out" "campaign bewcastle-fray, turn 1: open"
has "$TMP/out" "deadline 2026-01-03T18:00:00Z, grace until 2026-01-03T19:00:00Z"
has "$TMP/out" "armstrong        due      missing"

# The mail, delivered one minute apart.
$PY "$ROOT/tests/e2e/mail/make-messages.py" md bewcastle-fray \
    "$SRC/orders/turn-0001/armstrong.yaml" "$SRC/orders/turn-0001/forster.yaml"
expect 0 "$BIN" inbox c --maildir md
cat "$TMP/out"
has "$TMP/out" "01-attachment: accepted: orders of armstrong for turn 1"
has "$TMP/out" "02-inline-qp: accepted: orders of forster for turn 1"
has "$TMP/out" "03-latin1-base64: accepted: orders of armstrong for turn 1"
has "$TMP/out" "04-html-only: refused (the mail is HTML only"
has "$TMP/out" "05-forged: refused (mallory@evil.example is not the address of a player"
has "$TMP/out" "06-other-campaign: other campaign"
has "$TMP/out" "07-duplicate: duplicate"
has "$TMP/out" "08-bad-orders: refused (orders.yml:4:1: error: unknown key 'bogus'"
has "$TMP/out" "09-wrong-player: refused (the orders are for player 'forster', but they come from the address of player 'armstrong')"
[ "$(ls md/new)" = "06-other-campaign" ] || die "only the other campaign's mail stays in new/"
[ "$(ls md/cur | wc -l)" -eq 8 ] || die "8 messages in cur/"
# The attachment is kept byte for byte; the Latin-1 body replaced it, converted to UTF-8.
inbox=c/.umpire/inbox/turn-0001
grep -q "# Réunion at the quay" $inbox/armstrong.yaml || die "Latin-1 body not converted"
head -1 $inbox/armstrong.yaml | grep -qx -- "---" || die "text before '---' kept"
grep -q "^campaign: bewcastle-fray" $inbox/forster.yaml || die "inline orders not kept"
grep -q "Dear umpire\|The Governor" $inbox/forster.yaml && die "greeting or signature kept"
expect 0 "$BIN" check c $inbox/armstrong.yaml $inbox/forster.yaml
# The journal keeps every submission: 7 rows (the duplicate and the other campaign none).
[ "$(sqlite3 c/.umpire/journal.sqlite "SELECT count(*) FROM submissions")" -eq 7 ] \
    || die "7 submissions expected"
[ "$(sqlite3 c/.umpire/journal.sqlite "SELECT group_concat(verdict) FROM submissions")" = \
    "accepted,accepted,accepted,refused,refused,refused,refused" ] || die "verdicts"
sqlite3 c/.umpire/journal.sqlite "SELECT arrived_at FROM submissions WHERE seq = 3" | grep -qx 1767300180 \
    || die "arrival time is the delivery (file) time"
a_sha=$(sha256sum < $inbox/armstrong.yaml | cut -d' ' -f1)
f_sha=$(sha256sum < $inbox/forster.yaml | cut -d' ' -f1)
sqlite3 c/.umpire/journal.sqlite "SELECT sha256 FROM submissions WHERE seq = 3" | grep -qx "$a_sha" \
    || die "journaled hash is the stored file's"

# Running again handles nothing new and changes nothing.
before=$(sqlite3 c/.umpire/journal.sqlite "SELECT count(*) FROM submissions")
expect 0 "$BIN" inbox c --maildir md
has "$TMP/out" "06-other-campaign: other campaign"
[ "$(sqlite3 c/.umpire/journal.sqlite "SELECT count(*) FROM submissions")" = "$before" ] || die "rerun recorded"

# Status: both sent, with the time of the accepted mail and the current file's hash.
expect 0 "$BIN" status c --json
$PY - "$TMP/out" "$a_sha" "$f_sha" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
assert s["turn"] == 1 and s["closed"] is False, s
assert s["deadline"] == "2026-01-03T18:00:00Z" and s["grace_end"] == "2026-01-03T19:00:00Z", s
assert s["due"] == ["armstrong", "forster"] and s["missing"] == [], s
a, f = s["players"]
assert a["orders_sha256"] == sys.argv[2] and a["sent_at"] == "2026-01-01T20:43:00Z", a
assert f["orders_sha256"] == sys.argv[3] and f["sent_at"] == "2026-01-01T20:42:00Z", f
assert a["submissions"] == 4 and f["submissions"] == 2, s
assert s["outbox"] == 7, s
PY

# Sending with no server listening fails and keeps every message for the next run.
expect 75 "$BIN" send c
has "$TMP/out" "not sent (smtp: cannot send to"
[ "$(ls c/.umpire/outbox/new | wc -l)" -eq 7 ] || die "failed messages must stay queued"
# A netrc file others may read is refused.
printf 'machine 127.0.0.1 login u password p\n' > netrc; chmod 644 netrc
UMPIRE_SMTP_NETRC=$TMP/netrc expect 64 "$BIN" send c
has "$TMP/err" "may be read by others (mode 644): chmod 600 it"
grep -q password c/campaign.yaml && die "a password in campaign.yaml"

# A real SMTP server on 127.0.0.1.
$PY "$ROOT/tests/e2e/mail/smtp-server.py" smtp & server=$!
trap 'kill $server 2>/dev/null || true' EXIT
i=0; while [ ! -f smtp/port ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
[ -f smtp/port ] || die "the SMTP server did not start"
export UMPIRE_SMTP_URL="smtp://127.0.0.1:$(cat smtp/port)"
expect 0 "$BIN" send c
[ "$(grep -c ': sent to ' "$TMP/out")" -eq 7 ] || die "7 messages sent"
expect 0 "$BIN" send c
[ -s "$TMP/out" ] && die "a second send sends nothing"
[ "$(ls smtp/*.eml | wc -l)" -eq 7 ] || die "7 messages at the server"
# Message by message, in the order the mail came: envelope, headers, verdict.
check_msg() { # N RCPT VERDICT TEXT
    _f=smtp/$1
    [ "$(sed -n 1p $_f.env)" = "umpire@example.org" ] || die "$1: envelope sender"
    [ "$(sed -n 2p $_f.env)" = "$2" ] || die "$1: envelope recipient $(sed -n 2p $_f.env), $2 expected"
    has $_f.eml "Subject: [bewcastle-fray] turn 1: orders $3"
    has $_f.eml "To: $2"
    $PY - $_f.eml "$4" <<'PY'
import email, email.policy, sys
m = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=email.policy.default)
body = m.get_body(("plain",)).get_content()
assert sys.argv[2] in body, (sys.argv[2], body)
PY
}
check_msg 001 blood@example.org accepted "file_sha256: $(sqlite3 c/.umpire/journal.sqlite "SELECT sha256 FROM submissions WHERE seq = 1")"
check_msg 002 governor@example.org accepted "file_sha256: $f_sha"
check_msg 003 peter.blood@example.net accepted "file_sha256: $a_sha"
check_msg 004 blood@example.org refused "the mail is HTML only"
check_msg 005 mallory@evil.example refused "is not the address of a player"
check_msg 006 governor@example.org refused "orders.yml:4:1: error: unknown key 'bogus'"
check_msg 007 blood@example.org refused "the orders are for player 'forster'"
# The error reply shows the source line and a caret under the column.
$PY - smtp/006.eml > reply.txt <<'PY'
import email, email.policy, sys
m = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=email.policy.default)
print(m.get_body(("plain",)).get_content())
PY
shows_source reply.txt "unknown key 'bogus'"
has smtp/001.eml "In-Reply-To: <m1@players.example>"

# The turn takes the files the inbox kept; publish pushes it to a bare remote, and a clone
# verifies.
expect 0 "$BIN" turn c $inbox/armstrong.yaml $inbox/forster.yaml
expect 0 "$BIN" publish c "$TMP/remote.git"
has "$TMP/out" "published main and 2 tags to $TMP/remote.git"
[ "$(git -C remote.git symbolic-ref HEAD)" = refs/heads/main ] || die "the remote's HEAD is not main"
git clone -q remote.git clone
expect 3 "$BIN" verify clone
[ "$(git -C clone rev-parse HEAD)" = "$(git -C c rev-parse HEAD)" ] || die "the clone's main"
# publish.remote is relative to where umpire runs; again is a no-op.
expect 0 "$BIN" publish c "$TMP/remote.git"
# A remote whose main went elsewhere refuses; nothing is forced.
git clone -q remote.git other && git -C other commit -q --allow-empty -m elsewhere && git -C other push -q origin main
expect 65 "$BIN" publish c "$TMP/remote.git"
has "$TMP/err" "refused"

# Entropy beacon: `umpire run` closes the turn once both have sent and mails each player his
# receipt, which `umpire verify --receipt` accepts on a clone of the published campaign.
sed 's/^  remote: remote.git$/  remote: remote-b.git\n  auto: true/' scenario.yaml > scenario-b.yaml
expect 0 "$BIN" init b --scenario scenario-b.yaml --secret-file "$SRC/demo.secret" --entropy beacon \
    --beacon unsigned-test-beacon --beacon-genesis 1692803367 --beacon-period 3
mkdir -p mdb/new mdb/cur mdb/tmp
# Signed orders (ssh-keygen -Y sign -n umpire-orders): a signature by another key is refused
# even from the player's address; a good one is accepted from any address.
cp "$SRC/orders/turn-0001/forster.yaml" forster.yaml
ssh-keygen -q -Y sign -f other.key -n umpire-orders forster.yaml 2>/dev/null && mv forster.yaml.sig bad.sig
ssh-keygen -q -Y sign -f forster.key -n umpire-orders forster.yaml 2>/dev/null
$PY "$ROOT/tests/e2e/mail/deliver.py" mdb blood@example.org "$SRC/orders/turn-0001/armstrong.yaml" b1 1767300000
$PY "$ROOT/tests/e2e/mail/deliver.py" mdb governor@example.org forster.yaml b2 1767300030 bad.sig
expect 0 "$BIN" run b --maildir mdb --verbose
has "$TMP/out" "inbox: turn 1: 1 accepted, 1 refused"
has "$TMP/out" "turn 1: waiting for orders"
$PY "$ROOT/tests/e2e/mail/deliver.py" mdb someone@elsewhere.example forster.yaml b3 1767300060 forster.yaml.sig
expect 0 "$BIN" run b --maildir mdb
has "$TMP/out" "inbox: turn 1: 1 accepted, 0 refused"
has "$TMP/out" "turn 1: closed with 2 order files"
has "$TMP/out" "mail: the receipts of turn 1 queued for 2 players"
has "$TMP/out" "send: 3 sent, 0 left for the next run"
grep -l "orders refused" smtp/*.eml | xargs grep -l "not a good signature of this file by player 'forster'" >/dev/null \
    || die "the bad signature's reply"
# A signed mail from another address: the reply goes to forster's registered address.
grep -l "To: governor@example.org" smtp/*.eml | xargs grep -l "signature: good (ssh_key of forster)" >/dev/null \
    || die "the good signature's reply"
grep -l "To: someone@elsewhere.example" smtp/*.eml && die "a reply went to a signed mail's From"
# mail.reply_to: sender answers the From, whatever it is.
sed 's/^  tls: none$/  tls: none\n  reply_to: sender/' scenario.yaml > scenario-s.yaml
expect 0 "$BIN" init s --scenario scenario-s.yaml --secret-file "$SRC/demo.secret" --entropy none
$PY "$ROOT/tests/e2e/mail/deliver.py" mds someone@elsewhere.example forster.yaml s1 1767300060 forster.yaml.sig
expect 0 "$BIN" inbox s --maildir mds
has "$TMP/out" "accepted: orders of forster for turn 1"
grep -l "^To: someone@elsewhere.example" s/.umpire/outbox/new/*.eml >/dev/null || die "reply_to: sender"
git -C b tag -l close-0001 | grep -q . || die "no close tag"
expect 0 "$BIN" run b --maildir mdb --verbose
has "$TMP/out" "turn 1: closed; waiting for beacon round"
grep -q "^send:" "$TMP/out" && die "receipts sent twice"
# Turn 1's orders after its close: too late, and the reply does not claim he is due on turn 2.
$PY "$ROOT/tests/e2e/mail/deliver.py" mdb blood@example.org "$SRC/orders/turn-0001/armstrong.yaml" b4 1767300100
# --beacon-fetch that cannot reach the beacon: the rest of the pass is done (the late
# mail answered and sent), and the exit is 75 so cron and a monitor see it.
SOURCE_DATE_EPOCH=$((1767225600 + 3600)) expect 75 "$BIN" run b --maildir mdb --beacon-fetch --beacon-url "http://127.0.0.1:1/{round}"
has "$TMP/err" "beacon round"
has "$TMP/err" "not taken"
has "$TMP/out" "inbox: turn 1: 0 accepted, 1 refused"
has "$TMP/out" "send: 1 sent, 0 left for the next run"
grep -l "In-Reply-To: <b4@players.example>" smtp/*.eml | xargs grep -l "these came too late (turn 1's report will say whether you are due on turn 2)" >/dev/null ||
    die "the late mail's reply"
for f in smtp/*.eml; do
    grep -q "turn 1 closed: your receipt" $f || continue
    $PY - $f <<'PY'
import email, email.policy, sys
m = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=email.policy.default)
att = [p for p in m.iter_attachments() if p.get_filename() == "receipt-0001.yaml"]
assert len(att) == 1, "one receipt attached"
body = att[0].get_content()
open("receipt-%s.yaml" % m["To"].split("@")[0], "w").write(body)
PY
done
[ "$(ls receipt-*.yaml | wc -l)" -eq 2 ] || die "two receipts by mail"
has receipt-blood.yaml "player: armstrong"
git clone -q remote-b.git clone-b
expect 3 "$BIN" verify clone-b --receipt receipt-blood.yaml --receipt receipt-governor.yaml
# Once the round is out, the beacon command gives its value: run resolves the turn, mails the
# reports and publishes; the clone still verifies, receipts and all.
printf '#!/bin/sh\necho "made-up value of round $1"\n' > beacon.sh
SOURCE_DATE_EPOCH=$((1767225600 + 3600)) expect 0 "$BIN" run b --maildir mdb --beacon-command "sh $TMP/beacon.sh"
has "$TMP/out" "mail: the reports of turn 1 queued for 2 players"
has "$TMP/out" "publish: main and 3 tags to remote-b.git"
has "$TMP/out" "send: 2 sent, 0 left for the next run"
git -C b log -1 --format=%B | grep -q "^Turn 1: " || die "turn 1 not resolved"
git -C clone-b pull -q
expect 3 "$BIN" verify clone-b --receipt receipt-blood.yaml --receipt receipt-governor.yaml
grep -q "made-up value of round" b/journal/turn-0001.yaml || die "the beacon value is not journaled"
# Sealed (the default): each player's report mail carries his report, view, salt and own
# orders and his map under names of the turn; saved into a folder they are what verify --view checks.
for f in smtp/*.eml; do
    grep -q "turn 1: your report" $f && grep -q "^To: blood@example.org" $f || continue
    mkdir -p view-blood
    $PY - $f view-blood <<'PY'
import email, email.policy, sys
m = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=email.policy.default)
names = [a.get_filename() for a in m.iter_attachments()]
assert names == ["report-0001.md", "view-0001.yaml", "salt-0001.yaml", "orders-0001.yaml", "map-0001.svg"], names
for a in m.iter_attachments():
    open(sys.argv[2] + "/" + a.get_filename(), "w").write(a.get_content())
PY
done
[ -f view-blood/salt-0001.yaml ] || die "no sealed report mail to blood"
expect 3 "$BIN" verify clone-b --view view-blood

# A campaign that requires signatures refuses unsigned orders from the player's address.
sed 's/^  tls: none$/  tls: none\n  require_signature: true/' scenario.yaml > scenario-r.yaml
expect 0 "$BIN" init r --scenario scenario-r.yaml --secret-file "$SRC/demo.secret" --entropy none
mkdir -p mdr/new mdr/cur mdr/tmp
$PY "$ROOT/tests/e2e/mail/deliver.py" mdr governor@example.org forster.yaml r1 1767300000
expect 0 "$BIN" inbox r --maildir mdr
has "$TMP/out" "refused (campaign 'bewcastle-fray' takes signed orders only"
$PY "$ROOT/tests/e2e/mail/deliver.py" mdr governor@example.org forster.yaml r2 1767300060 forster.yaml.sig
expect 0 "$BIN" inbox r --maildir mdr
has "$TMP/out" "accepted: orders of forster for turn 1"

# publish.auto: umpire turn publishes on its own.
sed 's/^  remote: remote.git$/  remote: remote-a.git\n  auto: true/' scenario.yaml > scenario-a.yaml
expect 0 "$BIN" init a --scenario scenario-a.yaml --secret-file "$SRC/demo.secret" --entropy none
expect 0 "$BIN" turn a "$SRC/orders/turn-0001/armstrong.yaml" "$SRC/orders/turn-0001/forster.yaml"
has "$TMP/err" "published main and 2 tags to remote-a.git (publish.auto)"
[ "$(git -C remote-a.git rev-parse main)" = "$(git -C a rev-parse HEAD)" ] || die "publish.auto"

# Turn 2 is open: both missing.
expect 0 "$BIN" status c
has "$TMP/out" "campaign bewcastle-fray, turn 2: open"
has "$TMP/out" "forster          due      missing"
echo done
