# t_helper_stall.sh — issue 32 item 3: no helper that stalls hangs a run. Each child umpire
# starts is given its time (shortened here through the environment: UMPIRE_BLS_TIMEOUT,
# UMPIRE_SENDMAIL_TIMEOUT, UMPIRE_SMTP_TIMEOUT, UMPIRE_SSH_KEYGEN_TIMEOUT), then stopped
# (SIGTERM, then SIGKILL: these helpers ignore SIGTERM) and reaped, and umpire exits with the
# message: a BLS helper that never answers (`turn` and `verify`, exit 74), a sendmail program
# and an SMTP server on 127.0.0.1 that take the message and never answer (`send`: one stall
# ends the pass, the rest stay queued "not tried", exit 75), an ssh-keygen that never gives
# its verdict on signed orders (`inbox`, exit 74, the mail left in new/).
. "$ROOT/tests/e2e/lib.sh"
HR="$ROOT/campaigns/harbour-raid"
SRC="$ROOT/campaigns/bewcastle-fray"
RAND=fc1873a13f3545aeade8401532ef5519920652eee6b0d2b19ca12643b87b3587
SIG=b713718a38ae728dfd477991af2822e08d2f305e47718cef9f7848ce4050e7be41076862b98fad56e91a6b85b89cd97b
ROUND_AT=1694775603 # drand quicknet's round 657413 (t_beacon_bls.sh)
at() { _t=$1; shift; env SOURCE_DATE_EPOCH="$_t" "$@"; }

# stall NAME: a program that writes its pid to NAME.pid, ignores SIGTERM, reads nothing and
# never ends (one process: python3 exec'd, so the pid is the one umpire started).
stall() {
    cat > "$1" <<SH
#!/bin/sh
echo \$\$ > "$PWD/$1.pid"
exec python3 -c 'import signal, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
time.sleep(3600)'
SH
    chmod +x "$1"
}
# gone NAME: the stalled program NAME was stopped and reaped (no such process, not a zombie).
gone() {
    [ -s "$1.pid" ] || die "$1 never ran"
    ! kill -0 "$(cat "$1.pid")" 2>/dev/null || { kill -9 "$(cat "$1.pid")"; die "$1 still runs"; }
}

# --- The BLS helper: turn and verify end with exit 74 and the message.
stall sleepy-bls
at 1694770000 "$BIN" init c --scenario "$HR/scenario.yaml" --secret-file "$HR/demo.secret" \
    --visibility open >/dev/null
expect 0 at $((ROUND_AT - 600)) "$BIN" close c "$HR/orders/turn-0001/attacker.yaml"
cp -a c played
before=$(fingerprint c)
expect 74 env UMPIRE_BLS="$PWD/sleepy-bls" UMPIRE_BLS_TIMEOUT=2 SOURCE_DATE_EPOCH=$((ROUND_AT + 97)) \
    "$BIN" turn c --beacon "$RAND" --beacon-signature "$SIG"
has "$TMP/err" "umpire-bls gave no answer in 2 seconds: it was stopped"
gone sleepy-bls
[ "$(fingerprint c)" = "$before" ] || die "a turn that found no answer wrote something"
rm sleepy-bls.pid
expect 0 at $((ROUND_AT + 97)) "$BIN" turn played --beacon "$RAND" --beacon-signature "$SIG"
expect 74 env UMPIRE_BLS="$PWD/sleepy-bls" UMPIRE_BLS_TIMEOUT=2 "$BIN" verify played
has "$TMP/err" "umpire-bls gave no answer in 2 seconds: it was stopped"
gone sleepy-bls

# --- Mail: three replies queued by the inbox (two players' orders and a stranger's mail).
with_emails "$SRC/scenario.yaml" armstrong=blood@example.org forster=governor@example.org > scenario.yaml
printf 'mail:\n  from: umpire@example.org\n' >> scenario.yaml
"$BIN" init m --scenario scenario.yaml --secret-file "$SRC/demo.secret" --entropy none >/dev/null
deliver() { python3 "$ROOT/tests/e2e/mail/deliver.py" md "$@"; }
deliver blood@example.org "$SRC/orders/turn-0001/armstrong.yaml" a1 1767300060
deliver governor@example.org "$SRC/orders/turn-0001/forster.yaml" a2 1767300120
deliver stranger@example.org "$SRC/orders/turn-0001/forster.yaml" a3 1767300180
expect 0 "$BIN" inbox m --maildir md
[ "$(ls m/.umpire/outbox/new | wc -l)" -eq 3 ] || die "three replies expected in the outbox"
cp -a m m0

# send_stalls: the first message stalled and was stopped, the other two not tried, all three
# still queued.
send_stalls() {
    [ "$(grep -c 'not sent (' "$TMP/out")" -eq 3 ] || die "three messages not sent expected"
    [ "$(grep -c 'not tried: the server stalled on an earlier message' "$TMP/out")" -eq 2 ] ||
        die "the two after the stall not tried"
    [ "$(ls "$1/.umpire/outbox/new" | wc -l)" -eq 3 ] || die "the three messages stay queued"
    [ ! -d "$1/.umpire/outbox/sent" ] || [ -z "$(ls "$1/.umpire/outbox/sent")" ] || die "something was sent"
}

# A sendmail program that stalls.
stall sleepy-sendmail
sed 's|^mail:$|mail:\n  transport: sendmail\n  sendmail: '"$PWD"'/sleepy-sendmail|' scenario.yaml > sm.yaml
grep -q "sleepy-sendmail" sm.yaml || die "no sendmail line"
"$BIN" init sm0 --scenario sm.yaml --secret-file "$SRC/demo.secret" --entropy none >/dev/null
rm -rf sm && cp -a m0 sm && cp sm0/campaign.yaml sm/campaign.yaml
git -C sm commit -qam "transport: sendmail"
expect 75 env UMPIRE_SENDMAIL_TIMEOUT=2 "$BIN" send sm
has "$TMP/out" "not sent (sendmail: '$PWD/sleepy-sendmail' stalled and was stopped"
send_stalls sm
gone sleepy-sendmail

# An SMTP server that takes the connection and never says a word.
cat > stall-server.py <<'PY'
import socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(8)
open(sys.argv[1] + ".tmp", "w").write(str(s.getsockname()[1]))
import os; os.rename(sys.argv[1] + ".tmp", sys.argv[1])
held = []
while True:
    c, _ = s.accept()
    held.append(c)
PY
python3 stall-server.py port & server=$!
trap 'kill $server 2>/dev/null || true' EXIT
i=0; while [ ! -f port ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
[ -f port ] || die "the stalling server did not start"
rm -rf sp && cp -a m0 sp
expect 75 env UMPIRE_SMTP_URL="smtp://127.0.0.1:$(cat port)" UMPIRE_SMTP_TIMEOUT=2 "$BIN" send sp
has "$TMP/out" "not sent (smtp: cannot send to blood@example.org through smtp://127.0.0.1:$(cat port)"
send_stalls sp

# --- ssh-keygen that never gives its verdict on signed orders: the inbox stops, exit 74.
mkdir -p fakebin
stall fakebin/ssh-keygen
key=$(printf 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl test')
sed "s|^    email: governor@example.org|    email: governor@example.org\n    ssh_key: $key|" scenario.yaml > signed.yaml
grep -q ssh_key signed.yaml || die "no ssh_key line"
"$BIN" init s --scenario signed.yaml --secret-file "$SRC/demo.secret" --entropy none >/dev/null
echo "not a real signature" > forster.yaml.sig
cp "$SRC/orders/turn-0001/forster.yaml" forster.yaml
python3 "$ROOT/tests/e2e/mail/deliver.py" smd governor@example.org forster.yaml s1 1767300060 forster.yaml.sig
expect 74 env PATH="$PWD/fakebin:$PATH" UMPIRE_SSH_KEYGEN_TIMEOUT=2 "$BIN" inbox s --maildir smd
has "$TMP/err" "ssh-keygen gave no verdict in time and was stopped"
gone fakebin/ssh-keygen
[ -f smd/new/1767300060.s1 ] || die "the mail is not left in new/ for the next pass"
echo "BLS helper, sendmail, SMTP server and ssh-keygen stalls: each stopped, reaped and told"
