# t_receipts.sh — the receipts as the players' witness (docs/fairness.md, "Receipts"), with
# real mail: `umpire run` closes a turn, queues the receipt mails, publishes the close commit
# and sends the mail in one pass to a real SMTP server on 127.0.0.1, which keeps each message
# as the player's mail server would deliver it (a Received: header on top, dated by the test's
# clock). The player's saved mail (.eml) is what he gives `umpire verify --receipt`, and both
# verifiers must agree on every case:
#   - an honest close: the receipt (sealed: with its salt, file_sha256 and commitment) checks;
#   - a backdated close (the umpire's clock set back, the round already out when the receipt
#     arrived) fails on the receipt's arrival time;
#   - a re-close (close, keep the receipts back, resolve privately, restore a backup and close
#     again later) fails on the close's time against the deadline and grace;
#   - --receipts-of P fails when a close has no receipt of P among the files given (every
#     player gets the receipt of every close, due or not);
#   - entropy players: a close with no entropy: commitment is refused; a dropped reveal ("no
#     reveal from P" while P holds the reveal receipt mailed to him) fails.
. "$ROOT/tests/e2e/lib.sh"
HR=$ROOT/campaigns/harbour-raid
BS=$ROOT/campaigns/betio-seawall
PY=/usr/bin/python3
V=${V:-$JSV}   # V: another verifier to try (an older one)
DELIVER="$PY $ROOT/tests/e2e/mail/deliver.py"
$PY -c 'import aiosmtpd' 2>/dev/null || die "python3-aiosmtpd missing (make deps)"
at() { _t=$1; shift; env SOURCE_DATE_EPOCH="$_t" "$@"; }

$PY "$ROOT/tests/e2e/mail/smtp-server.py" smtp & server=$!
trap 'kill $server 2>/dev/null || true' EXIT
i=0; while [ ! -f smtp/port ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
[ -f smtp/port ] || die "the SMTP server did not start"
export UMPIRE_SMTP_URL="smtp://127.0.0.1:$(cat smtp/port)"
# clock T: the time the players' mail server stamps on what it receives from now on
clock() { echo "$1" > smtp/clock.tmp; mv smtp/clock.tmp smtp/clock; }
# newest SUBJECT RCPT: the last message the server received with that subject for RCPT
newest() {
    $PY - smtp "$1" "$2" <<'PYN'
import email, email.policy, glob, sys
found = None
for path in sorted(glob.glob(sys.argv[1] + "/*.eml")):
    m = email.message_from_binary_file(open(path, "rb"), policy=email.policy.default)
    if m["Subject"] == sys.argv[2] and sys.argv[3] in open(path[:-4] + ".env").read():
        found = path
if not found:
    sys.exit("no message '%s' to %s" % (sys.argv[2], sys.argv[3]))
print(found)
PYN
}
# both CODE DIR ARGS...: umpire verify and tools/umpire-verify.mjs give CODE; outputs in
# $TMP/out.c and $TMP/out.js
both() {
    _code=$1; shift
    expect "$_code" "$BIN" verify "$@"; cp "$TMP/out" "$TMP/out.c"
    expect "$_code" node "$V" "$@"; cp "$TMP/out" "$TMP/out.js"
}

# game NAME SCENARIO INIT-ARGS...: campaign NAME/c from SCENARIO plus addresses, a schedule
# (turn 1's deadline 2026-01-02T12:00Z, missing no-orders, no grace), mail and publish.auto
# to NAME/remote.git.
game() {
    _n=$1 _s=$2; shift 2
    mkdir -p "$_n"
    with_emails "$_s" attacker=blood@example.org defender=governor@example.org usmc=smith@usmc.example ija=shibasaki@ija.example > "$_n/scenario.yaml"
    cat >> "$_n/scenario.yaml" <<YAML
schedule:
  first_deadline: 2026-01-02T12:00:00Z
  every: 1d
  missing: no-orders
  reveal: 12h
publish:
  remote: $TMP/$_n/remote.git
  auto: true
mail:
  from: umpire@example.org
  tls: none
YAML
    git init -q --bare "$_n/remote.git"
    "$BIN" init "$_n/c" --scenario "$_n/scenario.yaml" "$@" >/dev/null
}

base=1767225600          # 2026-01-01T00:00:00Z
deadline=1767355200      # turn 1's deadline, 2026-01-02T12:00:00Z
A1="$HR/orders/turn-0001/attacker.yaml"

# --- An honest close: run closes, mails the receipt, publishes, sends, in one pass ---------
game honest "$HR/scenario.yaml" --secret-file "$HR/demo.secret" --visibility sealed
$DELIVER honest/md blood@example.org "$A1" h1 $((base + 3600))
clock $((base + 3700))
expect 0 at $((base + 3660)) "$BIN" run honest/c --maildir honest/md
has "$TMP/out" "turn 1: closed with 1 order file"
has "$TMP/out" "mail: the receipts of turn 1 queued for 2 players"
has "$TMP/out" "publish: main and 2 tags to $TMP/honest/remote.git"
has "$TMP/out" "send: "
git -C honest/remote.git rev-parse -q --verify close-0001 >/dev/null || die "the close is not published in the pass that made it"
R1=$(newest "[harbour-raid] turn 1 closed: your receipt" blood@example.org)
cp "$R1" honest/attacker-1.eml
# issue 27 item 8: the mailed receipt of a sealed game has the salt, the file's SHA-256 and
# the salted commitment, which the salt opens with his file
$PY - honest/attacker-1.eml "$A1" <<'PYR'
import email, email.policy, hashlib, sys
m = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=email.policy.default)
body = m.get_body(("plain",)).get_content()
att = [a.get_content() for a in m.iter_attachments()]
att = [a.decode() if isinstance(a, bytes) else a for a in att]
for text in (body, att[0]):
    kv = dict(l.split(": ", 1) for l in text.splitlines() if ": " in l and not l.startswith("#"))
    f = open(sys.argv[2], "rb").read()
    assert kv["receipt"] == "close", kv
    assert kv["file_sha256"] == hashlib.sha256(f).hexdigest(), kv
    salted = hashlib.sha256(b"umpire/sealed/v1" + bytes.fromhex(kv["salt"]) + f).hexdigest()
    assert kv["commitment"] == salted, kv
PYR
# the acceptance named the same raw hash file_sha256
A=$(newest "[harbour-raid] turn 1: orders accepted" blood@example.org)
grep -q "^file_sha256: $(sha256sum < "$A1" | cut -c1-64)" "$A" || die "the acceptance does not name file_sha256"
# sealed: and the same salt and commitment as the receipt
for k in salt commitment; do
    v=$(sed -n "s/^$k: //p" honest/attacker-1.eml | head -1 | tr -d '\r')
    [ -n "$v" ] && grep -q "^$k: $v" "$A" || die "the acceptance does not give the receipt's $k"
done
git clone -q -b main honest/remote.git honest/clone
both 3 honest/clone --receipt honest/attacker-1.eml
has "$TMP/out.c" "receipt honest/attacker-1.eml: ok: attacker's orders for turn 1 are the ones closed in $(git -C honest/c rev-parse close-0001); received 2026-01-01T01:01:40Z, before beacon round"
has "$TMP/out.js" "receipt honest/attacker-1.eml: ok: attacker's orders for turn 1 are the ones closed in $(git -C honest/c rev-parse close-0001); received 2026-01-01T01:01:40Z, before beacon round"
# --receipts-of: with his receipt every close is receipted; without it, not
both 3 honest/clone --receipt honest/attacker-1.eml --receipts-of attacker
has "$TMP/out.c" "receipts of attacker: ok: a receipt for every close"
has "$TMP/out.js" "receipts of attacker: ok: a receipt for every close"
both 65 honest/clone --receipts-of attacker
has "$TMP/out.c" "receipts of attacker: turn 1's close (commit $(git -C honest/c rev-parse close-0001)) has no receipt of his among those given"
has "$TMP/out.js" "receipts of attacker: turn 1's close (commit $(git -C honest/c rev-parse close-0001)) has no receipt of his among those given"
# the defender was not due (Land Raid: the attacker moves on turn 1), and gets the receipt of
# the close all the same (issue 34): a witness of every close, due or not
cp "$(newest "[harbour-raid] turn 1 closed: your receipt" governor@example.org)" honest/defender-1.eml
grep -q "^file_sha256: none" honest/defender-1.eml || die "the defender's receipt names a file"
both 65 honest/clone --receipts-of defender
has "$TMP/out.c" "receipts of defender: turn 1's close (commit $(git -C honest/c rev-parse close-0001)) has no receipt of his among those given"
both 3 honest/clone --receipt honest/defender-1.eml --receipts-of defender
has "$TMP/out.c" "receipts of defender: ok: a receipt for every close"
has "$TMP/out.js" "receipts of defender: ok: a receipt for every close"

# --- A backdated close: the umpire's clock set back to before the round, the real time
# (the players' mail server's) two hours later, the round long out -------------------------
game backdated "$HR/scenario.yaml" --secret-file "$HR/demo.secret" --visibility sealed
$DELIVER backdated/md blood@example.org "$A1" b1 $((base + 3600))
clock $((base + 3660 + 7200))
expect 0 at $((base + 3660)) "$BIN" run backdated/c --maildir backdated/md
has "$TMP/out" "turn 1: closed with 1 order file"
cp "$(newest "[harbour-raid] turn 1 closed: your receipt" blood@example.org)" backdated/attacker-1.eml
git clone -q -b main backdated/remote.git backdated/clone
both 3 backdated/clone     # the history alone cannot tell
both 65 backdated/clone --receipt backdated/attacker-1.eml
for o in "$TMP/out.c" "$TMP/out.js"; do
    has "$o" "receipt backdated/attacker-1.eml: turn 1's close names beacon round"
    has "$o" "but this receipt reached your mail server at 2026-01-01T03:01:00Z: the round's value was public before the close was receipted (a backdated close)"
done
# the bare receipt text (not the mail) cannot show it, and says so
$PY -c 'import email, email.policy, sys
m = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=email.policy.default)
a = next(m.iter_attachments()).get_content()
sys.stdout.write(a.decode() if isinstance(a, bytes) else a)' backdated/attacker-1.eml > backdated/attacker-1.yaml
both 3 backdated/clone --receipt backdated/attacker-1.yaml
has "$TMP/out.c" "note: receipt backdated/attacker-1.yaml is the bare text, not the saved mail: when it arrived is not checked"
has "$TMP/out.js" "note: receipt backdated/attacker-1.yaml is the bare text, not the saved mail: when it arrived is not checked"

# --- A re-close: closed on time by hand, its receipts kept back, resolved privately, then
# a backup restored and the turn closed again (later, by run, which mails the receipts) ------
game reclose "$HR/scenario.yaml" --secret-file "$HR/demo.secret" --visibility sealed --beacon unsigned-demo-values-chosen-by-hand --beacon-genesis 1692803367 --beacon-period 3
cp -a reclose/c reclose/backup
expect 0 at $((base + 3660)) "$BIN" close reclose/c "$A1"
has "$TMP/out" "to send: 2 receipt mails queued in the outbox ('umpire send' or 'umpire run' sends them); at once, before beacon rounds or reveals come out"
# (the umpire resolves it privately with the round's value, dislikes the dice, and restores)
expect 0 at $((base + 7200)) "$BIN" turn reclose/c --beacon 68397e944df9d2230afa327b7a9b2b1a92e3cd7eaa3bc7d107705df5622570ef
rm -rf reclose/c reclose/remote.git; mv reclose/backup reclose/c; git init -q --bare reclose/remote.git
$DELIVER reclose/md blood@example.org "$A1" r1 $((base + 3600))
late=$((deadline + 7200))
clock $((late + 60))
expect 0 at $late "$BIN" run reclose/c --maildir reclose/md
has "$TMP/out" "turn 1: closed with 1 order file"
cp "$(newest "[harbour-raid] turn 1 closed: your receipt" blood@example.org)" reclose/attacker-1.eml
git clone -q -b main reclose/remote.git reclose/clone
both 65 reclose/clone --receipt reclose/attacker-1.eml
for o in "$TMP/out.c" "$TMP/out.js"; do
    has "$o" "turn 1: closed at 2026-01-02T14:00:00Z, more than 3600 s after its deadline 2026-01-02T12:00:00Z plus grace 0 s"
    has "$o" "(a re-close, the first one's receipts held back)"
done

# --- entropy players: a close with no commitment is refused -------------------------------
game nocommit "$BS/scenario.yaml" --secret-file "$BS/demo.secret" --visibility open --entropy players
mkdir -p nocommit/md/new nocommit/md/cur nocommit/md/tmp
before=$(fingerprint nocommit/c)
expect 65 at $((deadline + 60)) "$BIN" run nocommit/c --maildir nocommit/md
has "$TMP/err" "turn 1: no order file of the close carries an entropy: commitment (entropy players)"
[ "$(fingerprint nocommit/c)" = "$before" ] || die "a close without commitment changed the campaign"
git -C nocommit/c rev-parse -q --verify close-0001 >/dev/null && die "a close without commitment was committed"

# --- entropy players: a dropped reveal ---------------------------------------------------
game dropped "$BS/scenario.yaml" --secret-file "$BS/demo.secret" --visibility open --entropy players
expect 0 "$BIN" nonce; nu=$(sed -n 's/^nonce: //p' "$TMP/out"); eu=$(sed -n 's/^entropy: //p' "$TMP/out")
expect 0 "$BIN" nonce; nj=$(sed -n 's/^nonce: //p' "$TMP/out"); ej=$(sed -n 's/^entropy: //p' "$TMP/out")
{ cat "$BS/orders/turn-0001/usmc.yaml"; echo "entropy: $eu"; } > dropped/usmc.yaml
{ cat "$BS/orders/turn-0001/ija.yaml"; echo "entropy: $ej"; } > dropped/ija.yaml
printf 'campaign: betio-seawall\nturn: 1\nplayer: usmc\nnonce: %s\n' "$nu" > dropped/usmc-reveal.yaml
$DELIVER dropped/md smith@usmc.example dropped/usmc.yaml o1 $((base + 60))
$DELIVER dropped/md shibasaki@ija.example dropped/ija.yaml o2 $((base + 120))
clock $((base + 200))
expect 0 at $((base + 180)) "$BIN" run dropped/c --maildir dropped/md
has "$TMP/out" "turn 1: closed with 2 order files"
$DELIVER dropped/md smith@usmc.example dropped/usmc-reveal.yaml r1 $((base + 300))
clock $((base + 400))
expect 0 at $((base + 360)) "$BIN" run dropped/c --maildir dropped/md
RV=$(newest "[betio-seawall] turn 1: reveal accepted" smith@usmc.example)
cp "$RV" dropped/usmc-reveal.eml
grep -q "^receipt: reveal" dropped/usmc-reveal.eml || die "the reveal acceptance is no reveal receipt"
# before the turn: the receipt checks (the turn is not resolved yet)
git clone -q -b main dropped/remote.git dropped/clone
both 3 dropped/clone --receipt dropped/usmc-reveal.eml
has "$TMP/out.c" "receipt dropped/usmc-reveal.eml: ok: usmc's nonce for turn 1 was taken; the turn is not resolved yet"
has "$TMP/out.js" "receipt dropped/usmc-reveal.eml: ok: usmc's nonce for turn 1 was taken; the turn is not resolved yet"
cp -a dropped/c dropped/honest
# the umpire drops usmc's nonce and lets the time for reveals run out
rm dropped/c/.umpire/reveals/turn-0001/usmc
expect 0 at $((base + 180 + 43200)) "$BIN" run dropped/c --maildir dropped/md
has "$TMP/out" "no reveal from ija, usmc"
git -C dropped/clone pull -q --ff-only
git -C dropped/clone fetch -q --tags
both 3 dropped/clone       # without his receipt nobody can tell
both 65 dropped/clone --receipt dropped/usmc-reveal.eml
for o in "$TMP/out.c" "$TMP/out.js"; do
    has "$o" "receipt dropped/usmc-reveal.eml: the umpire took usmc's nonce for turn 1 (reveal receipt), but the turn's reveals stand his commitment in (\"no reveal from\" him)"
done
# the honest copy: his nonce is in the turn's reveals
rm -rf dropped/remote.git; git init -q --bare dropped/remote.git
expect 0 at $((base + 180 + 43200)) "$BIN" run dropped/honest --maildir dropped/md
has "$TMP/out" "no reveal from ija"
git clone -q -b main dropped/remote.git dropped/clone2
both 3 dropped/clone2 --receipt dropped/usmc-reveal.eml
has "$TMP/out.c" "receipt dropped/usmc-reveal.eml: ok: usmc's nonce for turn 1 is in the turn's reveals"
has "$TMP/out.js" "receipt dropped/usmc-reveal.eml: ok: usmc's nonce for turn 1 is in the turn's reveals"
true
