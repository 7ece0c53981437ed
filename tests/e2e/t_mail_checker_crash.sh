# t_mail_checker_crash.sh — issue 32 item 1: a mail no check may stop the game. The seven-line
# Reivers file (a herd order refused for its missing path, then a group with no order) once
# crashed `check`, `close` and `inbox` (SIGSEGV in warn_herd): now refused with its reason by
# command and by mail, and the next mail is read. Beyond that file: a mail whose check crashes
# (the test hook UMPIRE_TEST_CHECK_CRASH makes the checker raise SIGSEGV on a file holding its
# text, as a checker bug would) is answered, recorded as refused and set aside in the
# Maildir's umpire-failed/, by `inbox` and by `run`, and the mail after it is accepted; so is
# one whose check never ends (UMPIRE_TEST_CHECK_HANG), once its time is over.
. "$ROOT/tests/e2e/lib.sh"
SRC=$ROOT/campaigns/bewcastle-fray
with_emails "$SRC/scenario.yaml" armstrong=blood@example.org forster=governor@example.org > scenario.yaml
printf 'mail:\n  from: umpire@example.org\n' >> scenario.yaml
"$BIN" init c --scenario scenario.yaml --secret-file "$SRC/demo.secret" --entropy none >/dev/null
cat > seven.yaml <<'YAML'
campaign: bewcastle-fray
turn: 1
player: forster
orders:
  - group: bastle
    herd: [red-cow]
  - group: woodsmen
YAML
cp -a c c0

# --- By command (check, turn, close): refused with the reason (exit 65, not a crash),
# nothing written.
before=$(fingerprint c)
expect 65 "$BIN" check c seven.yaml
has "$TMP/err" "seven.yaml:6:11: error: herd has no path"
expect 65 "$BIN" turn c seven.yaml "$SRC/orders/turn-0001/armstrong.yaml"
has "$TMP/err" "herd has no path"
[ "$(fingerprint c)" = "$before" ] || die "a refused turn changed the campaign"
new_campaign bewcastle-fray cb   # the demo's entropy: turns are closed first
before=$(fingerprint cb)
expect 65 "$BIN" close cb seven.yaml "$SRC/orders/turn-0001/armstrong.yaml"
has "$TMP/err" "herd has no path"
[ "$(fingerprint cb)" = "$before" ] || die "a refused close changed the campaign"

# --- By mail: the file refused with a reply, the next mail (the Armstrongs' orders) read.
deliver() { python3 "$ROOT/tests/e2e/mail/deliver.py" md "$@"; }
deliver governor@example.org seven.yaml m1 1767300060
deliver blood@example.org "$SRC/orders/turn-0001/armstrong.yaml" m2 1767300120
expect 0 "$BIN" inbox c --maildir md
has "$TMP/out" "1767300060.m1: refused (seven.yaml:6:11: error: herd has no path"
has "$TMP/out" "1767300120.m2: accepted: orders of armstrong for turn 1"
[ -z "$(ls md/new)" ] || die "mail left in new/: $(ls md/new)"
grep -l "herd has no path" c/.umpire/outbox/new/*.eml >/dev/null || die "no reply names the problem"

# --- A check that crashes: set aside with a reply; the queue goes on, by inbox and by run.
for how in inbox run; do
    rm -rf c md && cp -a c0 c
    sed 's/^player: forster$/player: forster # BOOM-HOOK/' "$SRC/orders/turn-0001/forster.yaml" > boom.yaml
    deliver governor@example.org boom.yaml b1 1767300060
    deliver blood@example.org "$SRC/orders/turn-0001/armstrong.yaml" b2 1767300120
    if [ $how = inbox ]; then
        expect 0 env UMPIRE_TEST_CHECK_CRASH=BOOM-HOOK "$BIN" inbox c --maildir md
        has "$TMP/out" "1767300060.b1: set aside (its check failed) (umpire could not check this mail: the checker crashed (signal 11)"
        has "$TMP/out" "1767300120.b2: accepted: orders of armstrong for turn 1"
    else
        expect 0 env UMPIRE_TEST_CHECK_CRASH=BOOM-HOOK "$BIN" run c --maildir md
        has "$TMP/out" "inbox: turn 1: 1 accepted, 0 refused"
        has "$TMP/out" "inbox: turn 1: 1 set aside in the Maildir's umpire-failed/"
    fi
    has "$TMP/err" "md/umpire-failed/1767300060.b1: umpire could not check this mail"
    [ -f md/umpire-failed/1767300060.b1 ] || die "$how: the crashing mail is not in umpire-failed/"
    [ -z "$(ls md/new)" ] || die "$how: mail left in new/: $(ls md/new)"
    ls md/cur | grep -q '^1767300120.b2' || die "$how: the next mail is not in cur/"
    [ -f c/.umpire/inbox/turn-0001/armstrong.yaml ] || die "$how: the next mail's orders are not kept"
    [ ! -f c/.umpire/inbox/turn-0001/forster.yaml ] || die "$how: the crashing mail's orders were kept"
    got=$(sqlite3 c/.umpire/journal.sqlite "SELECT message_id, verdict FROM submissions ORDER BY seq" | tr '\n' ' ')
    [ "$got" = "b1@players.example|refused b2@players.example|accepted " ] || die "$how: journal: $got"
    if [ $how = inbox ]; then
        grep -l "could not check this mail" c/.umpire/outbox/new/*.eml >/dev/null ||
            die "no reply to the mail whose check crashed"
        # A second pass: nothing left to handle, nothing crashes.
        expect 0 env UMPIRE_TEST_CHECK_CRASH=BOOM-HOOK "$BIN" inbox c --maildir md
        [ ! -s "$TMP/out" ] || die "a second pass handled again: $(cat "$TMP/out")"
    fi
done
# --- A check that never ends: stopped after its time ($UMPIRE_CHECK_TIMEOUT), set aside.
rm -rf c md && cp -a c0 c
deliver governor@example.org boom.yaml h1 1767300060
deliver blood@example.org "$SRC/orders/turn-0001/armstrong.yaml" h2 1767300120
expect 0 env UMPIRE_TEST_CHECK_CRASH=BOOM-HOOK UMPIRE_TEST_CHECK_HANG=1 UMPIRE_CHECK_TIMEOUT=2 \
    "$BIN" inbox c --maildir md
has "$TMP/out" "1767300060.h1: set aside (its check failed) (umpire could not check this mail: it took longer than 2 seconds"
has "$TMP/out" "1767300120.h2: accepted: orders of armstrong for turn 1"
[ -f md/umpire-failed/1767300060.h1 ] || die "the hanging mail is not in umpire-failed/"
echo "the seven-line file refused by check, close and inbox; a crashing check set aside by inbox and run"
