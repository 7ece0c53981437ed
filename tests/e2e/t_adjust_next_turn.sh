# No umpire ruling or adjustment leaves a committed state the next turn refuses (issue 26, a
# rule of the whole project): for each rule system's shipped campaign, a turn is played with an
# umpire's file holding every kind of adjustment that system takes (land-raid and warmaster
# take none: a generic ruling), then the next turn is checked and played, and verify replays
# both. hm-events also names the removed units in standing orders, committed before the
# removal and sent with it (docs/rules/hm-events.md, "Orders"). Last, a campaign of the
# revision before issue 26 is refused by verify and replay, which name both revisions.
. "$ROOT/tests/e2e/lib.sh"

# orders FILE CAMPAIGN TURN PLAYER [ORDERS-YAML [STANDING-YAML]]: writes an order file.
orders() {
    {
        printf 'campaign: %s\nturn: %s\nplayer: %s\norders: %s\n' "$2" "$3" "$4" "${5:-[]}"
        [ -z "${6:-}" ] || printf 'standing: %s\n' "$6"
    } > "$1"
}

# rulings FILE CAMPAIGN TURN: writes the umpire's file of CAMPAIGN's TURN, its orders the
# YAML list items read from stdin.
rulings() {
    printf 'campaign: %s\nturn: %s\nplayer: umpire\norders:\n' "$2" "$3" > "$1"
    cat >> "$1"
}

# next_turn DIR CAMPAIGN TURN FILES...: the turn after the adjustments is checked, played, and
# the whole campaign verifies.
next_turn() {
    _d=$1; shift 3
    expect 0 "$BIN" check "$_d" "$@"
    expect 0 "$BIN" turn "$_d" "$@"
    expect 3 "$BIN" verify "$_d"
}

# ---- hm-events (aspenbach-1809): disr, break, remove, morale, add-unit, status ------------
C="$TMP/hm"
new_campaign aspenbach-1809 "$C" --entropy none
# turn 1: the French keep standing orders naming ir-stain (removed in turn 2) and
# position-battery (removed in this very turn, after the file was checked)
orders "$TMP/hm-f1.yaml" aspenbach-1809 1 french "[]" \
    "{choose: {any: [position-battery, ir-stain, ir-argenteau], anxious: [ir-stain]}}"
orders "$TMP/hm-a1.yaml" aspenbach-1809 1 austrians
rulings "$TMP/hm-u1.yaml" aspenbach-1809 1 <<'YAML'
  - {roll: 2d6, for: "weather"}
  - {adjust: disr, unit: 1st-ligne, by: 2, reason: "canister"}
  - {adjust: break, unit: kienmayer-hussars, reason: "broke"}
  - {adjust: morale, side: austrians, by: -2, reason: "a regiment broken"}
  - {adjust: add-unit, side: austrians, unit: grenz, name: "Grenz", type: infantry, strength: 3, reason: "reinforcements"}
  - {adjust: status, unit: 7th-hussars, status: in-charge-range, value: true, reason: "closed"}
  - {adjust: remove, unit: position-battery, reason: "withdrew"}
YAML
expect 0 "$BIN" check "$C" "$TMP/hm-f1.yaml" "$TMP/hm-a1.yaml" --rulings "$TMP/hm-u1.yaml"
expect 0 "$BIN" turn "$C" "$TMP/hm-f1.yaml" "$TMP/hm-a1.yaml" --rulings "$TMP/hm-u1.yaml"
grep -q 'position-battery' "$C/state.yaml" && die "the removed position-battery is still in state.yaml"
# turn 2: the standing orders already committed name ir-stain, which the umpire removes
orders "$TMP/hm-f2.yaml" aspenbach-1809 2 french
orders "$TMP/hm-a2.yaml" aspenbach-1809 2 austrians
rulings "$TMP/hm-u2.yaml" aspenbach-1809 2 <<'YAML'
  - {adjust: remove, unit: ir-stain, reason: "withdrew"}
  - {adjust: remove, unit: grenz, reason: "went back over the ford"}
YAML
expect 0 "$BIN" turn "$C" "$TMP/hm-f2.yaml" "$TMP/hm-a2.yaml" --rulings "$TMP/hm-u2.yaml"
grep -q 'ir-stain' "$C/state.yaml" && die "the removed ir-stain is still in state.yaml"
grep -q 'ir-argenteau' "$C/state.yaml" || die "the standing list lost ir-argenteau"
orders "$TMP/hm-f3.yaml" aspenbach-1809 3 french
orders "$TMP/hm-a3.yaml" aspenbach-1809 3 austrians
next_turn "$C" aspenbach-1809 3 "$TMP/hm-f3.yaml" "$TMP/hm-a3.yaml"
# a file naming the removed unit later is the player's to fix: refused at check
orders "$TMP/hm-f4.yaml" aspenbach-1809 4 french "[]" "{choose: {any: [ir-stain]}}"
expect 65 "$BIN" check "$C" "$TMP/hm-f4.yaml"
has "$TMP/err" "'ir-stain' is not a unit of the model"

# ---- nhis (betio-seawall): remove, status shaken, status reduced --------------------------
C="$TMP/nhis"
new_campaign betio-seawall "$C" --entropy none
rulings "$TMP/nh-u1.yaml" betio-seawall 1 <<'YAML'
  - {adjust: remove, unit: ija-5, reason: "bayoneted in the melee"}
  - {adjust: status, unit: usmc-1, status: shaken, value: true, reason: "lost the melee"}
  - {adjust: status, unit: usmc-3, status: reduced, value: true, reason: "melee losses"}
  - {adjust: status, unit: ija-4, status: reduced, value: true, reason: "melee losses"}
  - {adjust: status, unit: ija-4, status: reduced, value: false, reason: "the umpire's slip"}
YAML
expect 0 "$BIN" turn "$C" "$ROOT/campaigns/betio-seawall/orders/turn-0001/usmc.yaml" \
    "$ROOT/campaigns/betio-seawall/orders/turn-0001/ija.yaml" --rulings "$TMP/nh-u1.yaml"
orders "$TMP/nh-us2.yaml" betio-seawall 2 usmc
orders "$TMP/nh-ij2.yaml" betio-seawall 2 ija
next_turn "$C" betio-seawall 2 "$TMP/nh-us2.yaml" "$TMP/nh-ij2.yaml"

# ---- reivers (bewcastle-fray): los, cover, range (for the turn only) ----------------------
C="$TMP/rv"
new_campaign bewcastle-fray "$C" --entropy none
rulings "$TMP/rv-u1.yaml" bewcastle-fray 1 <<'YAML'
  - {adjust: los, from: will-elliot, to: davy-forster, value: false, reason: "a peat stack"}
  - {adjust: cover, from: will-elliot, to: davy-forster, grade: whole, reason: "the yard wall"}
  - {adjust: range, from: davy-forster, to: will-elliot, band: beyond, reason: "measured"}
YAML
expect 0 "$BIN" turn "$C" "$ROOT/campaigns/bewcastle-fray/orders/turn-0001/armstrong.yaml" \
    "$ROOT/campaigns/bewcastle-fray/orders/turn-0001/forster.yaml" --rulings "$TMP/rv-u1.yaml"
next_turn "$C" bewcastle-fray 2 "$ROOT/campaigns/bewcastle-fray/orders/turn-0002/armstrong.yaml" \
    "$ROOT/campaigns/bewcastle-fray/orders/turn-0002/forster.yaml"

# ---- land-raid (harbour-raid) and warmaster (karak-gate): no adjustments, a ruling ---------
C="$TMP/lr"
new_campaign harbour-raid "$C" --entropy none
printf 'campaign: harbour-raid\nturn: 1\nplayer: umpire\norders:\n  - {roll: d6, for: "the tide"}\n' > "$TMP/lr-u1.yaml"
expect 0 "$BIN" turn "$C" "$ROOT/campaigns/harbour-raid/orders/turn-0001/attacker.yaml" --rulings "$TMP/lr-u1.yaml"
next_turn "$C" harbour-raid 2 "$ROOT/campaigns/harbour-raid/orders/turn-0002/defender.yaml"

C="$TMP/wm"
new_campaign karak-gate "$C" --entropy none
printf 'campaign: karak-gate\nturn: 1\nplayer: umpire\norders:\n  - {roll: 2d6, for: "the mist"}\n' > "$TMP/wm-u1.yaml"
expect 0 "$BIN" turn "$C" "$ROOT/campaigns/karak-gate/orders/turn-0001/orcs.yaml" --rulings "$TMP/wm-u1.yaml"
orders "$TMP/wm-d2.yaml" karak-gate 2 dwarfs
next_turn "$C" karak-gate 2 "$TMP/wm-d2.yaml"

# ---- a campaign played before issue 26 says which revision it was played with -------------
# reivers 3 -> 4 (the table's edge), warmaster 3 -> 4 (a unit driven off the table), hm-events
# 1 -> 2: verify (a clone) and replay (the umpire's copy) refuse it, naming both revisions.
for x in "rv bewcastle-fray reivers 4 3" "wm karak-gate warmaster 4 3" "hm aspenbach-1809 hm-events 2 1"; do
    set -- $x
    grep -qx "rules_revision: $4" "$TMP/$1/campaign.yaml" || die "$2 is not played with $3 revision $4"
    sed "s/^rules_revision: $4\$/rules_revision: $5/" "$TMP/$1/campaign.yaml" > "$TMP/cy"
    mv "$TMP/cy" "$TMP/$1/campaign.yaml"
    git -C "$TMP/$1" commit -qam "as the umpire before issue 26 recorded it"
    git clone -q "$TMP/$1" "$TMP/$1-clone"
    for cmd in "verify $TMP/$1-clone" "replay $TMP/$1"; do
        # shellcheck disable=SC2086
        expect 65 "$BIN" $cmd
        has "$TMP/err" "campaign '$2' was played with $3 revision $5, this umpire has $4"
    done
done
