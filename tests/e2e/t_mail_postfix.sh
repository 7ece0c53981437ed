# t_mail_postfix.sh — a game by mail on a real mail server, played by `umpire run` alone from
# the first mail to the game's end (issue 27): Debian's Postfix on 127.0.0.1 (its own
# config_directory, queue_directory and data_directory under the test's folder, loopback
# only, a free port, no relay, virtual delivery to Maildirs), players mailing their orders
# over SMTP, umpire sending over SMTP with mail.tls left at starttls (a loopback relay gets
# plain SMTP: this Postfix has no certificate), a recipient Postfix refuses (550: failed/),
# a real bounce (a report to an address Postfix accepts and cannot deliver) and a vacation
# responder's reply (never answered), three turns of Border Reivers to the game-end mail, and
# the published repository served by `git daemon` running as another user (a system user
# made here), which needs safe.directory. Needs root (Postfix, the user): skipped otherwise.
# Postfix is never the system's: installed system-wide it would remove the machine's own mail
# server (it conflicts with exim4, nullmailer, msmtp-mta ...), so this test runs Debian's
# package unpacked into build/postfix (apt-get download + dpkg -x), the same on every machine,
# with the libraries tools/install-deps' test list installs; and it makes Postfix's users
# (postfix, group postdrop) as the package's postinst would, when they are missing.
. "$ROOT/tests/e2e/lib.sh"
if [ "$(id -u)" -ne 0 ]; then
    skip "needs root (it runs Postfix and git daemon as another user)"
fi
PATH=$PATH:/usr/sbin:/sbin
PF=$ROOT/build/postfix
if [ ! -x "$PF/usr/sbin/postfix" ]; then
    dl=$(mktemp -d "$ROOT/build/postfix-dl.XXXXXX")
    (cd "$dl" && apt-get download -q postfix) >"$TMP/apt.log" 2>&1 ||
        { cat "$TMP/apt.log"; rm -rf "$dl"; skip "cannot download Debian's postfix (apt-get download postfix: output above)"; }
    dpkg -x "$dl"/postfix_*.deb "$dl/root"
    rm -rf "$PF"
    mv "$dl/root" "$PF"
    rm -rf "$dl"
fi
getent group postfix >/dev/null || groupadd --system postfix
getent group postdrop >/dev/null || groupadd --system postdrop
id postfix >/dev/null 2>&1 || useradd --system --gid postfix --no-create-home \
    --home-dir /var/spool/postfix --shell /usr/sbin/nologin postfix
# Debian links its Postfix to libpostfix-*.so in /usr/lib/postfix (RUNPATH):
# LD_LIBRARY_PATH, searched first, points it at the unpacked copy (and main.cf's
# import_environment hands it to the daemons).
export LD_LIBRARY_PATH=$PF/usr/lib/postfix
missing=$(ldd "$PF/usr/lib/postfix/sbin/smtpd" "$PF/usr/sbin/postconf" | sed -n 's/^[[:space:]]*\([^ ]*\) => not found$/\1/p' | sort -u)
[ -z "$missing" ] || die "the unpacked postfix lacks libraries: $(echo $missing) (sh tools/install-deps test)"
postfix() { "$PF/usr/sbin/postfix" "$@"; }
PY=/usr/bin/python3
SRC=$ROOT/campaigns/bewcastle-fray
unset SOURCE_DATE_EPOCH   # a real server, real delivery times: the clock
SEND="$PY $ROOT/tests/e2e/mail/smtp-send.py"
free_port() { $PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# wait_mail DIR N: until the Maildir DIR has N messages in new/ (Postfix delivers in ms).
wait_mail() {
    _i=0
    while [ "$(ls "$1/new" 2>/dev/null | wc -l)" -lt "$2" ] && [ $_i -lt 300 ]; do sleep 0.1; _i=$((_i + 1)); done
    [ "$(ls "$1/new" 2>/dev/null | wc -l)" -ge "$2" ] || { tail -20 "$P/maillog"; die "$1: fewer than $2 messages"; }
}

# --- Postfix: every file under the test's folder; Postfix's own users need to reach it.
chmod 755 "$TMP"
P=$TMP/postfix
mkdir -p "$P/etc" "$P/spool" "$P/data" "$P/mail"
chown postfix "$P/data"
chown 65534:65534 "$P/mail"
: > "$P/maillog"; chown postfix "$P/maillog"
PORT=$(free_port)
cat > "$P/etc/main.cf" <<CF
compatibility_level = 3.6
command_directory = $PF/usr/sbin
daemon_directory = $PF/usr/lib/postfix/sbin
meta_directory = $PF/etc/postfix
shlib_directory = $PF/usr/lib/postfix
import_environment = MAIL_CONFIG MAIL_DEBUG MAIL_LOGTAG TZ LANG=C POSTLOG_SERVICE POSTLOG_HOSTNAME LD_LIBRARY_PATH
queue_directory = $P/spool
data_directory = $P/data
maillog_file = $P/maillog
maillog_file_prefixes = $TMP
inet_interfaces = loopback-only
inet_protocols = ipv4
myhostname = mail.example.org
mydomain = example.org
myorigin = example.org
mydestination =
mynetworks = 127.0.0.0/8
local_transport = error:5.1.1 no local delivery here
default_transport = error:5.1.2 this test relays nowhere
relayhost =
virtual_mailbox_domains = example.org players.example
virtual_mailbox_base = $P/mail
virtual_mailbox_maps = texthash:$P/etc/vmailbox
virtual_alias_maps = texthash:$P/etc/valias
virtual_uid_maps = static:65534
virtual_gid_maps = static:65534
alias_maps =
alias_database =
biff = no
smtputf8_enable = no
CF
printf '%s %s/\n' umpire@example.org umpire blood@players.example blood \
    governor@players.example governor > "$P/etc/vmailbox"
# ghost@ is accepted, then cannot be delivered: Postfix bounces it to the sender.
echo "ghost@players.example gone@nowhere.invalid" > "$P/etc/valias"
# Debian's master.cf (master.cf.dist), smtpd on 127.0.0.1:PORT, nothing chrooted (no copy of /etc in the queue).
awk -v port="$PORT" '/^#/ || /^[ \t]/ || NF < 8 { print; next }
    $1 == "smtp" && $2 == "inet" { $1 = "127.0.0.1:" port } { $5 = "n"; print }' \
    "$PF/usr/share/postfix/master.cf.dist" > "$P/etc/master.cf"
postfix -c "$P/etc" start 2>&1 || { cat "$P/maillog"; die "postfix did not start"; }
GIT_PID=
trap 'postfix -c "$P/etc" stop >/dev/null 2>&1 || true; [ -z "$GIT_PID" ] || kill $GIT_PID 2>/dev/null || true' EXIT
i=0; while ! $PY -c "import socket; socket.create_connection(('127.0.0.1', $PORT), 1)" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
MD=$P/mail/umpire

# --- The campaign: three turns; forster's first address is ghost@ (his reports bounce).
sed -e 's/^  - id: armstrong$/  - id: armstrong\n    email: blood@players.example/' \
    -e 's/^  - id: forster$/  - id: forster\n    email: [ghost@players.example, governor@players.example]/' \
    -e 's/^  turns: 27$/  turns: 3/' "$SRC/scenario.yaml" > scenario.yaml
cat >> scenario.yaml <<YAML
publish:
  remote: $TMP/pub/bewcastle-fray.git
  auto: true
mail:
  from: umpire@example.org
  smtp: smtp://127.0.0.1:$PORT
YAML
expect 0 "$BIN" init c --scenario scenario.yaml --secret-file "$SRC/demo.secret" --entropy none \
    --visibility open

# --- Turn 1: both players, and a stranger whose address Postfix does not know.
$SEND "$PORT" blood@players.example "$SRC/orders/turn-0001/armstrong.yaml" a1
$SEND "$PORT" governor@players.example "$SRC/orders/turn-0001/forster.yaml" f1
$SEND "$PORT" nobody@example.org "$SRC/orders/turn-0001/forster.yaml" x1
wait_mail "$MD" 3
expect 0 "$BIN" run c --maildir "$MD"
has "$TMP/out" "inbox: turn 1: 2 accepted, 1 refused"
has "$TMP/out" "turn 1: "
has "$TMP/out" "mail: the reports of turn 1 queued for 2 players"
has "$TMP/out" "publish: main and 2 tags to $TMP/pub/bewcastle-fray.git"
has "$TMP/out" "send: 4 sent, 0 left for the next run, 1 refused for good"
has "$TMP/err" "550"
expect 0 "$BIN" outbox c
has "$TMP/out" "failed: smtp: cannot send to nobody@example.org"
# blood: his acceptance and report; governor: his acceptance; ghost's report bounces back.
wait_mail "$P/mail/blood" 2
wait_mail "$P/mail/governor" 1
wait_mail "$MD" 1
grep -l "^Return-Path: <>" "$MD"/new/* >/dev/null || die "no bounce came back"
# blood's vacation responder answers umpire's acceptance.
acc=$(grep -l "orders accepted" "$P/mail/blood"/new/* | head -1)
id=$(sed -n 's/^Message-I[Dd]: //p' "$acc" | tr -d '\r')
has "$acc" "Auto-Submitted: auto-replied"
$SEND "$PORT" blood@players.example - vac1 "Auto-Submitted: auto-replied" "In-Reply-To: $id"
wait_mail "$MD" 2

# --- Turns 2 and 3: the bounce and the vacation reply are filed, never answered.
for n in 2 3; do
    have=$(ls "$MD/new" | wc -l)
    $SEND "$PORT" blood@players.example "$SRC/orders/turn-000$n/armstrong.yaml" a$n
    $SEND "$PORT" governor@players.example "$SRC/orders/turn-000$n/forster.yaml" f$n
    wait_mail "$MD" $((have + 2))
    expect 0 "$BIN" run c --maildir "$MD"
    has "$TMP/out" "inbox: turn $n: 2 accepted, 0 refused"
    [ $n -eq 3 ] || has "$TMP/out" "2 automatic (not answered)"
    has "$TMP/out" "mail: the reports of turn $n queued for 2 players"
    wait_mail "$MD" 1   # ghost's report bounces again
done
# The last turn ends the game: the same pass mailed the end to every player.
has "$TMP/out" "mail: the game's end queued for 2 players"
expect 0 "$BIN" status c
has "$TMP/out" "the game is over (the scenario's last turn has been played) after turn 3"
wait_mail "$P/mail/blood" 7   # 3 acceptances, 3 reports and the end
end=$(grep -l "the game is over" "$P/mail/blood"/new/* | head -1)
[ -n "$end" ] || die "no game-end mail to blood"
has "$end" "Auto-Submitted: auto-generated"
has "$end" "umpire verify bewcastle-fray"
grep -l "refused" "$P/mail/blood"/new/* && die "umpire answered the vacation reply or the bounce"
# Orders after the end get a reply saying so; the pass exits 0 and sends.
$SEND "$PORT" blood@players.example "$SRC/orders/turn-0003/armstrong.yaml" a4
wait_mail "$MD" 1
expect 0 "$BIN" run c --maildir "$MD"
has "$TMP/out" "inbox: turn 4: 0 accepted, 1 refused"
has "$TMP/out" "send: 1 sent"
# An idle pass: nothing printed.
expect 0 "$BIN" run c --maildir "$MD"
[ ! -s "$TMP/out" ] && [ ! -s "$TMP/err" ] || { cat "$TMP/out" "$TMP/err"; die "an idle pass printed"; }

# --- The published repository, served by git daemon as another user: without
# safe.directory git refuses a repository it does not own ("dubious ownership").
id umpire-git >/dev/null 2>&1 ||
    useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin umpire-git
GPORT=$(free_port)
mkdir -p "$P/ghome" && chown umpire-git "$P/ghome"
daemon() {
    env -i PATH=/usr/bin:/bin HOME="$P/ghome" GIT_CONFIG_GLOBAL="$1" \
        setpriv --reuid=umpire-git --regid=umpire-git --clear-groups \
        git daemon --reuseaddr --listen=127.0.0.1 --port="$GPORT" --base-path="$TMP/pub" \
        --export-all >"$P/git-daemon.log" 2>&1 &
    GIT_PID=$!
    _i=0; while ! $PY -c "import socket; socket.create_connection(('127.0.0.1', $GPORT), 1)" 2>/dev/null && [ $_i -lt 100 ]; do sleep 0.1; _i=$((_i + 1)); done
}
: > "$P/gitconfig-none"; printf '[safe]\n\tdirectory = *\n' > "$P/gitconfig"
daemon "$P/gitconfig-none"
git clone -q "git://127.0.0.1:$GPORT/bewcastle-fray.git" refused 2>/dev/null && die "served without safe.directory"
kill $GIT_PID; wait $GIT_PID 2>/dev/null || true
has "$P/git-daemon.log" "dubious ownership"
daemon "$P/gitconfig"
git clone -q "git://127.0.0.1:$GPORT/bewcastle-fray.git" clone || { cat "$P/git-daemon.log"; die "git daemon"; }
expect 3 "$BIN" verify clone
expect 3 node "$JSV" clone
[ "$(git -C clone rev-parse HEAD)" = "$(git -C c rev-parse HEAD)" ] || die "the served main"
true
