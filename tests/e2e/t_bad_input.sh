# Every kind of bad order file gets its one-line error at file:line:column, exit 65, and the
# campaign is left exactly as it was (HEAD, tags, work tree, journal row count).
. "$ROOT/tests/e2e/lib.sh"
C="$TMP/c"
new_campaign harbour-raid "$C"
good=$(ls "$ROOT"/campaigns/harbour-raid/orders/turn-0001/*.yaml | grep -v umpire.yaml | head -n 1)
me=$(sed -n 's/^player: *//p' "$good")
other=attacker; [ "$me" = attacker ] && other=defender
before=$(fingerprint "$C")

# bad NAME EXPECTED-FRAGMENT: turn and check both refuse $TMP/NAME.yaml with the message.
bad() {
    expect 65 "$BIN" check "$C" "$TMP/$1.yaml"; has "$TMP/err" "$2"
    expect 65 "$BIN" turn "$C" "$TMP/$1.yaml";  has "$TMP/err" "$2"
    [ "$(wc -l < "$TMP/err")" -ge 1 ] || die "no error line"
    [ "$(fingerprint "$C")" = "$before" ] || die "$1: the campaign changed"
}
mk() { cat > "$TMP/$1.yaml"; }

sed "s/^turn: 1$/turn: [1/" "$good" | mk syntax;           bad syntax "(valid YAML expected)"
has "$TMP/err" "syntax.yaml:"
{ cat "$good"; echo "turn: 1"; } | mk dupkey;              bad dupkey "duplicate key 'turn'"
sed 's/^campaign: harbour-raid$/campaign: \&c harbour-raid/' "$good" | mk anchor; bad anchor "anchor"
{ cat "$good"; echo "x: *c"; } | sed 's/^campaign: harbour-raid$/campaign: \&c harbour-raid/' | mk alias; bad alias "alias"
sed 's/^turn: 1$/turn: !!int 1/' "$good" | mk tag;         bad tag "tag"
{ cat "$good"; echo "colour: red"; } | mk unknown;         bad unknown "unknown key 'colour'"
sed 's/^turn: 1$/turn: one/' "$good" | mk type;            bad type "turn is 'one'"
sed 's/^turn: 1$/turn: 0/' "$good" | mk range;             bad range "turn is '0'"
sed 's/^campaign: .*/campaign: another-raid/' "$good" | mk camp; bad camp "orders for campaign 'another-raid'"
sed 's/^turn: 1$/turn: 2/' "$good" | mk turn2;             bad turn2 "orders for turn 2 (turn 1 is the turn being processed)"
sed "s/^player: .*/player: blackbeard/" "$good" | mk who;  bad who "'blackbeard' is not a player of this campaign"
sed "s/^player: .*/player: $other/" "$good" | mk notdue;   bad notdue "player '$other' is not due on turn 1"
{ cat "$good"; i=0; while [ $i -lt 1400 ]; do echo "# padding padding padding padding padding padding"; i=$((i+1)); done; } | mk big
bad big "big.yaml:1:1: error: order file is larger than 65536 bytes"
printf '' | mk empty;                                      bad empty "empty.yaml:1:1:"
printf 'campaign: harbour-raid\nturn: 1\nplayer: umpire\norders:\n  - roll: 500d6\n    for: "a lot"\n' | mk dice
bad dice "rolls 500 dice"
printf 'campaign: harbour-raid\nturn: 1\nplayer: umpire\norders:\n  - roll: 2d\n    for: "x"\n' | mk notation
bad notation "is not dice notation"
# Several problems in one file: every one is reported, each on its own line.
sed -e 's/^turn: 1$/turn: 7/' -e 's/^campaign: .*/campaign: nope/' "$good" | mk many
bad many "orders for campaign 'nope'"; has "$TMP/err" "orders for turn 7"

# Two files for one player.
expect 65 "$BIN" turn "$C" "$good" "$good"; has "$TMP/err" "a second order file for player '$me'"
# A missing file, and a due player without one.
expect 65 "$BIN" turn "$C" "$TMP/absent.yaml"; has "$TMP/err" "absent.yaml:1:1: error: cannot open order file"
printf 'campaign: harbour-raid\nturn: 1\nplayer: umpire\norders: []\n' | mk ump
expect 65 "$BIN" turn "$C" "$TMP/ump.yaml"; has "$TMP/err" "no order file from '$me', who is due on turn 1"
[ "$(fingerprint "$C")" = "$before" ] || die "the campaign changed"

# Rule-system checks: units the player does not own, and the like (tests/e2e/cases/).
for case in "$ROOT"/tests/e2e/cases/land-raid-*.yaml; do
    [ -f "$case" ] || continue
    want=$(sed -n 's/^# expect: //p' "$case")
    expect 65 "$BIN" check "$C" "$case"; has "$TMP/err" "$want"
done
[ "$(fingerprint "$C")" = "$before" ] || die "the campaign changed"

# --allow-missing journals "no orders" and processes the turn.
expect 0 "$BIN" turn "$C" "$TMP/ump.yaml" --allow-missing
has "$TMP/out" "Turn 1:"
grep -q "no orders from $me" "$C/journal/turn-0001.yaml" || die "no 'no orders' event journaled"
