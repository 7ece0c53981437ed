# NHiS melee ruled by the umpire end to end: a move with `melee: true` into the enemy's hex is
# handed to the umpire; next turn his file (`--rulings`) rolls his dice and applies the outcome
# with adjustments (a unit eliminated, one reduced, one Shaken): the journal says each, the
# state keeps it, the melee is no longer announced; a bad file is refused at file:line:column
# and changes nothing (docs/rules/nhis.md "Melee").
. "$ROOT/tests/e2e/lib.sh"
cat > "$TMP/scenario.yaml" <<'YAML'
scenario: melee-ruling
title: "A melee for the umpire"
rules: nhis
players:
  - id: usmc
    name: "Marines"
  - id: ija
    name: "Landing Force"
game:
  map:
    columns: 4
    rows: 4
    terrain: open
  sides:
    - {player: usmc, nationality: us}
    - {player: ija, nationality: japanese}
  initiative: usmc
  turns: 4
  units:
    - {id: usmc-1, player: usmc, type: squad, hex: "0102", firepower: 6, range: 5, movement: 4,
       morale: 4, reduced: {firepower: 3, range: 5, movement: 4, morale: 3}}
    - {id: usmc-2, player: usmc, type: squad, hex: "0102", firepower: 6, range: 5, movement: 4,
       morale: 4, reduced: {firepower: 3, range: 5, movement: 4, morale: 3}}
    - {id: ija-1, player: ija, type: squad, hex: "0202", firepower: 5, range: 4, movement: 4,
       morale: 4, reduced: {firepower: 2, range: 4, movement: 4, morale: 3}}
    - {id: ija-2, player: ija, type: squad, hex: "0404", firepower: 5, range: 4, movement: 4,
       morale: 4, reduced: {firepower: 2, range: 4, movement: 4, morale: 3}}
YAML
C="$TMP/c"
"$BIN" init --entropy none --visibility open "$C" --scenario "$TMP/scenario.yaml" \
    --secret-file "$ROOT/campaigns/betio-seawall/demo.secret" >/dev/null 2>&1
orders() { printf 'campaign: melee-ruling\nturn: %s\nplayer: %s\norders: %s\n' "$1" "$2" "$3"; }
orders 1 usmc '[{activate: "0102", move: ["0202"], melee: true}]' > "$TMP/u1.yaml"
orders 1 ija '[]' > "$TMP/j1.yaml"
expect 0 "$BIN" turn "$C" "$TMP/u1.yaml" "$TMP/j1.yaml"
has "$C/journal/turn-0001.yaml" "melee in 0202 awaits the umpire's ruling: open; usmc (us): usmc-1 (squad, full, FP 6, morale 4, Prepared), usmc-2 (squad, full, FP 6, morale 4, Prepared); ija (japanese): ija-1 (squad, full, FP 5, morale 4, Prepared)"

# A bad ruling: every problem at once, at its line and column; nothing changes.
cat > "$TMP/bad.yaml" <<'YAML'
campaign: melee-ruling
turn: 2
player: umpire
orders:
  - adjust: remove
    unit: ija-9
    reason: "no such unit"
  - adjust: status
    unit: ija-1
    status: shaken
    value: true
    reason: "the Japanese are Unshakable"
  - adjust: status
    unit: usmc-1
    status: pinned
    value: true
    reason: "no such status"
  - adjust: morale
    side: ija
    by: -1
    reason: "no army morale in NHiS"
YAML
orders 2 usmc '[]' > "$TMP/u2.yaml"
orders 2 ija '[]' > "$TMP/j2.yaml"
before=$(fingerprint "$C")
expect 65 "$BIN" turn "$C" "$TMP/u2.yaml" "$TMP/j2.yaml" --rulings "$TMP/bad.yaml"
has "$TMP/err" "bad.yaml:6:11: error: 'ija-9' is not a unit of the scenario (a unit id expected)"
shows_source "$TMP/err" "bad.yaml:6:11:"
has "$TMP/err" "bad.yaml:10:13: error: unit 'ija-1' is Unshakable (japanese) and cannot be Shaken (a Shakeable unit expected)"
has "$TMP/err" "bad.yaml:15:13: error: 'pinned' is not a status of nhis ('shaken' or 'reduced' expected)"
has "$TMP/err" "bad.yaml:18:13: error: 'adjust: morale' has no meaning in nhis ('remove' or 'status' expected)"
[ "$(fingerprint "$C")" = "$before" ] || die "a refused ruling changed the campaign"

# The ruling: the umpire's dice, then the outcome.
cat > "$TMP/ruling.yaml" <<'YAML'
campaign: melee-ruling
turn: 2
player: umpire
orders:
  - roll: 2d6
    for: "melee 0202: usmc attacks ija-1"
  - adjust: remove
    unit: ija-1
    reason: "melee 0202: killed by the Marines"
  - adjust: status
    unit: usmc-1
    status: reduced
    value: true
    reason: "melee 0202: hit by ija-1"
  - adjust: status
    unit: usmc-2
    status: shaken
    value: true
    reason: "melee 0202: shaken by the fight"
YAML
expect 0 "$BIN" check "$C" --rulings "$TMP/ruling.yaml"
expect 0 "$BIN" turn "$C" "$TMP/u2.yaml" "$TMP/j2.yaml" --rulings "$TMP/ruling.yaml"
J="$C/journal/turn-0002.yaml"
has "$J" "umpire ruling 1: melee 0202: usmc attacks ija-1 (2d6) [1/2]"
has "$J" "umpire adjustment 2: ija-1 in 0202 is eliminated (reason: melee 0202: killed by the Marines)"
has "$J" "umpire adjustment 3: usmc-1 in 0202 is reduced (reason: melee 0202: hit by ija-1)"
has "$J" "umpire adjustment 4: usmc-2 in 0202 is Shaken (reason: melee 0202: shaken by the fight)"
# Shaken by the melee of turn 1, usmc-2 rolls to rally in turn 2's Rally Phase.
has "$J" "usmc-2 rolls"
! grep -q "awaits the umpire's ruling" "$J" || die "the ruled melee is still announced"
has "$C/orders/turn-0002/umpire.yaml" "adjust: remove"
awk '/id: ija-1$/ { u = 1 } u && /step:/ { print; exit }' "$C/state.yaml" > "$TMP/s"
has "$TMP/s" "step: eliminated"
awk '/id: usmc-1$/ { u = 1 } u && /step:/ { print; exit }' "$C/state.yaml" > "$TMP/s"
has "$TMP/s" "step: reduced"
expect 0 "$BIN" replay "$C"; has "$TMP/out" "replay: 2 turns identical"
