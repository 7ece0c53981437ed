# Border Reivers (reivers) end to end: the shipped bewcastle-fray campaign plays every turn and
# its journal shows each mechanic the campaign exercises; verify passes on a plain clone and
# replay on the umpire's copy; a horse path over the yard wall is refused at its point with
# the source line and caret; a broken terrain polygon in a scenario is refused; a report has
# its map; a three-sided raid deals a deck of four cards.
. "$ROOT/tests/e2e/lib.sh"
C="$TMP/c"
new_campaign bewcastle-fray "$C"; play bewcastle-fray "$C"
J="$C/journal"
for text in "Border Reivers §Sequence of Play: the deck of cards [1/2]" "woodsmen acts from hiding" \
    "takes aim at" "+1 aim" "+1 close" "loads his caliver (ready to fire)" "fires dagg" \
    "fires hackbutt" "fires caliver" "fires latch" "fires longbow" "-1 part cover" \
    "the shot ricochets" "against 4: spooked" "thrown and stunned next turn" "keeps his seat" \
    "they move with the herders" "they scatter" "tests morale (to charge)" \
    "tests morale (to receive a charge)" "tests morale (casualties)" "the attackers win" \
    "the defender wins" "takes a flesh wound" "takes a wound" "is killed" "is stunned" \
    "has lost its leader" "+1 soft cover" "-2 extra attackers" "+1 wounded leader" \
    "-1 wounded" "gallops" "stops short" "no shot at" "-2 whole cover" \
    "fails by 1, load, fire or retreat to cover only" "the heidman names sim-the-laird leader" \
    "riders: leaderless: load, fire or retreat to cover only" "no line of sight" \
    "herdsmen: not in base contact with brock" "no figure of the group is left"; do
    grep -qF -- "$text" "$J"/*.yaml || die "no '$text' in the bewcastle-fray journal"
done
expect 0 "$BIN" replay "$C"; has "$TMP/out" "replay: 22 turns identical"
git clone -q "$C" "$TMP/clone"
expect 0 "$BIN" verify "$TMP/clone"; has "$TMP/out" "verify: ok: campaign bewcastle-fray: 22 turns"

# The report: a map with its key, and the figures.
R=$(ls "$C"/reports/turn-0022/*armstrong*)
has "$R" "## The table (48\" x 36\")"
has "$R" "Key: o yours, x enemy"
has "$R" "| kinmont-willie | armstrong | mangerton |"

# A horse path through a wall is an error at the point, with the line and a caret.
new_campaign bewcastle-fray "$TMP/d"
cat > "$TMP/jump.yaml" <<'YAML'
campaign: bewcastle-fray
turn: 1
player: armstrong
orders:
  - group: riders
    move: [[240, 150], [270, 60]]
YAML
expect 65 "$BIN" check "$TMP/d" "$TMP/jump.yaml"
has "$TMP/err" "jump.yaml:6:24: error: the path to this point crosses a fence or wall on horseback (horses cannot jump: go round, or dismount first)"
shows_source "$TMP/err" "crosses a fence or wall"
# ... and on foot the same path is fine (Hutcheon's men are foot).
sed -e 's/armstrong/forster/; s/riders/herdsmen/' "$TMP/jump.yaml" > "$TMP/foot.yaml"
expect 0 "$BIN" check "$TMP/d" "$TMP/foot.yaml"

# A target out of range when the orders are checked is a warning, not an error (exit 0): the
# bastle men aim down the road at Kinmont Willie before he rides into range (docs/rules/reivers.md).
cp "$ROOT/campaigns/bewcastle-fray/orders/turn-0001/forster.yaml" "$TMP/forster.yaml"
(cd "$TMP" && expect 0 "$BIN" check d forster.yaml)
has "$TMP/out" "forster.yaml: ok: orders of forster for turn 1 of bewcastle-fray"
cat > "$TMP/want" <<'EOF'
forster.yaml:8:10: warning: 'kinmont-willie' is out of range now: 28.2" from the nearest loaded shooter of group 'bastle', whose long range is at most 24.0" (things may move before its card)
    8 |     aim: kinmont-willie
      |          ^
EOF
cmp "$TMP/want" "$TMP/err" || die "the warning is not as docs/rules/reivers.md shows it"

# A self-crossing wood is refused with its place.
sed -e 's/area: \[\[60, 220\], \[160, 220\], \[160, 320\], \[60, 320\]\]/area: [[60, 220], [160, 320], [160, 220], [60, 320]]/' \
    "$ROOT/campaigns/bewcastle-fray/scenario.yaml" > "$TMP/bad.yaml"
expect 65 "$BIN" init "$TMP/e" --scenario "$TMP/bad.yaml" --secret-file "$ROOT/campaigns/bewcastle-fray/demo.secret"
has "$TMP/err" "error: terrain 'kershope-wood' is not a valid area here (at least 3 points, a simple polygon)"

# Three sides: a deck of three side cards and the animal card (3 shuffle dice).
cat > "$TMP/three.yaml" <<'YAML'
scenario: three
rules: reivers
players: [{id: scott}, {id: kerr}, {id: hume}]
game:
  table: {width: 240, height: 240}
  groups: [{id: s, side: scott}, {id: k, side: kerr}, {id: h, side: hume}]
  figures:
    - {id: buccleuch, group: s, role: heidman, at: [10, 10]}
    - {id: cessford, group: k, role: heidman, at: [200, 10]}
    - {id: wedderburn, group: h, role: heidman, mounted: true, at: [100, 200]}
YAML
expect 0 "$BIN" init "$TMP/f" --scenario "$TMP/three.yaml" --secret-file "$ROOT/campaigns/bewcastle-fray/demo.secret"
expect 0 "$BIN" turn "$TMP/f" --allow-missing
has "$TMP/f/journal/turn-0001.yaml" "the deck of cards [3/3]"

expect 0 "$BIN" rules reivers
has "$TMP/out" "herd: [ANIMAL, ...]"
