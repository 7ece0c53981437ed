# hm-events end to end: the aspenbach-1809 campaign plays every outcome of the procedure (no
# event, each side, beneficial and detrimental events, one kept in hand and played later, one
# suppressed while held, an impossible one, Rally to the Flag once and then without effect),
# with umpire adjustments between turns; the reports tell each player what binds him; replay
# and verify pass from a plain clone; bad adjustments are refused with file:line:column, and a
# rule system without adjustments refuses them.
. "$ROOT/tests/e2e/lib.sh"
C="$TMP/c"
demo_played aspenbach-1809 "$C"
# Every turn shows what it is there to show (campaigns/aspenbach-1809/demo-shows.txt), the
# reports included: what binds each player, in words the table can act on.
demo_shows aspenbach-1809 "$C"

# Replay, and verify on a plain clone.
expect 0 "$BIN" replay "$C"; has "$TMP/out" "replay: 9 turns identical"
git clone -q "$C" "$TMP/clone"
expect 3 "$BIN" verify "$TMP/clone"

# Bad adjustments: every problem at once, each at its line and column.
cat > "$TMP/bad.yaml" <<'YAML'
campaign: aspenbach-1809
turn: 10
player: umpire
orders:
  - roll: 2d6
    for: "weather"
  - adjust: disr
    unit: 1st-ligne
    by: -5
    reason: "rallied"
  - adjust: break
    unit: no-such-unit
    reason: "gone"
  - adjust: morale
    side: prussians
    by: 1
    reason: "x"
  - adjust: disr
    unit: 2nd-ligne
    reason: "no by"
  - adjust: break
    unit: 2nd-ligne
    by: 1
YAML
expect 65 "$BIN" check "$C" --rulings "$TMP/bad.yaml"
has "$TMP/err" "bad.yaml:9:9: error: unit '1st-ligne' has 1 DISR: -5 leaves -4 (0 to 99 expected)"
shows_source "$TMP/err" "bad.yaml:9:9:"
has "$TMP/err" "bad.yaml:12:11: error: 'no-such-unit' is not a unit of the model (a unit id expected)"
has "$TMP/err" "bad.yaml:15:11: error: 'prussians' is not a player of this campaign (a side expected)"
has "$TMP/err" "bad.yaml:18:5: error: 'adjust: disr' without 'by' (unit, by, reason expected)"
has "$TMP/err" "bad.yaml:21:5: error: missing key 'reason' (a value for 'reason' expected)"
has "$TMP/err" "bad.yaml:23:5: error: 'adjust: break' takes no 'by' (unit, reason expected)"

# A unit added earlier in the file may be adjusted later in it; a good file passes.
cat > "$TMP/good.yaml" <<'YAML'
campaign: aspenbach-1809
turn: 10
player: umpire
orders:
  - adjust: add-unit
    side: french
    unit: 3rd-ligne
    type: infantry
    strength: 4
    reason: "the reserve comes up"
  - adjust: disr
    unit: 3rd-ligne
    by: 1
    reason: "shelled on the way"
YAML
expect 0 "$BIN" check "$C" --rulings "$TMP/good.yaml"

# A player's file: play-held only while holding an event.
printf 'campaign: aspenbach-1809\nturn: 10\nplayer: french\norders:\n  - play-held: true\n' > "$TMP/f.yaml"
expect 65 "$BIN" check "$C" "$TMP/f.yaml"
has "$TMP/err" "f.yaml:5:16: error: 'french' holds no event in hand ('play-held' only while holding one expected)"

# A rule system without adjustments refuses them (and keeps taking rulings).
L="$TMP/l"
new_campaign harbour-raid "$L" --entropy none
cat > "$TMP/lr.yaml" <<YAML
campaign: $(sed -n 's/^id: //p' "$L/campaign.yaml")
turn: 1
player: umpire
orders:
  - roll: d6
    for: "storm"
  - adjust: morale
    side: attacker
    by: 1
    reason: "x"
YAML
expect 65 "$BIN" check "$L" --rulings "$TMP/lr.yaml"
has "$TMP/err" "lr.yaml:7:13: error: rule system 'land-raid' takes no adjustments (a 'roll'/'for' ruling expected)"

# Sealed (docs/rules/hm-events.md, "Sealed campaigns"): each side's standing orders (`keep`,
# `choose`) are its own; an opponent's clone holds no byte of them, nor a word of which side
# changed them or whether a choice came from them; each player's outbox holds his own view and
# verifies; after the reveal every turn re-resolves from a clone. (The demo's files are played
# in one step each: the salted D_t gives other dice, so turn 4's `play-held` has nothing to
# play; three turns are enough.)
S="$TMP/sealed"
expect 0 "$BIN" init "$S" --visibility sealed --entropy none \
    --scenario "$ROOT/campaigns/aspenbach-1809/scenario.yaml" --secret-file "$ROOT/campaigns/aspenbach-1809/demo.secret"
play aspenbach-1809 "$S" 3
git clone -q "$S" "$TMP/sealed-clone"
git -C "$TMP/sealed-clone" gc -q
git -C "$TMP/sealed-clone" cat-file --batch-all-objects --batch > "$TMP/sealed-objects"
grep -q 'anxious: \[1st-ligne\]' "$ROOT/campaigns/aspenbach-1809/orders/turn-0001/austrians.yaml" ||
    die "the austrians' first file no longer has the standing orders this test looks for"
for key in standing keep choose; do
    grep -qaE -- "(^| )$key:" "$TMP/sealed-objects" && die "the sealed clone holds '$key:'"
done
for text in "anxious: [1st-ligne]" "standing orders of" "chosen by default"; do
    grep -qaF -- "$text" "$TMP/sealed-objects" && die "the sealed clone holds '$text'"
done
has "$S/reports/turn-0001.md" "Binding french (attacker) this turn (read \"your\" as theirs):"
has "$S/reports/turn-0001.md" "#### austrians (defender): army morale"
O="$S/.umpire/outbox"
has "$O/austrians/turn-0001/state.yaml" "anxious:"
grep -q 'anxious:' "$O/french/turn-0001/state.yaml" && die "the french view holds the austrians' standing orders"
has "$O/austrians/turn-0001/report.md" "report for austrians"
for p in french austrians; do
    for n in 1 2 3; do
        expect 3 "$BIN" verify "$TMP/sealed-clone" --view "$O/$p/turn-000$n"
        has "$TMP/out" "his report and view of the state open the commitments there"
    done
done
expect 3 node "$JSV" "$TMP/sealed-clone" --view "$O/austrians/turn-0001"
has "$TMP/out" "view $O/austrians/turn-0001: ok"
expect 0 "$BIN" reveal "$S"
git -C "$TMP/sealed-clone" pull -q --tags
expect 3 "$BIN" verify "$TMP/sealed-clone"
has "$TMP/out" "verify: ok: campaign aspenbach-1809: 3 turns"
expect 3 "$BIN" verify "$TMP/sealed-clone" --view "$O/austrians/turn-0003"
has "$TMP/out" "and his view is the revealed state's"
