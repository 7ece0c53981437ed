# A big battle's map (issue 38, docs/formats.md "Maps"): a map that drawn plain passes 1 MiB is
# drawn with runs (a side's figures, its moves, each one <path> with their paint, the moves'
# arrowheads another), and every smaller
# map keeps its plain bytes; verify re-renders both kinds the same on a clone, and the umpire's
# own copy (journal files rows: hashes) replays identical. 5 Border Reivers sides of 900
# one-figure groups, each moved: 4,500 figures, turn 1's maps about 1.2 MB plain.
. "$ROOT/tests/e2e/lib.sh"
HR="$ROOT/campaigns/harbour-raid"
sh "$ROOT/bench/big-reivers.sh" "$TMP/src" 5 900
expect 0 "$BIN" init --visibility open --entropy none "$TMP/c" --scenario "$TMP/src/scenario.yaml" \
    --secret-file "$HR/demo.secret"
expect 0 "$BIN" turn "$TMP/c" "$TMP"/src/orders/*.yaml
for p in p01 p05; do
    m="$TMP/c/reports/turn-0001/$p.svg"
    # a run is one <path>, a shape's subpath a line, its paint after the last
    grep -q '^<path d="M[0-9]* [0-9]*h10v10h-10z$' "$m" || die "$p's turn 1 map has no run of figures as a path"
    grep -q '^M[0-9]* [0-9]*h10v10h-10z" fill="#c0392b" stroke="#000000" stroke-width="1"/>$' "$m" || die "$p's turn 1 map: no run of p01's figures"
    grep -q '^M[0-9]* [0-9]*l0 -5" fill="none" stroke="#c0392b" stroke-width="2" stroke-linejoin="round"/>$' "$m" || die "$p's turn 1 map: no run of p01's moves"
    grep -q '^M[0-9]* [0-9]*l4 8 -8 0z" fill="#c0392b" stroke="none"/>$' "$m" || die "$p's turn 1 map: no arrowheads of a run as a path"
    if grep -q '^<rect x="[0-9]*" y="[0-9]*" width="10" height="10"/>$' "$m"; then die "$p's turn 1 map: a figure in a run written as an element"; fi
    [ "$(wc -c < "$m")" -lt 1048576 ] || die "$p's turn 1 map is not smaller than the plain bound"
    # the briefing (no moves) stays under the bound drawn plain: no run
    b="$TMP/c/reports/turn-0000/$p.svg"
    if grep -q '^<path ' "$b"; then die "$p's briefing map (under 1 MiB plain) has a run"; fi
    grep -q '^<rect x="[0-9]*" y="[0-9]*" width="10" height="10" fill="#c0392b" stroke="#000000" stroke-width="1"/>$' "$b" || die "$p's briefing map: no figure drawn plain"
done
git clone -q "$TMP/c" "$TMP/clone"
expect 3 "$BIN" verify "$TMP/clone"
has "$TMP/out" "verify: ok: campaign big-fray: 1 turn,"
expect 0 "$BIN" replay "$TMP/c"
has "$TMP/out" "replay: 1 turn"
