# t_long_campaign.sh — what a campaign of months needs from `umpire run` (issue 37): the
# turn-0 briefing (each player's own view and the head of his first order file) mailed to
# every player on the first pass, once; orders typed in a reply above the quoted report
# (no "-- " line) read without the quote and its attribution line; and, at the game's end,
# who won by the scenario's victory conditions in status, the last report and the game-end
# mail. Real parts: a Maildir of messages made with Python's email package.
. "$ROOT/tests/e2e/lib.sh"
SRC=$ROOT/campaigns/bewcastle-fray
PY=/usr/bin/python3
with_emails "$SRC/scenario.yaml" armstrong=blood@example.org forster=governor@example.org > scenario.yaml
cat >> scenario.yaml <<'YAML'
mail:
  from: umpire@example.org
YAML
expect 0 "$BIN" init c --scenario scenario.yaml --secret-file "$SRC/demo.secret" --entropy none \
    --visibility sealed
mkdir -p md/new md/cur md/tmp
T0=1767300000

# The first pass: each player's briefing queued, his view and map attached.
SOURCE_DATE_EPOCH=$T0 expect 0 "$BIN" run c --maildir md
has "$TMP/out" "mail: the briefings queued for 2 players"
for p in armstrong forster; do
    m=c/.umpire/outbox/new/briefing-0000-$p.eml
    [ -f "$m" ] || die "no briefing queued for $p"
    $PY - "$m" "$p" <<'PY' || die "$p's briefing mail"
import email, email.policy, sys
m = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=email.policy.default)
p = sys.argv[2]
assert m["Subject"] == "[bewcastle-fray] your briefing: the table before turn 1", m["Subject"]
names = [a.get_filename() for a in m.iter_attachments()]
assert names == ["briefing.md", "briefing.svg"], names
body = m.get_body(("plain",)).get_content()
assert "# bewcastle-fray, turn 0: briefing for %s" % p in body, body[:200]
assert "player: %s" % p in body, "no first order file in the briefing"
PY
done
# The armstrong briefing is his own: forster's hidden party is not in it.
grep -q 'briefing for forster' c/.umpire/outbox/new/briefing-0000-armstrong.eml && die "armstrong got forster's briefing"
# Once: the next pass queues no briefing again.
SOURCE_DATE_EPOCH=$((T0 + 60)) expect 0 "$BIN" run c --maildir md
grep -q briefings "$TMP/out" && die "briefings queued twice"

# Orders typed above the quoted report, with the mail program's attribution line and no "-- ".
$PY - md "$SRC/orders/turn-0001/armstrong.yaml" <<'PY'
import email.message, email.policy, os, sys
md, orders = sys.argv[1], open(sys.argv[2], encoding="utf-8").read()
m = email.message.EmailMessage()
m["From"] = "blood@example.org"
m["To"] = "umpire@example.org"
m["Subject"] = "Re: [bewcastle-fray] your briefing: the table before turn 1"
m["Message-ID"] = "<reply-1@players.example>"
m["Date"] = "Fri, 02 Jan 2026 10:00:00 +0000"
quote = "".join("> " + l + "\n" for l in ["# bewcastle-fray, turn 0: briefing for armstrong", "",
    "campaign: bewcastle-fray", "turn: 1", "orders: []"])
m.set_content(orders.rstrip("\n") + "\n\nOn Fri, 2 Jan 2026 at 09:00, umpire@example.org wrote:\n" + quote)
path = os.path.join(md, "new", "01-reply-above-quote")
open(path, "wb").write(m.as_bytes(policy=email.policy.SMTP))
PY
SOURCE_DATE_EPOCH=$((T0 + 120)) expect 0 "$BIN" run c --maildir md
has "$TMP/out" "inbox: turn 1: 1 accepted"
kept=c/.umpire/inbox/turn-0001/armstrong.yaml
grep -q 'wrote:\|^>' "$kept" && die "the quote or its attribution was kept in the orders"
sed -n '/^campaign:/,$p' "$SRC/orders/turn-0001/armstrong.yaml" > typed.yaml
cmp "$kept" typed.yaml || { diff "$kept" typed.yaml; die "the orders are not the ones typed"; }

# The end: who won, by the scenario's victory (docs/rules/reivers.md "Victory"), in status,
# the last report and the game-end mail (the demo's turns, the players' addresses above).
# shellcheck disable=SC2046
"$BIN" init "$TMP/g" --scenario scenario.yaml --secret-file "$SRC/demo.secret" \
    $(cat "$SRC/demo.init") >/dev/null || die "init g"
play bewcastle-fray "$TMP/g"
expect 0 "$BIN" reveal "$TMP/g"
expect 0 "$BIN" status "$TMP/g"
result=$(sed -n 's/^result: //p' "$TMP/out")
[ -n "$result" ] || die "status names no result"
[ "$result" = "$(cat "$ROOT/tests/golden/bewcastle-fray/result")" ] || die "status: $result"
expect 0 "$BIN" status --json "$TMP/g"
has "$TMP/out" "\"result\": \"$result\""
case $result in
*" wins: "*) has "$TMP/out" "\"winner\": \"${result%% wins:*}\"" ;;
*) has "$TMP/out" '"winner": null' ;;
esac
grep -qF -- "**$result.**" "$TMP/g/reports/turn-0027.md" || die "the last public report gives no result"
SOURCE_DATE_EPOCH=$((T0 + 86400)) expect 0 "$BIN" run "$TMP/g" --maildir md
for p in armstrong forster; do
    $PY - "$TMP/g/.umpire/outbox/new/end-0000-$p.eml" "$result" <<'PY' || die "$p's game-end mail"
import email, email.policy, sys
m = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=email.policy.default)
body = m.get_body(("plain",)).get_content()
assert "The result: %s." % sys.argv[2] in " ".join(body.split()), body
PY
done
