# Border Reivers (reivers) end to end: the shipped bewcastle-fray campaign plays every turn and
# each turn shows what demo-shows.txt says it is there to show, and docs/rules/reivers.md's
# table of its turns quotes them truly; verify passes on a plain clone
# and replay on the umpire's copy; a horse path over the yard wall is refused at its point with
# the source line and caret; a target out of range when checked is a warning; the umpire's
# rulings on sight and cover are checked; a broken terrain polygon in a scenario is refused; a
# report has its map; a three-sided raid deals a deck of four cards.
. "$ROOT/tests/e2e/lib.sh"
C="$TMP/c"
demo_played bewcastle-fray "$C"
# What each turn is there to show, every line: campaigns/bewcastle-fray/demo-shows.txt (the
# campaign is sealed: the public reports and the players' outbox reports are read too).
grep -q '^26 a tie, fought on$' "$ROOT/campaigns/bewcastle-fray/demo-shows.txt" || die "the tie is not asked for"
demo_shows bewcastle-fray "$C"
# docs/rules/reivers.md's turn-by-turn table of the demo quotes its journal and reports truly
doc_table bewcastle-fray "$C" docs/rules/reivers.md
git clone -q "$C" "$TMP/clone"
expect 3 "$BIN" verify "$TMP/clone"; has "$TMP/out" "verify: ok: campaign bewcastle-fray (sealed, not yet revealed): 27 turns"
expect 0 "$BIN" reveal "$C"
expect 0 "$BIN" replay "$C"; has "$TMP/out" "replay: 27 turns identical"
git clone -q "$C" "$TMP/clone2"
expect 3 "$BIN" verify "$TMP/clone2"; has "$TMP/out" "verify: ok: campaign bewcastle-fray: 27 turns"
for p in armstrong forster; do
    expect 3 "$BIN" verify "$TMP/clone2" --view "$C/.umpire/outbox/$p/turn-0027"
done

# The report (a player's, from his outbox): a map with its key, and the figures.
R="$C/.umpire/outbox/armstrong/turn-0027/report.md"
has "$R" "### The table (48\" x 36\")"
has "$R" "Key: o yours, x enemy"
has "$R" "| kinmont-willie | armstrong | mangerton |"
# The public report's map shows each side by its number, named in the key.
R="$C/reports/turn-0027.md"
has "$R" "### The table (48\" x 36\")"
has "$R" "Key: 1 armstrong, 2 forster, c cattle"
sed -n '/^### The table/,/^Key:/p' "$R" | sed -n '/^```$/,/^```$/p' | grep -v '^```$' > "$TMP/pmap"
grep -q '[12]' "$TMP/pmap" || die "no figure on the public map"
! grep -q '[ox]' "$TMP/pmap" || die "the public map marks figures as yours or the enemy's"

# A horse path through a wall is an error at the point, with the line and a caret.
new_campaign bewcastle-fray "$TMP/d" --entropy none
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

# The umpire's rulings file: reivers takes los, cover and range, refuses what it does not
# model, a grade or band it does not know and a figure not in play, each at its place.
cat > "$TMP/rulings.yaml" <<'YAML'
campaign: bewcastle-fray
turn: 1
player: umpire
orders:
  - adjust: los
    from: kinmont-willie
    to: tam-forster
    value: false
    reason: "a peat stack"
  - adjust: cover
    from: kinmont-willie
    to: tam-forster
    grade: hard
    reason: "a wall"
  - adjust: morale
    side: forster
    by: -1
    reason: "no army morale here"
  - adjust: los
    from: nobody
    to: tam-forster
    value: true
    reason: "who?"
  - adjust: range
    from: kinmont-willie
    to: tam-forster
    band: point-blank
    reason: "a band reivers does not know"
  - adjust: range
    from: kinmont-willie
    to: tam-forster
    band: long
    reason: "the tape says 20 inches"
YAML
expect 65 "$BIN" check "$TMP/d" --rulings "$TMP/rulings.yaml"
has "$TMP/err" "rulings.yaml:13:12: error: no cover grade 'hard' (none, part or whole expected)"
has "$TMP/err" "rulings.yaml:15:13: error: reivers takes no 'adjust: morale' (los, cover or range expected"
has "$TMP/err" "rulings.yaml:20:11: error: no figure 'nobody' (a figure of the scenario)"
has "$TMP/err" "rulings.yaml:27:11: error: no range band 'point-blank' (close, long or beyond expected)"
grep -c "error:" "$TMP/err" | grep -qx 4 || die "the los and range rulings on two figures in play should pass"
# ... and the core checks each kind's keys.
cat > "$TMP/shape.yaml" <<'YAML'
campaign: bewcastle-fray
turn: 1
player: umpire
orders:
  - adjust: cover
    from: kinmont-willie
    to: tam-forster
    value: true
    reason: "no grade"
YAML
expect 65 "$BIN" check "$TMP/d" --rulings "$TMP/shape.yaml"
has "$TMP/err" "shape.yaml:8:5: error: 'adjust: cover' takes no 'value' (from, to, grade, reason expected)"
has "$TMP/err" "shape.yaml:5:5: error: 'adjust: cover' without 'grade' (from, to, grade, reason expected)"

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
expect 0 "$BIN" init --visibility open --entropy none "$TMP/f" --scenario "$TMP/three.yaml" --secret-file "$ROOT/campaigns/bewcastle-fray/demo.secret"
expect 0 "$BIN" turn "$TMP/f" --allow-missing
has "$TMP/f/journal/turn-0001.yaml" "the deck of cards [3/3]"

# Hidden groups in a sealed campaign (docs/rules/reivers.md "Hidden groups"): the woodsmen lie
# still in Kershope wood for two turns, nobody within 6" of them. The Armstrongs' clone holds
# no byte of them (every object, packs included): not their group, their names, their places;
# the public state and report and the Armstrongs' outbox leave them out, the Forsters' hold
# them; an Armstrong order at one of them is refused as if he did not exist. verify passes
# before the reveal and after it, with both sides' views.
S="$TMP/sealed"
expect 0 "$BIN" init "$S" --visibility sealed --entropy none --scenario "$ROOT/campaigns/bewcastle-fray/scenario.yaml" --secret-file "$ROOT/campaigns/bewcastle-fray/demo.secret"
for n in 1 2; do
    printf 'campaign: bewcastle-fray\nturn: %s\nplayer: armstrong\norders:\n  - group: riders\n    move: [[%s, 100]]\n' \
        $n $((70 + 10 * n)) > "$TMP/a$n.yaml"
    printf 'campaign: bewcastle-fray\nturn: %s\nplayer: forster\norders:\n  - group: herdsmen\n    move: [[300, %s]]\n' \
        $n $((70 - 5 * n)) > "$TMP/f$n.yaml"
    expect 0 "$BIN" turn "$S" "$TMP/a$n.yaml" "$TMP/f$n.yaml"
done
git clone -q "$S" "$TMP/sclone"
git -C "$TMP/sclone" gc -q
git -C "$TMP/sclone" cat-file --batch-all-objects --batch > "$TMP/objects"
for word in woodsmen rowie gib-forster; do
    if grep -qaF "$word" "$TMP/objects"; then die "the sealed clone holds '$word'"; fi
done
tr -d ' \n' < "$TMP/objects" > "$TMP/flat"
for at in -150-240 150,240] -140-230 140,230]; do
    if grep -qaF -- "$at" "$TMP/flat"; then die "the sealed clone holds the place $at"; fi
done
has "$TMP/flat" "-295-"   # the search can see a place: Tam's, in the public state
# The maps (docs/formats.md "Maps") draw a figure at (40 + x, 400 - y): the woodsmen's places
# in no map of the clone or of the Armstrongs' outbox, in the Forsters' own.
for at in 'cx="190"cy="160"' 'x="185"y="155"' 'cx="180"cy="170"'; do
    if grep -qaF -- "$at" "$TMP/flat"; then die "a map in the sealed clone draws a woodsman ($at)"; fi
    if tr -d ' \n' < "$S/.umpire/outbox/armstrong/turn-0002/map.svg" | grep -qF -- "$at"; then
        die "the Armstrongs' map draws a woodsman ($at)"
    fi
done
tr -d ' \n' < "$S/.umpire/outbox/forster/turn-0002/map.svg" | grep -qF 'x="185"y="155"' ||
    die "the Forsters' map does not draw Rowie"
# the search can see a figure on a map: Hutcheon, the Forsters' heidman at [330, 230]
grep -qaF 'x="365"y="165"' "$TMP/flat" || die "no map in the clone draws Hutcheon"
O="$S/.umpire/outbox"
has "$O/forster/turn-0002/state.yaml" "id: rowie-forster"
has "$O/forster/turn-0002/report.md" "| rowie-forster | forster | woodsmen |"
for f in state.yaml report.md map.svg; do
    if grep -qF rowie "$O/armstrong/turn-0002/$f"; then die "the Armstrongs' $f holds the woodsmen"; fi
done
has "$O/armstrong/turn-0002/report.md" "| tam-forster | forster | herdsmen |"
printf 'campaign: bewcastle-fray\nturn: 3\nplayer: armstrong\norders:\n  - group: mangerton\n    fire: rowie-forster\n' > "$TMP/a3.yaml"
expect 65 "$BIN" check "$S" "$TMP/a3.yaml"
has "$TMP/err" "a3.yaml:6:11: error: no figure 'rowie-forster' (a figure of the scenario)"
expect 3 "$BIN" verify "$TMP/sclone"
expect 0 "$BIN" reveal "$S"
git -C "$TMP/sclone" fetch -q --tags origin
git -C "$TMP/sclone" merge -q --ff-only origin/main
for p in armstrong forster; do
    expect 3 "$BIN" verify "$TMP/sclone" --view "$O/$p/turn-0002"
    has "$TMP/out" "and his view is the revealed state's"
done

expect 0 "$BIN" rules reivers
has "$TMP/out" "herd: [ANIMAL, ...]"
