# t_mail_reveals.sh — entropy players by mail: after the close each player mails a reveal file
# (campaign, turn, player, nonce); `umpire inbox` recognises it by its `nonce:`, checks it as
# `umpire reveal` does (the sender's own, matching the entropy his orders committed to), keeps
# it and replies; `umpire run` resolves the turn once every reveal is in, or once
# schedule.reveal has passed since the close, the missing player's commitment standing in and
# journaled. Real Maildir messages; a wrong nonce, another player's reveal, a reveal before the
# close and a duplicate delivery are refused or skipped, each changing nothing else.
. "$ROOT/tests/e2e/lib.sh"
BS="$ROOT/campaigns/betio-seawall"
PY=/usr/bin/python3
DELIVER="$PY $ROOT/tests/e2e/mail/deliver.py"
at() { _t=$1; shift; env SOURCE_DATE_EPOCH="$_t" "$@"; }

with_emails "$BS/scenario.yaml" usmc=smith@usmc.example ija=shibasaki@ija.example > scenario.yaml
cat >> scenario.yaml <<'YAML'
schedule:
  first_deadline: 2026-01-03T18:00:00Z
  every: 2d
  missing: no-orders
  reveal: 12h
mail:
  from: umpire@example.org
YAML
expect 0 "$BIN" init c --scenario scenario.yaml --secret-file "$BS/demo.secret" \
    --visibility open --entropy players
python3 "$ROOT/tools/check-schemas.py" c >/dev/null || die "campaign.yaml does not match its schema"

# Each player's nonce and the orders committing to it.
expect 0 "$BIN" nonce; nu=$(sed -n 's/^nonce: //p' "$TMP/out"); eu=$(sed -n 's/^entropy: //p' "$TMP/out")
expect 0 "$BIN" nonce; nj=$(sed -n 's/^nonce: //p' "$TMP/out"); ej=$(sed -n 's/^entropy: //p' "$TMP/out")
{ cat "$BS/orders/turn-0001/usmc.yaml"; echo "entropy: $eu"; } > usmc.yaml
{ cat "$BS/orders/turn-0001/ija.yaml"; echo "entropy: $ej"; } > ija.yaml
reveal() { printf 'campaign: betio-seawall\nturn: 1\nplayer: %s\nnonce: %s\n' "$1" "$2" > "$3"; }
reveal usmc "$nu" usmc-reveal.yaml
reveal ija "$nj" ija-reveal.yaml
reveal usmc "$nj" usmc-wrong.yaml

# A reveal before the close is refused: the turn is open.
$DELIVER md smith@usmc.example usmc-reveal.yaml early 1767300000
expect 0 "$BIN" inbox c --maildir md
has "$TMP/out" "early: refused (the file has a nonce, but campaign 'betio-seawall' takes reveals only after a close under entropy players (turn 1 is open, entropy players))"
[ ! -d c/.umpire/reveals ] || die "a refused reveal was kept"

# The orders by mail; run closes the turn once both have sent.
$DELIVER md smith@usmc.example usmc.yaml o1 1767300060
$DELIVER md shibasaki@ija.example ija.yaml o2 1767300120
expect 0 at 1767300180 "$BIN" run c --maildir md
has "$TMP/out" "inbox: turn 1: 2 accepted"
has "$TMP/out" "turn 1: closed with 2 order files"
expect 0 at 1767300200 "$BIN" run c --maildir md --verbose
has "$TMP/out" "turn 1: closed; waiting for the nonces of ija, usmc (2026-01-02T08:43:00Z)"
cp -r c c2; cp -r md md2   # the same closed turn, for the deadline below

# Reveals by mail: another player's, a wrong nonce, the right one, a duplicate delivery.
$DELIVER md smith@usmc.example ija-reveal.yaml r1 1767300300
$DELIVER md smith@usmc.example usmc-wrong.yaml r2 1767300360
$DELIVER md smith@usmc.example usmc-reveal.yaml r3 1767300420
cp md/new/1767300420.r3 md/new/1767300421.r3-again
before=$(fingerprint c)
expect 0 at 1767300480 "$BIN" inbox c --maildir md
has "$TMP/out" "1767300300.r1: refused (the reveal is for player 'ija', but it comes from the address of player 'usmc')"
has "$TMP/out" "1767300360.r2: refused (the nonce does not match usmc's committed entropy (its SHA-256 is $ej, the close holds $eu))"
has "$TMP/out" "1767300420.r3: accepted: nonce of usmc for turn 1 (the nonce matches the close)"
has "$TMP/out" "1767300421.r3-again: duplicate"
[ "$(fingerprint c)" = "$before" ] || die "reveals changed git or the turns"
[ "$(cat c/.umpire/reveals/turn-0001/usmc)" = "$nu" ] || die "usmc's nonce not kept"
# (the receipt quotes a nonce YAML could read as another type, one starting 0b or 0x, say)
grep -l "Subject: \[betio-seawall\] turn 1: reveal accepted" c/.umpire/outbox/new/*.eml | xargs grep -l -E "^nonce: \"?$nu" >/dev/null \
    || die "no acceptance with the nonce"
[ "$(grep -l "Subject: \[betio-seawall\] turn 1: reveal refused" c/.umpire/outbox/new/*.eml | wc -l)" -eq 3 ] \
    || die "3 refusals expected (early, another player's, wrong nonce)"
[ "$(sqlite3 c/.umpire/journal.sqlite "SELECT count(*) FROM submissions WHERE reason = 'reveal' AND player = 'usmc'")" -eq 1 ] \
    || die "the accepted reveal is not journaled"
# status still shows when usmc's orders came, not his reveal
expect 0 "$BIN" status c --json
$PY - "$TMP/out" <<'PYC'
import json, sys
s = json.load(open(sys.argv[1]))
u = [p for p in s["players"] if p["id"] == "usmc"][0]
assert u["sent_at"] == "2026-01-01T20:41:00Z", u
PYC
# status: who has not revealed, until when run waits
expect 0 at 1767300490 "$BIN" status c
has "$TMP/out" "reveals: waiting for the nonces of ija until 2026-01-02T08:43:00Z"
expect 0 at 1767300490 "$BIN" status c --json
$PY - "$TMP/out" <<'PYC'
import json, sys
s = json.load(open(sys.argv[1]))
assert s["closed"] is True and s["unrevealed"] == ["ija"], s
assert s["reveal_end"] == "2026-01-02T08:43:00Z", s
PYC
# one still missing: run waits
expect 0 at 1767300500 "$BIN" run c --maildir md --verbose
has "$TMP/out" "turn 1: closed; waiting for the nonces of ija (2026-01-02T08:43:00Z)"
# the last reveal: run resolves at once, B_t from both nonces
$DELIVER md shibasaki@ija.example ija-reveal.yaml r4 1767300600
expect 0 at 1767300660 "$BIN" run c --maildir md
has "$TMP/out" "inbox: turn 1: 1 accepted"
has "$TMP/out" "turn 1: "
git -C c rev-parse -q --verify turn-0001 >/dev/null || die "turn 1 not resolved"
has c/journal/turn-0001.yaml "beacon_value: ija nonce $nj usmc nonce $nu"
git clone -q c clone
expect 3 "$BIN" verify clone
has "$TMP/out" "turn 1: ok: close, key, digest, reveals, seed, "

# The other copy: only usmc reveals; run waits until schedule.reveal (12h) after the close,
# then resolves, ija's commitment standing in and journaled.
$DELIVER md2 smith@usmc.example usmc-reveal.yaml r3 1767300420
expect 0 at $((1767300180 + 43199)) "$BIN" run c2 --maildir md2 --verbose
has "$TMP/out" "turn 1: closed; waiting for the nonces of ija (2026-01-02T08:43:00Z)"
expect 0 at $((1767300180 + 43200)) "$BIN" run c2 --maildir md2
has "$TMP/out" "; no reveal from ija"
has c2/journal/turn-0001.yaml "no reveal from ija: the hash his orders committed to stands in for his nonce"
has c2/journal/turn-0001.yaml "beacon_value: ija committed $ej usmc nonce $nu"
git clone -q c2 clone2
expect 3 "$BIN" verify clone2
