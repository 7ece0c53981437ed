# A big open turn's shared report (issue 38, docs/formats.md "Shared reports"): a turn whose
# part common to every report passes 1 MiB commits it once, in reports/turn-NNNN.md with the
# shared map reports/turn-NNNN.svg, and each player's report links them instead of holding a
# copy; a smaller turn (the Setup's briefing here, every demo) keeps a report and a map per
# player. Both verifiers accept it on a clone, replay re-renders it identical, an edit of the
# shared report is named, `umpire site` puts the shared files where the reports link them.
# 6 Border Reivers sides of 900 one-figure groups, each moved: 5,400 orders, about 1.2 MB of
# events and dice listed (the report lists none: more than 4,096, they are in the export), a
# template of a line a group (900 groups), a map whose runs are paths.
. "$ROOT/tests/e2e/lib.sh"
HR="$ROOT/campaigns/harbour-raid"
sh "$ROOT/bench/big-reivers.sh" "$TMP/src" 6 900
expect 0 "$BIN" init --visibility open --entropy none "$TMP/c" --scenario "$TMP/src/scenario.yaml" \
    --secret-file "$HR/demo.secret"
expect 0 "$BIN" turn "$TMP/c" "$TMP"/src/orders/*.yaml
R="$TMP/c/reports"
[ -f "$R/turn-0001.md" ] || die "no shared report reports/turn-0001.md"
[ -f "$R/turn-0001.svg" ] || die "no shared map reports/turn-0001.svg"
has "$R/turn-0001.md" "# big-fray, turn 1: the turn as every player sees it"
has "$R/turn-0001.md" "![Map of turn 1](turn-0001.svg)"
has "$R/turn-0001.md" "## Dice ("
# more than 4,096 dice (RENDER_DICE_LISTED): the export lists them, the report points there
has "$R/turn-0001.md" "is in the turn's journal export \`journal/turn-0001.yaml\` (\`umpire log DIR --turn 1\` prints them)."
if grep -q '^| # | die | roll | for |$' "$R/turn-0001.md"; then die "the shared report lists its dice (the export holds them)"; fi
n_dice=$(sed -n 's/^## Dice (\([0-9]*\))$/\1/p' "$R/turn-0001.md")
[ "$(grep -c '^- index: ' "$TMP/c/journal/turn-0001.yaml")" -eq "$n_dice" ] || die "the export does not hold the $n_dice dice the report counts"
has "$R/turn-0001.md" "## Situation"
[ "$(grep -c '^- \[action\] g0[0-9]-[0-9]* rolls' "$R/turn-0001.md")" -eq 5400 ] || die "the shared report does not hold the 5,400 moves once"
for p in p01 p02 p03 p04 p05 p06; do
    r="$R/turn-0001/$p.md"
    has "$r" "# big-fray, turn 1: report for $p"
    has "$r" "![Map of turn 1](../turn-0001.svg)"
    has "$r" "[the turn's shared report](../turn-0001.md)."
    has "$r" "player: $p"
    if grep -q '^## Dice\|^## Events\|^## Situation' "$r"; then die "$p's report repeats the shared part"; fi
    [ ! -e "$R/turn-0001/$p.svg" ] || die "$p has a map of his own, the same as the shared one"
    # 900 groups (more than RV_TEMPLATE_FULL, 100): his template is a line a group, which
    # umpire check takes once uncommented and filled in
    has "$r" "#   your 900 groups, a line each"
    [ "$(grep -c "^#   - {group: g[0-9]*-[0-9]*, move: \[\[x, y\]\]}$" "$r")" -eq 900 ] || die "$p's template is not a line a group"
    if grep -q '^#      f' "$r"; then die "$p's template repeats each figure (the Situation has them)"; fi
    # the briefing is under the bound: a report and a map per player, as always
    [ -f "$R/turn-0000/$p.svg" ] || die "$p's briefing map is gone"
done
[ ! -e "$R/turn-0000.md" ] || die "the briefing (under the bound) has a shared report"
# the shared map is the public view (title), drawn with runs as any map over 1 MiB plain
grep -q '<title>Border Reivers, turn 1, public view</title>' "$R/turn-0001.svg" || die "the shared map is not the public view"
git -C "$TMP/c" ls-tree -r --name-only turn-0001 > "$TMP/files"
[ "$(grep -c '^reports/' "$TMP/files")" -eq $((2 + 6 + 12)) ] || { cat "$TMP/files"; die "not 2 shared files, 6 reports and the briefing's 12 files"; }
sed -n '/^```yaml$/,/^```$/p' "$R/turn-0001/p06.md" | sed '1d;$d' |
    sed 's/^orders: \[\].*/orders:/; s/^#   - {group: \(g[0-9]*-[0-9]*\), move: \[\[x, y\]\]}$/  - {group: \1, move: [[1200, 1200]]}/' > "$TMP/p06-2.yaml"
cp -a "$TMP/c" "$TMP/c2"
expect 0 "$BIN" check "$TMP/c2" "$TMP/p06-2.yaml"
has "$TMP/out" ": ok: orders of p06"
# the shared map: a run of shapes is one <path> (a subpath a line), its arrowheads another
grep -q '^<path d="M[0-9]* [0-9]*h10v10h-10z$' "$R/turn-0001.svg" || die "the shared map: no run of figures as a path"
grep -q '^M[0-9]* [0-9]*l-*[0-9]* -*[0-9]* -*[0-9]* -*[0-9]*z" fill="#c0392b" stroke="none"/>$' "$R/turn-0001.svg" || die "the shared map: no run of arrowheads as a path"
if grep -q '^<rect x="[0-9]*" y="[0-9]*" width="10" height="10"/>$' "$R/turn-0001.svg"; then die "the shared map writes a figure in a run as an element"; fi
expect 0 python3 "$ROOT/tools/check-schemas.py" "$TMP/c"
expect 0 "$BIN" replay "$TMP/c"
has "$TMP/out" "replay: 1 turn identical"
git clone -q "$TMP/c" "$TMP/clone"
expect 3 "$BIN" verify "$TMP/clone"
has "$TMP/out" "verify: ok: campaign big-fray: 1 turn,"
expect 3 node "$JSV" "$TMP/clone"
has "$TMP/out" "verify: ok: campaign big-fray: 1 turn,"
# an edited shared report is named
tclone edited "$TMP/c"
sed -i 's/^## Void orders$/## Void orders (none, honest)/' "$TMP/edited/reports/turn-0001.md"
tamend edited turn-0001
expect 65 "$BIN" verify "$TMP/edited"
has "$TMP/out" "turn 1: committed reports/turn-0001.md differs from the re-resolved one at line"
# the pages: the shared report and map where the players' reports link them
if [ -f "$ROOT/build/web/verify.js" ]; then
    expect 0 "$BIN" site "$TMP/c" "$TMP/site"
    [ -f "$TMP/site/turn-0001.svg" ] && [ -f "$TMP/site/turn-0001.md" ] || die "the site has no shared map or report beside the turn pages"
    has "$TMP/site/turn-0001/index.html" "the turn&#39;s shared report"
fi
