# t_mail_crash.sh — `umpire inbox` killed at each of its durable points (UMPIRE_CRASH_AFTER=N:
# after the order file is kept, after the reply is queued, after the journal row) and run
# again ends exactly as one uninterrupted run: the same kept orders, the same replies in the
# outbox, the same submissions in the journal, every message in cur/ once, nothing lost.
. "$ROOT/tests/e2e/lib.sh"
SRC=$ROOT/campaigns/bewcastle-fray
with_emails "$SRC/scenario.yaml" armstrong='[blood@example.org, Peter.Blood@Example.net]' forster=governor@example.org > scenario.yaml
printf 'mail:\n  from: umpire@example.org\n' >> scenario.yaml
"$BIN" init c0 --scenario scenario.yaml --secret-file "$SRC/demo.secret" --entropy none >/dev/null
python3 "$ROOT/tests/e2e/mail/make-messages.py" md0 bewcastle-fray \
    "$SRC/orders/turn-0001/armstrong.yaml" "$SRC/orders/turn-0001/forster.yaml"
# Four of them keep the loop short: an attachment, an inline body, a refusal, a duplicate.
rm md0/new/03-* md0/new/05-* md0/new/06-* md0/new/08-* md0/new/09-*

# What a campaign and its Maildir hold after the inbox.
outcome() { # CAMPAIGN MAILDIR
    (cd "$1/.umpire" && find inbox outbox -type f | LC_ALL=C sort | xargs sha256sum)
    sqlite3 "$1/.umpire/journal.sqlite" \
        "SELECT seq, player, sender, message_id, mail_sha256, sha256, verdict, reason FROM submissions ORDER BY seq"
    (cd "$2" && ls new cur)
}
cp -a c0 ref && cp -a md0 mdref
"$BIN" inbox ref --maildir mdref >/dev/null
outcome ref mdref > want

n=1
while :; do
    rm -rf c md && cp -a c0 c && cp -a md0 md
    set +e; UMPIRE_CRASH_AFTER=$n "$BIN" inbox c --maildir md >/dev/null 2>&1; rc=$?; set -e
    [ $rc -eq 0 ] && break
    [ $rc -eq 99 ] || die "N=$n: exit $rc (99 expected for a crash)"
    expect 0 "$BIN" inbox c --maildir md
    outcome c md > got
    cmp want got || { diff want got | head; die "N=$n: the rerun differs from one uninterrupted run"; }
    n=$((n + 1))
done
[ $n -gt 9 ] || die "only $((n - 1)) crash points: the inbox's durable points are not reached"
echo "crash points: $((n - 1))"
