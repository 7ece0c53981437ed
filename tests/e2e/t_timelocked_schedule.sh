# t_timelocked_schedule.sh — time-locked orders when the schedule changes (issue 36; docs/
# fairness.md, "Schedule changes after a player sealed"), played by mail with `umpire run`. A
# pause and an extension asked by mail move turn 1's deadline and so R(1), the round its close
# names: `umpire status` (C), the JavaScript R(t) the sealing page computes from the pages
# `umpire site` builds (campaign.yaml and overrides.yaml, web/src/campaign.js) and the JS
# verifier all name the same round. The attacker seals with `umpire seal --round` (his clone
# learns of the pause at the close); his file, accepted before the extension, is named in its
# announcement mail (it opens before the new close: seal again); a file sealed to a former
# round after the change is refused; at the close his old file is committed and counts as
# none, with its own event ("orders from attacker count as none: ..."). Both verifiers pass.
#
# Then a sealed time-locked campaign before the reveal: the close gives each file's salt, both
# verifiers check every committed ciphertext against the close's salted commitment and open its
# time-lock layer to an age file for the umpire's key; a ciphertext swapped for another (sealed
# to the same round and key, the close and turn commits rebuilt as umpire makes them) fails
# both (65).
. "$ROOT/tests/e2e/lib.sh"
command -v node >/dev/null || skip "node missing (tools/install-deps test)"
[ -x "$ROOT/build/release/umpire-bls" ] || skip "no BLS helper (make builds build/release/umpire-bls)"
TLOCK=$ROOT/build/web/umpire-tlock.mjs
[ -f "$TLOCK" ] || die "no $TLOCK (make web builds it)"
SRC=$ROOT/campaigns/harbour-raid
PY=/usr/bin/python3
BEACON="$ROOT/tools/demo-beacon"
D1=1767355200 # turn 1's deadline, 2026-01-02T12:00:00Z
# R DEADLINE: the first demo-beacon round out at DEADLINE + grace 0 + 300 + beacon_delay 600
R() { echo $((($1 + 900 - 1767225600 + 2) / 3 + 1)); }

with_emails "$SRC/scenario.yaml" attacker=blood@example.org defender=governor@example.org > scenario.yaml
cat >> scenario.yaml <<'YAML'
schedule:
  first_deadline: 2026-01-02T12:00:00Z
  every: 1d
  extensions: 2d
  missing: no-orders
mail:
  from: umpire@example.org
YAML
expect 0 "$BIN" init c --scenario scenario.yaml --demo-beacon --visibility open \
    --orders timelocked
R0=$(R $D1)
has "$TMP/out" "orders: time-locked to round $R0 for turn 1"
git clone -q c clone
mkdir -p md/new md/cur md/tmp

run() { SOURCE_DATE_EPOCH=$1 expect 0 "$BIN" run c --maildir md --beacon-command "$BEACON"; }
orders() { printf 'campaign: harbour-raid\nturn: 1\nplayer: %s\norders: []\n' "$1" > "$1.yaml"; }
deliver() { $PY "$ROOT/tests/e2e/mail/deliver.py" md "$@"; }
body() { $PY "$ROOT/tests/e2e/mail/plain-mail.py" md "$@"; }
# jsround DIR: R(1) as web/src/campaign.js computes it from DIR/campaign.yaml and, when there,
# DIR/overrides.yaml (what the sealing page reads beside it)
jsround() {
    node --input-type=module -e '
        import fs from "node:fs";
        const [src, dir] = process.argv.slice(1);
        const { readCampaign, readOverrides, turnRound } = await import(src + "/web/src/campaign.js");
        const camp = readCampaign(fs.readFileSync(dir + "/campaign.yaml"), "campaign.yaml");
        if (fs.existsSync(dir + "/overrides.yaml")) readOverrides(camp, fs.readFileSync(dir + "/overrides.yaml"), "overrides.yaml");
        console.log(turnRound(camp, 1));
    ' "$ROOT" "$1"
}

# The umpire pauses the campaign for three hours: R(1) moves from R0 to R1, and everyone is
# told the new round. (Turn 1 is the attacker's alone: while paused, nothing closes.)
PAUSED=$((D1 - 8000 + 10800))
SOURCE_DATE_EPOCH=$((D1 - 8000)) expect 0 "$BIN" pause c \
    --until "$(date -u -d @$PAUSED +%Y-%m-%dT%H:%M:%SZ)" --reason "the umpire travels"
R1=$(R $((D1 + 10800)))
unfold() { tr -d '\r' < "$1" | sed -e 's/=$//' | tr -d '\n' > "$2"; }
unfold c/.umpire/outbox/new/override-1-0001-attacker.eml pause.mail
has pause.mail "time-locked to beacon round $R1 now"

# The attacker's clone knows no pending change: he seals with --round as the mail says.
orders attacker
expect 0 "$BIN" seal attacker.yaml --campaign clone --round "$R1"
has "$TMP/err" "your clone has turn 1's orders time-locked to round $R0; sealed to round $R1 as --round says"
deliver blood@example.org attacker.yaml.age m1 $((D1 - 7200))
run $((D1 - 7100))
has "$TMP/out" "inbox: turn 1: 1 accepted"
! grep -q "turn 1: closed" "$TMP/out" || die "turn 1 closed during the pause"

# Then he asks for a day more: R(1) moves again, to R2, after his file was accepted. The
# announcement tells him his file opens at R1, before the new close, and to seal again.
body blood@example.org "extend 24h" ext1 $((D1 - 7000))
run $((D1 - 6900))
DL=$((D1 + 10800 + 86400))
R2=$(R $DL)
[ "$R2" -gt "$R1" ] && [ "$R1" -gt "$R0" ] || die "the rounds did not move ($R0, $R1, $R2)"
for p in attacker defender; do
    f=c/.umpire/outbox/new/override-2-0001-$p.eml
    [ -f "$f" ] || die "$p was not told of the extension"
    unfold "$f" "$p.mail"
    has "$p.mail" "time-locked to beacon round $R2 now"
done
has attacker.mail "are sealed to round $R1,"
has attacker.mail "before the turn's new close, so anyone can read them from then on"
has attacker.mail "Seal your orders again to round $R2"
! grep -q "sealed to round $R1" defender.mail || die "the defender, who sent nothing, was told of a file"

# C and JavaScript name the same round: status, and the sealing page's files of the site
SOURCE_DATE_EPOCH=$((D1 - 6800)) expect 0 "$BIN" status c
has "$TMP/out" "orders: time-locked to round $R2"
expect 0 "$BIN" site c site
[ -s site/seal/overrides.yaml ] || die "umpire site wrote no seal/overrides.yaml"
[ "$(jsround site/seal)" = "$R2" ] || die "the sealing page's R(1) is $(jsround site/seal), status says $R2"

# A file sealed to a round R(1) was before the change, sent now, is refused.
expect 0 "$BIN" seal attacker.yaml --campaign clone -o old.age
deliver blood@example.org old.age m2 $((D1 - 6000))
run $((D1 - 5900))
has "$TMP/out" "1 refused"
grep -l "m2@players" c/.umpire/outbox/new/reply-* > /dev/null || die "no reply to the refused file"
unfold "$(grep -l "m2@players" c/.umpire/outbox/new/reply-*)" refused.mail
has refused.mail "time-locked to round $R0 (turn 1's orders are time-locked to round $R2: the schedule changed after that round was named)"

# He does not send again. After the pause the turn closes with his old file (all due sent)
# and names R2; once R2 is out it resolves, and his file counts as none, with its own event.
run $((PAUSED + 60))
has "$TMP/out" "turn 1: closed with 1 order file"
git -C c show close-0001:journal/turn-0001.close.yaml > close1.yaml
has close1.yaml "  round: $R2"
has close1.yaml "- kind: extend"
run $((DL + 1200))
expect 0 "$BIN" log c --turn 1
has "$TMP/out" "orders from attacker count as none: attacker's time-locked file is sealed to round $R1, which turn 1's close named until the schedule changed at"
has "$TMP/out" "; it names round $R2"
! grep -q "\[orders\] no orders from" "$TMP/out" || die "the attacker, who sent a file, is journaled as missing"
rm -rf cl && git clone -q c cl
expect 3 "$BIN" verify cl
has "$TMP/out" "verify: ok"
expect 3 node "$JSV" cl
has "$TMP/out" "verify: ok"
has "$TMP/out" "note: turn 1: timelocked/turn-0001/attacker.age is locked to round $R1"

# --- a sealed time-locked campaign before the reveal ---------------------------------------
grep -v '^mail:\|^  from:\|email:' scenario.yaml > sscenario.yaml
expect 0 "$BIN" init s --scenario sscenario.yaml --demo-beacon --orders timelocked
git clone -q s sclone
mkdir sent
expect 0 "$BIN" seal attacker.yaml --campaign sclone -o sent/attacker.yaml.age
expect 0 env SOURCE_DATE_EPOCH=$D1 "$BIN" close s sent/attacker.yaml.age --allow-missing
git -C s show close-0001:journal/turn-0001.close.yaml > sclose1.yaml
has sclose1.yaml "  salt: "
_b=$("$BEACON" "$R0")
expect 0 env SOURCE_DATE_EPOCH=$((D1 + 960)) "$BIN" turn s \
    --beacon "$(echo "$_b" | sed -n 1p)" --beacon-signature "$(echo "$_b" | sed -n 2p)"
rm -rf scl && git clone -q s scl
expect 3 "$BIN" verify scl
has "$TMP/out" "1 time-locked file opened to the umpire's key"
expect 3 node "$JSV" scl
has "$TMP/out" "1 time-locked file opened"

# The attacker's ciphertext swapped for another sealing of the same orders (same round, same
# key), the close and turn commits rebuilt as umpire makes them, tags and main moved.
recipient=$(sed -n 's/^  recipient: //p' s/campaign.yaml)
chain=$(sed -n 's/^  beacon_chain: //p' s/campaign.yaml)
key=$(sed -n 's/^  beacon_public_key: //p' s/campaign.yaml)
printf '{"public_key":"%s","period":3,"genesis_time":1767225600,"hash":"%s","schemeID":"bls-unchained-g1-rfc9380","metadata":{"beaconID":"umpire-demo"}}' \
    "$key" "$chain" > info.json
node "$TLOCK" seal --round "$R0" --chain-info info.json --recipient "$recipient" \
    < attacker.yaml > swapped.age
tclone swap scl
blob=$(git -C "$TMP/swap" hash-object -w "$TMP/swapped.age")
prev=$(git -C "$TMP/swap" rev-parse "close-0001^")
for tg in close-0001 turn-0001; do
    old=$(git -C "$TMP/swap" rev-parse "$tg^{commit}")
    GIT_INDEX_FILE="$TMP/swap.idx" git -C "$TMP/swap" read-tree "$old"
    GIT_INDEX_FILE="$TMP/swap.idx" git -C "$TMP/swap" update-index \
        --cacheinfo "100644,$blob,timelocked/turn-0001/attacker.age"
    tree=$(GIT_INDEX_FILE="$TMP/swap.idx" git -C "$TMP/swap" write-tree)
    when=$(git -C "$TMP/swap" log -1 --format=%at "$old")
    git -C "$TMP/swap" cat-file commit "$old" | sed '1,/^$/d' > "$TMP/msg"
    prev=$(GIT_AUTHOR_NAME=umpire GIT_AUTHOR_EMAIL=umpire@localhost GIT_AUTHOR_DATE="$when +0000" \
        GIT_COMMITTER_NAME=umpire GIT_COMMITTER_EMAIL=umpire@localhost \
        GIT_COMMITTER_DATE="$when +0000" git -C "$TMP/swap" commit-tree "$tree" -p "$prev" -F "$TMP/msg")
    git -C "$TMP/swap" tag -f "$tg" "$prev" > /dev/null
done
git -C "$TMP/swap" reset -q --hard "$prev"
cmp -s "$TMP/swap/timelocked/turn-0001/attacker.age" swapped.age || die "the swap did not take"
both_fail "$TMP/swap"
has "$TMP/out" "verify: FAILED: turn 1: time-locked file timelocked/turn-0001/attacker.age at close-0001 has the salted commitment "
has "$TMP/js.out" "timelocked/turn-0001/attacker.age: salted commitment "
echo ok
