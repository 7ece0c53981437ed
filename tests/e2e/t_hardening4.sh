# t_hardening4.sh — issue 32 ("Hardening, fourth round"), the items without a test file of
# their own. Item 6: `umpire audit` escapes the control characters of an umpire ruling's text
# (a terminal title, a screen clear, colours) in its "events of phase" list and its "for"
# line, as everything else it prints.
. "$ROOT/tests/e2e/lib.sh"

# --- Item 6: a ruling whose text holds ESC sequences.
U=u
new_campaign harbour-raid "$U" --entropy none --visibility open
printf '%s\n' 'campaign: harbour-raid' 'turn: 1' 'player: umpire' 'orders:' '  - roll: 2d6' \
    '    for: "storm \e]0;owned\a\e[2J\e[31mred"' > u1.yaml
expect 0 "$BIN" turn "$U" --allow-missing --rulings u1.yaml
expect 0 "$BIN" audit "$U" 1:0
if LC_ALL=C grep -q "$(printf '\033')" "$TMP/out"; then die "audit printed a raw ESC"; fi
if LC_ALL=C grep -q "$(printf '\007')" "$TMP/out"; then die "audit printed a raw BEL"; fi
has "$TMP/out" 'for      "umpire ruling 1: storm  ]0;owned  [2J [31mred (2d6) [1/2]"'
grep -qF '[umpire] storm \x1b]0;owned\x07\x1b[2J\x1b[31mred: 2d6 = ' "$TMP/out" ||
    die "the ruling's event is not escaped in the events of phase list"
