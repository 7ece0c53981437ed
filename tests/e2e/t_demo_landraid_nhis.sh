# The Land Raid and NHiS demo campaigns show what they are there to show (their
# campaigns/NAME/demo-shows.txt): betio-seawall a Shaken US tank that rallies (tank-morale:
# nationality), a melee handed to the umpire and his ruling applied by an adjustment;
# harbour-raid, played sealed on the demo beacon's signed rounds, groups shooting and assaulting, an
# order naming its group (§6), and an officer left alone who flees (§19).
. "$ROOT/tests/e2e/lib.sh"
demo_played betio-seawall "$TMP/b"
demo_shows betio-seawall "$TMP/b"
# docs/rules/nhis.md's turn-by-turn table of the demo quotes its reports truly
doc_table betio-seawall "$TMP/b" docs/rules/nhis.md
demo_played harbour-raid "$TMP/h"
grep -q '^visibility: sealed$' "$TMP/h/campaign.yaml" || die "harbour-raid's demo is not sealed"
demo_shows harbour-raid "$TMP/h"
doc_table harbour-raid "$TMP/h" docs/rules/land-raid.md

# Maps label squares and units distinctly (issue 15), with a key. Land Raid: a square is a
# column letter and a row number (the map's headers); what stands in it always has a colon
# (A:3+O, D:1, xA:2, P:1), so no cell below a square's kind reads as a square's name.
R="$TMP/h/.umpire/outbox/attacker/turn-0003/report.md"   # sealed: his own report
has "$R" "Key: a square is named by its column letter and row number (C2: column C, row 2)"
has "$R" "A:3+O = 3 attacker bases and an officer"
sed -n '/^### Land Raid: the table/,/^Key:/p' "$R" | grep '^    |' > "$TMP/cells"
[ -s "$TMP/cells" ] || die "no map in $R"
grep -q 'A:[0-9]' "$TMP/cells" || die "the map shows no attacker bases"
tr '|' '\n' < "$TMP/cells" | tr ' ' '\n' | grep -E '^[A-Z][0-9]+' && die "a map cell reads as a square's name"
# NHiS: hexes are CCRR numbers (the headers); the line under each map row has each side's
# units as a symbol and a count, and they add up to the units on the map.
R="$TMP/b/.umpire/outbox/usmc/turn-0002/report.md"
has "$R" "A hex is named by its column and row, CCRR (0304: column 03, row 04)"
has "$R" "*N = N units of usmc, +N = N of ija"
sed -n '/^### Map/,/^### Units/p' "$R" | sed -n '/^```$/,/^```$/p' | awk 'NR % 2 == 0 && NR > 3' > "$TMP/units-lines"
for side in usmc ija; do
    mark='*'; [ "$side" = usmc ] || mark='+'
    on_map=$(grep -o "[$mark][0-9]" "$TMP/units-lines" | cut -c2 | awk '{ n += $1 } END { print n + 0 }')
    listed=$(grep -c "^| [^|]* | $side | [^|]* | [0-9]\{4\} |" "$R")
    [ "$on_map" -eq "$listed" ] && [ "$listed" -gt 0 ] || die "$side: $on_map units on the map, $listed in the table"
done
