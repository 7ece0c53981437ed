# t_mail_sendmail.sh — `mail.transport: sendmail`: the outbox handed to a real sendmail
# program instead of SMTP. The program is Debian's msmtp (its sendmail mode: `msmtp -oi -f FROM
# -- TO`, configured by the GM's ~/.msmtprc as any MTA is by its own configuration), relaying to
# a real SMTP server on 127.0.0.1 (aiosmtpd); a failure (the relay down) keeps the message for
# the next run, and a sent message is never handed over twice.
. "$ROOT/tests/e2e/lib.sh"
SRC=$ROOT/campaigns/bewcastle-fray
PY=/usr/bin/python3
MSMTP=/usr/bin/msmtp
$PY -c 'import aiosmtpd' 2>/dev/null || die "python3-aiosmtpd missing (make deps)"
[ -x $MSMTP ] || die "msmtp missing (make deps)"

with_emails "$SRC/scenario.yaml" armstrong=blood@example.org forster=governor@example.org > scenario.yaml
cat >> scenario.yaml <<YAML
mail:
  from: umpire@example.org
  transport: sendmail
  sendmail: $MSMTP
YAML
# A sendmail that is not an absolute path is refused at its line.
sed "s|sendmail: $MSMTP|sendmail: msmtp|" scenario.yaml > bad.yaml
expect 65 "$BIN" init bad --scenario bad.yaml --secret-file "$SRC/demo.secret" --entropy none
has "$TMP/err" "sendmail 'msmtp' (an absolute path like /usr/sbin/sendmail expected)"
sed "s|transport: sendmail|transport: uucp|" scenario.yaml > bad.yaml
expect 65 "$BIN" init bad --scenario bad.yaml --secret-file "$SRC/demo.secret" --entropy none
has "$TMP/err" "transport"

expect 0 "$BIN" init c --scenario scenario.yaml --secret-file "$SRC/demo.secret" --entropy none
has c/campaign.yaml "transport: sendmail"
python3 "$ROOT/tools/check-schemas.py" c >/dev/null || die "campaign.yaml does not match its schema"

$PY "$ROOT/tests/e2e/mail/make-messages.py" md bewcastle-fray \
    "$SRC/orders/turn-0001/armstrong.yaml" "$SRC/orders/turn-0001/forster.yaml"
# The first two mails only: the attachment (armstrong) and the inline orders (forster).
for f in md/new/*; do case $f in md/new/01-*|md/new/02-*) ;; *) rm "$f" ;; esac; done
expect 0 "$BIN" inbox c --maildir md
[ "$(ls c/.umpire/outbox/new | wc -l)" -eq 2 ] || die "2 replies queued"

# The relay is not running yet: msmtp fails, umpire says so and keeps both.
cat > "$HOME/.msmtprc" <<'RC'
account default
host 127.0.0.1
port 1
tls off
auth off
RC
chmod 600 "$HOME/.msmtprc"
expect 75 "$BIN" send c
has "$TMP/out" "not sent (sendmail: '$MSMTP' exited"
[ "$(ls c/.umpire/outbox/new | wc -l)" -eq 2 ] || die "failed messages must stay queued"
[ -d c/.umpire/outbox/sent ] && [ "$(ls c/.umpire/outbox/sent | wc -l)" -ne 0 ] && die "nothing sent yet"

# A program that cannot run is a failure too, not a crash (a campaign naming a missing one,
# with one of the replies queued).
sed "s|sendmail: $MSMTP|sendmail: /nonexistent/sendmail|" scenario.yaml > missing.yaml
expect 0 "$BIN" init c2 --scenario missing.yaml --secret-file "$SRC/demo.secret" --entropy none
mkdir -p c2/.umpire/outbox/new
cp "$(ls c/.umpire/outbox/new/*.eml | head -n 1)" c2/.umpire/outbox/new/
expect 75 "$BIN" send c2
has "$TMP/out" "not sent (sendmail: cannot run '/nonexistent/sendmail'"
[ "$(ls c2/.umpire/outbox/new | wc -l)" -eq 1 ] || die "the message must stay queued"

# The relay up: both handed over, once.
$PY "$ROOT/tests/e2e/mail/smtp-server.py" smtp & server=$!
trap 'kill $server 2>/dev/null || true' EXIT
i=0; while [ ! -f smtp/port ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
[ -f smtp/port ] || die "the SMTP server did not start"
sed -i "s/^port 1$/port $(cat smtp/port)/" "$HOME/.msmtprc"
# No SMTP server in the campaign and none in the environment: sendmail does not need one.
expect 0 "$BIN" send c
[ "$(grep -c ': sent to ' "$TMP/out")" -eq 2 ] || die "2 messages sent"
has "$TMP/out" "sent to blood@example.org"
has "$TMP/out" "sent to governor@example.org"
expect 0 "$BIN" send c
[ -s "$TMP/out" ] && die "a second send hands nothing over"
[ "$(ls smtp/*.eml | wc -l)" -eq 2 ] || die "2 messages at the server"
# The envelope is umpire's (-f FROM -- TO), and the message arrives whole: the SMTP relay got
# CRLF lines again from the LF ones handed to msmtp, with the reply's headers and verdict.
for n in 001 002; do
    [ "$(sed -n 1p smtp/$n.env)" = "umpire@example.org" ] || die "$n: envelope sender"
done
cat smtp/001.env smtp/002.env | grep -qx blood@example.org || die "no envelope to blood"
cat smtp/001.env smtp/002.env | grep -qx governor@example.org || die "no envelope to governor"
for n in 001 002; do
    $PY - smtp/$n.eml <<'PY'
import email, email.policy, sys
raw = open(sys.argv[1], "rb").read()
m = email.message_from_bytes(raw, policy=email.policy.default)
assert "<umpire@example.org>" in m["From"], m["From"]
assert "orders accepted" in m["Subject"], m["Subject"]
assert b"\r\r" not in raw, "CR doubled on the way"
body = m.get_body(("plain",)).get_content()
assert "accepted" in body and "sha256" in body.lower(), body
PY
done
# The queue agrees: both in sent/, none in new/.
[ "$(ls c/.umpire/outbox/new | wc -l)" -eq 0 ] || die "new/ not empty"
[ "$(ls c/.umpire/outbox/sent | wc -l)" -eq 2 ] || die "2 in sent/"
