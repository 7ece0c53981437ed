# Every kind of bad order file gets its error at file:line:column, followed by the offending
# line with a caret under the column when the file could be read, exit 65, and the campaign
# is left exactly as it was (HEAD, tags, work tree, journal row count).
. "$ROOT/tests/e2e/lib.sh"
C="$TMP/c"
new_campaign harbour-raid "$C" --entropy none
good=$(ls "$ROOT"/campaigns/harbour-raid/orders/turn-0001/*.yaml | grep -v umpire.yaml | head -n 1)
me=$(sed -n 's/^player: *//p' "$good")
other=attacker; [ "$me" = attacker ] && other=defender
before=$(fingerprint "$C")

# bad NAME EXPECTED-FRAGMENT: turn and check both refuse $TMP/NAME.yaml with the message;
# check shows the line it is about, with a caret under the column.
# With R=--rulings the file is given as the umpire's rulings file.
R=
bad() {
    expect 65 "$BIN" turn "$C" $R "$TMP/$1.yaml";  has "$TMP/err" "$2"
    expect 65 "$BIN" check "$C" $R "$TMP/$1.yaml"; has "$TMP/err" "$2"
    [ "$(wc -l < "$TMP/err")" -ge 1 ] || die "no error line"
    [ "$(fingerprint "$C")" = "$before" ] || die "$1: the campaign changed"
}
# bad_shown NAME EXPECTED-FRAGMENT: bad, with the source line and caret after the message.
bad_shown() { bad "$@"; shows_source "$TMP/err" "$2"; }
# bad_alone NAME EXPECTED-FRAGMENT: bad, and the message is all (nothing to show a line of).
bad_alone() { bad "$@"; [ "$(wc -l < "$TMP/err")" -eq 1 ] || { cat "$TMP/err" >&2; die "$1: more than the error line"; }; }
mk() { cat > "$TMP/$1.yaml"; }

sed "s/^turn: 1$/turn: [1/" "$good" | mk syntax;           bad_shown syntax "(valid YAML expected)"
has "$TMP/err" "syntax.yaml:"
{ cat "$good"; echo "turn: 1"; } | mk dupkey;              bad_shown dupkey "duplicate key 'turn'"
sed 's/^campaign: harbour-raid$/campaign: \&c harbour-raid/' "$good" | mk anchor; bad_shown anchor "anchor"
{ cat "$good"; echo "x: *c"; } | sed 's/^campaign: harbour-raid$/campaign: \&c harbour-raid/' | mk alias; bad_shown alias "alias"
sed 's/^turn: 1$/turn: !!int 1/' "$good" | mk tag;         bad_shown tag "tag"
{ cat "$good"; echo "colour: red"; } | mk unknown;         bad_shown unknown "unknown key 'colour'"
sed 's/^turn: 1$/turn: one/' "$good" | mk type;            bad_shown type "turn is 'one'"
sed 's/^turn: 1$/turn: 0/' "$good" | mk range;             bad_shown range "turn is '0'"
sed 's/^campaign: .*/campaign: another-raid/' "$good" | mk camp; bad_shown camp "orders for campaign 'another-raid'"
sed 's/^turn: 1$/turn: 2/' "$good" | mk turn2;             bad_shown turn2 "this is turn 2's file; turn 1 is open"
sed "s/^player: .*/player: blackbeard/" "$good" | mk who;  bad_shown who "'blackbeard' is not a player of this campaign"
sed "s/^player: .*/player: $other/" "$good" | mk notdue;   bad_shown notdue "player '$other' is not due on turn 1"
# That one error: his orders are not also checked as the due side's (issue 37).
[ "$(grep -c ': error: ' "$TMP/err")" -eq 1 ] || { cat "$TMP/err" >&2; die "notdue: more than its one error"; }
{ cat "$good"; i=0; while [ $i -lt 21000 ]; do echo "# padding padding padding padding padding padding"; i=$((i+1)); done; } | mk big
bad_alone big "big.yaml:1:1: error: order file is larger than 1048576 bytes"
printf '' | mk empty;                                      bad_alone empty "empty.yaml:1:1:"
R=--rulings
printf 'campaign: harbour-raid\nturn: 1\nplayer: umpire\norders:\n  - roll: 500d6\n    for: "a lot"\n' | mk dice
bad_shown dice "rolls 500 dice"
printf 'campaign: harbour-raid\nturn: 1\nplayer: umpire\norders:\n  - roll: 2d\n    for: "x"\n' | mk notation
bad_shown notation "is not dice notation"
R=
# Several problems in one file: every one is reported, each on its own line.
# (Another turn's file is the exception: that one error, t_first_hour.)
sed -e 's/^player: .*/player: blackbeard/' -e 's/^campaign: .*/campaign: nope/' "$good" | mk many
bad many "orders for campaign 'nope'"; has "$TMP/err" "'blackbeard' is not a player of this campaign"
shows_source "$TMP/err" "orders for campaign 'nope'"; shows_source "$TMP/err" "'blackbeard' is not a player"

# docs/guide-umpire.md's example (A worked turn), exactly: a square off the grid, its line, the caret under it.
sed 's/move: B2/move: Z9/' "$ROOT/campaigns/harbour-raid/orders/turn-0001/attacker.yaml" > bad.yaml
expect 65 "$BIN" check "$C" bad.yaml
head -n 3 "$TMP/err" > "$TMP/got"
printf '%s\n' "bad.yaml:12:15: error: move 'Z9' is not a square of the 6x4 grid (A1 to F4 expected)" \
    "   12 |       - move: Z9" "      |               ^" | cmp -s - "$TMP/got" ||
    { cat "$TMP/err" >&2; die "docs/guide-umpire.md's bad.yaml example is not what check prints"; }

# What is echoed from a file is escaped: an ANSI sequence in an order file reaches the
# terminal as text, never as bytes it would act on.
esc=$(printf '\033')
sed "s/^player: .*/player: ${esc}[2J${esc}[31m$me/" "$good" | mk ansi
bad_shown ansi "U+001B (control character) is not allowed"
has "$TMP/err" "player: \\x1b[2J\\x1b[31m$me"
if grep -q "$esc" "$TMP/err"; then die "an escape character from an order file reached stderr"; fi
# A tab and UTF-8 before the column: the caret line repeats the tab and counts characters.
sed 's/drag: \[b1, b2, b3\]/drag: [b1, "b\xc3\xa9",\tb9]/' "$good" | mk wide
bad wide "wide.yaml:13:26: error: no base 'b9' on the table"
grep -F -A2 "wide.yaml:13:26:" "$TMP/err" | tail -n 2 > "$TMP/got"
printf '   13 |         drag: [b1, "b\303\251",\tb9]\n      | %24s\t^\n' "" | cmp -s - "$TMP/got" ||
    { cat "$TMP/err" >&2; die "the caret is not under 'b9' after a tab and UTF-8"; }

# Two files for one player.
expect 65 "$BIN" turn "$C" "$good" "$good"; has "$TMP/err" "a second order file for player '$me'"
# A missing file, and a due player without one.
expect 65 "$BIN" turn "$C" "$TMP/absent.yaml"; has "$TMP/err" "absent.yaml:1:1: error: cannot open order file"
[ "$(wc -l < "$TMP/err")" -eq 1 ] || { cat "$TMP/err" >&2; die "a file that cannot be read has a source line"; }
printf 'campaign: harbour-raid\nturn: 1\nplayer: umpire\norders: []\n' | mk ump
expect 65 "$BIN" turn "$C" --rulings "$TMP/ump.yaml"; has "$TMP/err" "no order file from '$me', who is due on turn 1"
[ "$(fingerprint "$C")" = "$before" ] || die "the campaign changed"

# Rule-system checks: units the player does not own, and the like (tests/e2e/cases/).
for case in "$ROOT"/tests/e2e/cases/land-raid-*.yaml; do
    [ -f "$case" ] || continue
    want=$(sed -n 's/^# expect: //p' "$case")
    expect 65 "$BIN" check "$C" "$case"; has "$TMP/err" "$want"; shows_source "$TMP/err" "$want"
done
[ "$(fingerprint "$C")" = "$before" ] || die "the campaign changed"

# --allow-missing journals "no orders" and processes the turn.
expect 0 "$BIN" turn "$C" --rulings "$TMP/ump.yaml" --allow-missing
has "$TMP/out" "Turn 1:"
grep -q "no orders from $me" "$C/journal/turn-0001.yaml" || die "no 'no orders' event journaled"
