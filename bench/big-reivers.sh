#!/bin/sh
# bench/big-reivers.sh DIR [SIDES [GROUPS]] — writes DIR/scenario.yaml and DIR/orders/*.yaml:
# a Border Reivers game of SIDES (12) players with GROUPS (800) one-figure groups each, on the
# largest table (240" square, figures 2.4" apart), and turn 1's order files: every group moves
# half an inch up the table, SIDES x GROUPS orders (12 x 800 = 9,600). The 10,000-order turn of
# issue 17, used by `make bench` (bench/run.sh) and tests/e2e/t_limits.sh.
set -eu
D=$1; S=${2:-12}; G=${3:-800}
mkdir -p "$D/orders"
awk -v S="$S" -v G="$G" 'BEGIN {
    print "scenario: big-fray\ntitle: \"The big fray\"\nrules: reivers\nplayers:"
    for (s = 1; s <= S; s++) printf "  - id: p%02d\n    name: \"Side %d\"\n", s, s
    print "game:\n  table: {width: 2400, height: 2400}\n  turns: 10\n  groups:"
    for (s = 1; s <= S; s++) for (g = 1; g <= G; g++) printf "    - {id: g%02d-%d, side: p%02d}\n", s, g, s
    print "  figures:"
    for (s = 1; s <= S; s++) for (g = 1; g <= G; g++) {
        i = (s - 1) * G + g - 1
        printf "    - {id: f%02d-%d, group: g%02d-%d, role: %s, weapon: %s, at: [%d, %d]}\n", s, g, s, g, (g == 1 ? "heidman" : "leader"), (g % 4 ? "hand" : "dagg"), 12 + 24 * (i % 100), 12 + 24 * int(i / 100)
    }
}' > "$D/scenario.yaml"
for s in $(seq 1 "$S"); do
    p=$(printf p%02d "$s")
    awk -v s="$s" -v p="$p" -v G="$G" 'BEGIN {
        printf "campaign: big-fray\nturn: 1\nplayer: %s\norders:\n", p
        for (g = 1; g <= G; g++) {
            i = (s - 1) * G + g - 1
            printf "  - {group: g%02d-%d, move: [[%d, %d]]}\n", s, g, 12 + 24 * (i % 100), 17 + 24 * int(i / 100)
        }
    }' > "$D/orders/$p.yaml"
done
