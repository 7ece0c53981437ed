# t_mail_unattended.sh — a game by mail left to `umpire run` alone meets more than orders
# (issue 27, issue 25 item 5): automatic mail (a vacation reply, cron's mail, bulk and list
# mail, a bounce) is filed and counted, never answered (RFC 3834); umpire's own mail says it
# is automatic; an empty file is filed quietly; mail over the limit, orders for a turn not
# open yet and a typo'd campaign get one precise reply; a format=flowed body is unflowed; each
# message is dated when sent, greets with mail.from's domain, threads with the orders mail and
# has a Message-ID of its campaign; a 5xx refusal and a garbage message leave the queue for
# failed/, told once, and `umpire outbox` lists, retries and drops them; an idle pass prints
# nothing; after the reveal the game is over for status, check, inbox and run, and every
# player gets the game's end. Then schedule.close: deadline keeps a turn open until its
# deadline. Real parts: a Maildir of real messages, a real SMTP server (aiosmtpd) on 127.0.0.1
# reached without mail.tls (a loopback relay gets plain SMTP).
. "$ROOT/tests/e2e/lib.sh"
SRC=$ROOT/campaigns/bewcastle-fray
PY=/usr/bin/python3
$PY -c 'import aiosmtpd' 2>/dev/null || die "python3-aiosmtpd missing (make deps)"
A1=$SRC/orders/turn-0001/armstrong.yaml F1=$SRC/orders/turn-0001/forster.yaml

# forster's first address is one the server does not have: his reports are refused for good.
with_emails "$SRC/scenario.yaml" armstrong=blood@example.org forster='[unknown@example.org, governor@example.org]' > scenario.yaml
cat >> scenario.yaml <<'YAML'
schedule:
  first_deadline: 2026-01-03T18:00:00Z
  every: 2d
mail:
  from: umpire@example.org
YAML
expect 0 "$BIN" init c --scenario scenario.yaml --secret-file "$SRC/demo.secret" --entropy none \
    --visibility sealed
$PY "$ROOT/tests/e2e/mail/smtp-server.py" smtp & server=$!
trap 'kill $server 2>/dev/null || true' EXIT
i=0; while [ ! -f smtp/port ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
[ -f smtp/port ] || die "the SMTP server did not start"
URL="smtp://127.0.0.1:$(cat smtp/port)"
T0=1767300000   # 2026-01-01T20:40:00Z

# A bad UMPIRE_SMTP_TLS is refused; mail.tls (starttls by default) is not used for 127.0.0.1.
mkdir -p c/.umpire/outbox/new && printf 'x' > c/.umpire/outbox/new/zz-garbage.eml
UMPIRE_SMTP_URL=$URL UMPIRE_SMTP_TLS=sometimes expect 64 "$BIN" send c
has "$TMP/err" "UMPIRE_SMTP_TLS 'sometimes' (starttls or none expected)"

# The first pass: no server yet (queued only); the mail in new/ all handled but one.
$PY "$ROOT/tests/e2e/mail/hard-messages.py" md "$A1" "$F1" $T0
SOURCE_DATE_EPOCH=$T0 expect 0 "$BIN" run c --maildir md
has "$TMP/out" "inbox: turn 1: 1 accepted, 4 refused, 0 duplicate, 1 for other campaigns, 1 unreadable, 5 automatic (not answered)"
grep -q CRITICAL "$TMP/err" && die "GMime complained about the empty file"
[ "$(ls md/new)" = 11-foreign-new ] || { ls md/new; die "md/new"; }
[ "$(ls md/cur | wc -l)" -eq 11 ] || die "md/cur"
[ "$(ls c/.umpire/outbox/new | wc -l)" -eq 8 ] || die "five replies, two briefings and the garbage queued"
# The second pass sends them, dated then; the garbage moves aside with its reason, told once.
SOURCE_DATE_EPOCH=$((T0 + 600)) UMPIRE_SMTP_URL=$URL expect 0 "$BIN" run c --maildir md
has "$TMP/out" "send: 6 sent, 0 left for the next run, 2 refused for good"
has "$TMP/err" "briefing-0000-forster.eml refused for good"
has "$TMP/err" "zz-garbage.eml refused for good, moved to .umpire/outbox/failed (umpire outbox)"
[ -f c/.umpire/outbox/failed/zz-garbage.eml.reason ] || die "no reason kept"
COMMIT=$(sed -n 's/^  commitment: \([0-9a-f]\{12\}\).*/\1/p' c/campaign.yaml)
[ -n "$COMMIT" ] || die "no commitment in campaign.yaml"
$PY - smtp "$COMMIT" "$(sed -n '/^campaign:/,$p' "$A1" | sha256sum | cut -c1-64)" <<'PY'
import email, email.policy, email.utils, glob, sys
out, commit, arm = sys.argv[1], sys.argv[2], sys.argv[3]
got = {}
briefings = []
for p in sorted(glob.glob(out + "/*.eml")):
    m = email.message_from_binary_file(open(p, "rb"), policy=email.policy.default)
    if m["Subject"] == "[bewcastle-fray] your briefing: the table before turn 1":
        briefings.append(m["To"])
        continue
    assert m["Auto-Submitted"] == "auto-replied" and m["Precedence"] == "bulk", p
    assert email.utils.parsedate_to_datetime(m["Date"]).timestamp() == 1767300600, m["Date"]
    assert open(p[:-4] + ".helo").read() == "example.org\n", p
    assert m["Message-ID"].endswith(".bewcastle-fray.%s@example.org>" % commit), m["Message-ID"]
    got[m["In-Reply-To"]] = (m["To"], m.get_body(("plain",)).get_content())
assert briefings == ["blood@example.org"], briefings  # forster's first address refuses it
assert sorted(got) == ["<body-error@players.example>", "<early@players.example>", "<flowed@players.example>",
                       "<oversize@players.example>", "<typo@players.example>"], sorted(got)
to, body = got["<flowed@players.example>"]
assert to == "blood@example.org" and "file_sha256: " + arm in body, body
assert "The turn closes once every due player's orders are in" in body and "next pass" not in body, body
to, body = got["<oversize@players.example>"]
assert to == "blood@example.org" and "umpire takes mail of at most 4096 KiB" in body, body
to, body = got["<early@players.example>"]
assert to == "governor@example.org", to
assert "these are orders for turn 2, which is not open yet: turn 1 is open (send them after turn 1's report" in body, body
to, body = got["<body-error@players.example>"]
assert "message body:9:1: error: unknown key 'bogus'" in body, body
assert "    9 | bogus: 1" in body or " 9 | bogus: 1" in body, body
to, body = got["<typo@players.example>"]
assert "no campaign 'bewcastle-fry' takes orders at this address; the campaigns here are: bewcastle-fray" in body, body
PY
# Nothing new: a pass prints nothing, whatever waits in failed/ or for another campaign.
SOURCE_DATE_EPOCH=$((T0 + 700)) UMPIRE_SMTP_URL=$URL expect 0 "$BIN" run c --maildir md
[ ! -s "$TMP/out" ] && [ ! -s "$TMP/err" ] || { cat "$TMP/out" "$TMP/err"; die "an idle pass printed"; }

# forster's orders: the turn resolves; his report to unknown@ gets a 550, which is final.
$PY "$ROOT/tests/e2e/mail/deliver.py" md governor@example.org "$F1" f1 $((T0 + 800))
SOURCE_DATE_EPOCH=$((T0 + 900)) UMPIRE_SMTP_URL=$URL expect 0 "$BIN" run c --maildir md
has "$TMP/out" "inbox: turn 1: 1 accepted, 0 refused"
has "$TMP/out" "mail: the reports of turn 1 queued for 2 players"
has "$TMP/out" "send: 2 sent, 0 left for the next run, 1 refused for good"
has "$TMP/err" "report-0001-forster.eml refused for good"
has "$TMP/err" "550"
has c/.umpire/outbox/failed/report-0001-forster.eml.reason "(the server: 550 5.1.1 <unknown@example.org>: Recipient address rejected: User unknown)"
[ "$(grep -c 'refused for good' "$TMP/err")" -eq 1 ] || die "told more than once"
expect 0 "$BIN" status c
has "$TMP/out" "outbox: 3 messages refused for good by the server (umpire outbox c)"
expect 0 "$BIN" outbox c
has "$TMP/out" "report-0001-forster.eml: failed: smtp: cannot send to unknown@example.org"
has "$TMP/out" "zz-garbage.eml: failed: "
has "$TMP/out" "outbox: 0 waiting, 3 failed, 8 sent, 0 dropped"
SOURCE_DATE_EPOCH=$((T0 + 1000)) UMPIRE_SMTP_URL=$URL expect 0 "$BIN" run c --maildir md
[ ! -s "$TMP/out" ] && [ ! -s "$TMP/err" ] || { cat "$TMP/out" "$TMP/err"; die "a failure told twice"; }
expect 0 "$BIN" outbox c --drop zz-garbage.eml
expect 66 "$BIN" outbox c --retry zz-garbage.eml
has "$TMP/err" "no message 'zz-garbage.eml' in the outbox's failed/"
expect 0 "$BIN" outbox c --retry report-0001-forster.eml
has "$TMP/out" "report-0001-forster.eml: waiting again"
UMPIRE_SMTP_URL=$URL expect 0 "$BIN" send c
has "$TMP/out" "report-0001-forster.eml: refused for good, moved to failed/"
expect 0 "$BIN" outbox c
has "$TMP/out" "outbox: 0 waiting, 2 failed, 8 sent, 1 dropped"
# armstrong's report threads with his orders mail.
f=$(grep -l "^To: blood@example.org" smtp/*.eml | xargs grep -l "turn 1: your report")
has "$f" "In-Reply-To: <flowed@players.example>"
has "$f" "Auto-Submitted: auto-generated"

# The reveal ends the game: status, check and inbox say so, run exits 0 and mails the end.
expect 0 "$BIN" reveal c
expect 0 "$BIN" status c
has "$TMP/out" "campaign bewcastle-fray: the game is over (the campaign is revealed (tag 'reveal')) after turn 1"
expect 0 "$BIN" status c --json
has "$TMP/out" '"game_over": true,'
expect 65 "$BIN" check c "$SRC/orders/turn-0002/armstrong.yaml"
has "$TMP/err" "is over (revealed: tag 'reveal')"
$PY "$ROOT/tests/e2e/mail/deliver.py" md blood@example.org "$SRC/orders/turn-0002/armstrong.yaml" a2 $((T0 + 2000))
SOURCE_DATE_EPOCH=$((T0 + 2100)) UMPIRE_SMTP_URL=$URL expect 0 "$BIN" run c --maildir md
has "$TMP/out" "inbox: turn 2: 0 accepted, 1 refused"
has "$TMP/out" "mail: the game's end queued for 2 players"
has "$TMP/out" "send: 2 sent, 0 left for the next run, 1 refused for good"
[ ! -d c/.umpire/inbox/turn-0002 ] || die "turn 2 orders kept after the reveal"
f=$(grep -l "In-Reply-To: <a2@players.example>" smtp/*.eml)
has "$f" "is over (the campaign is revealed"
f=$(grep -l "^To: blood@example.org" smtp/*.eml | xargs grep -l "the game is over")
has "$f" "published in the commit tagged 'reveal'"
has "$f" "umpire verify bewcastle-fray"
SOURCE_DATE_EPOCH=$((T0 + 2200)) UMPIRE_SMTP_URL=$URL expect 0 "$BIN" run c --maildir md
[ ! -s "$TMP/out" ] && [ ! -s "$TMP/err" ] || { cat "$TMP/out" "$TMP/err"; die "the end mailed twice"; }

# schedule.close: deadline: both have sent, yet the turn stays open (a later file replaces
# the first) until the deadline, and the acceptance says so.
sed 's/^  every: 2d$/  every: 2d\n  close: deadline/' scenario.yaml > scenario-d.yaml
expect 0 "$BIN" init d --scenario scenario-d.yaml --secret-file "$SRC/demo.secret" --entropy none
$PY "$ROOT/tests/e2e/mail/deliver.py" mdd blood@example.org "$A1" d1 $T0
$PY "$ROOT/tests/e2e/mail/deliver.py" mdd governor@example.org "$F1" d2 $T0
SOURCE_DATE_EPOCH=$((T0 + 60)) expect 0 "$BIN" run d --maildir mdd
has "$TMP/out" "inbox: turn 1: 2 accepted"
git -C d rev-parse -q --verify turn-0001 >/dev/null && die "closed before the deadline"
grep -l "The turn closes at its deadline, 2026-01-03T18:00:00Z." d/.umpire/outbox/new/*.eml >/dev/null ||
    die "the acceptance does not say when the turn closes"
SOURCE_DATE_EPOCH=1767463200 expect 0 "$BIN" run d --maildir mdd
git -C d rev-parse -q --verify turn-0001 >/dev/null || die "not resolved at the deadline"
true
# verify --view with a folder that is not there says so (issue 27 item 14).
expect 66 "$BIN" verify c --view nowhere
has "$TMP/err" "view: no such directory 'nowhere'"
true
