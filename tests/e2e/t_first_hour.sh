# Issue 29, "The first hour": what a newcomer meets in his first hour says what to do next.
# Beacon times as UTC dates with the wait; each refusal names the next step; unknown names get
# a did-you-mean or the candidates; last turn's file sent again gets one error; `umpire init`
# without arguments says what is missing; `umpire help CMD` is CMD's help.
. "$ROOT/tests/e2e/lib.sh"
HR="$ROOT/campaigns/harbour-raid"
A1="$HR/orders/turn-0001/attacker.yaml"
C="$TMP/c"
D0=$SOURCE_DATE_EPOCH

# 1. The worked turn: when the round is out, as a date with the wait, and what to run then.
"$BIN" init "$C" --scenario "$HR/scenario.yaml" --secret-file "$HR/demo.secret" > "$TMP/init.txt"
has "$TMP/init.txt" "once the beacon round the close names is out (umpire turn DIR --beacon-fetch, or --beacon VALUE --beacon-signature SIG)"
expect 65 "$BIN" turn "$C" --beacon-fetch
has "$TMP/err" "turn 1 is not closed yet, so no beacon round is named for it: close it first (umpire close $C ORDERS...)"

! grep -qF "no commit" "$TMP/err" || die "--beacon-fetch on an unclosed turn: a repo error"
SOURCE_DATE_EPOCH=$((D0 + 100)) expect 0 "$BIN" close "$C" "$A1"
has "$TMP/out" "round 24807646, out at 2026-01-01 00:11:42 UTC, in about 10 minutes; then run 'umpire turn $C --beacon-fetch' (or --beacon VALUE --beacon-signature SIG)"
SOURCE_DATE_EPOCH=$((D0 + 102)) expect 75 "$BIN" turn "$C" --beacon x
has "$TMP/err" "beacon round 24807646 is out at 2026-01-01 00:11:42 UTC, in 10 minutes: no value of it exists yet; run 'umpire turn $C --beacon-fetch' then"
SOURCE_DATE_EPOCH=$((D0 + 702 - 5400)) expect 75 "$BIN" turn "$C" --beacon x
has "$TMP/err" "in 90 minutes"
SOURCE_DATE_EPOCH=$((D0 + 900)) expect 65 "$BIN" turn "$C"
has "$TMP/err" "out at 2026-01-01 00:11:42 UTC, about 3 minutes ago: run 'umpire turn $C --beacon-fetch' (or give the value and its signature: --beacon VALUE --beacon-signature SIG)"

# 5. Errors that suggest.
sed 's/officer: pitt/officer: pit/; s/morale-removal: \[d1, d5\]/morale-removal: [d1, zz]/' "$A1" > "$TMP/typo.yaml"
"$BIN" init "$TMP/n" --scenario "$HR/scenario.yaml" --secret-file "$HR/demo.secret" --entropy none > /dev/null
expect 65 "$BIN" check "$TMP/n" "$TMP/typo.yaml"
has "$TMP/err" "no base 'pit' on the table (one of your officers expected); did you mean 'pitt'?"
has "$TMP/err" "no base 'zz' on the table (a base id from the state expected); one of: bishop, d1, d2"
expect 0 "$BIN" turn "$TMP/n" "$A1"
expect 65 "$BIN" check "$TMP/n" "$A1"
has "$TMP/err" "this is turn 1's file; turn 2 is open (a new file for turn 2: your last report ends with its template)"
[ "$(grep -c ': error: ' "$TMP/err")" -eq 1 ] || { cat "$TMP/err"; die "last turn's file: more than one error"; }
expect 64 "$BIN" init
has "$TMP/err" "umpire init: missing DIR (the new campaign's directory) and --scenario FILE"
expect 64 "$BIN" init "$TMP/new"
has "$TMP/err" "umpire init: missing --scenario FILE"
[ "$(wc -l < "$TMP/err")" -le 3 ] || { cat "$TMP/err"; die "init without --scenario: more than what is missing"; }
expect 0 "$BIN" check --help; cp "$TMP/out" "$TMP/check-help.txt"
expect 0 "$BIN" help check
cmp -s "$TMP/out" "$TMP/check-help.txt" || die "'umpire help check' is not 'umpire check --help'"
expect 64 "$BIN" help chek
has "$TMP/err" "unknown command 'chek'; did you mean 'check'?"
expect 64 "$BIN" verfy
has "$TMP/err" "unknown command 'verfy'; did you mean 'verify'?"

# 4. The game's end says who won: the last report gives the result as the sheet scores it
# (Land Raid: the loot), the sides' casualties otherwise, and the game turn by turn.
# (both shipped campaigns play sealed: the public report and each player's.)
demo_played harbour-raid "$TMP/hr"
last="$TMP/hr/reports/turn-0012.md"
has "$last" "The game is over: the game length is reached (option turns-per-player)."
has "$last" "## Result"
has "$last" "- loot (the raid's score, §24): the attacker carried off **2** (lost to deviation: 0)"
has "$last" "## The game, turn by turn (12)"
has "$last" "- Turn 1: the attacker's turn: event 6; 3 officers acted; lost: attacker 1, defender 0; loot 2 (total 2)"
[ "$(grep -c '^- Turn [0-9]*: ' "$last")" -eq 12 ] || die "the last report does not list the 12 turns"
has "$TMP/hr/.umpire/outbox/attacker/turn-0012/report.md" "## The game, turn by turn (12)"
! grep -q '^## Result' "$TMP/hr/reports/turn-0011.md" || die "a result before the game's end"
demo_played karak-gate "$TMP/kg"
has "$TMP/kg/reports/turn-0010.md" "- orcs: lost 15 of 23 stands; 4 of 9 units destroyed; 1 of 3 characters slain"

# 7. Possessives of plural side names; Warmaster distances in mm, as its table is measured.
has "$TMP/kg/reports/turn-0010.md" "- Turn 2: dwarfs' turn;"
! grep -rq "dwarfs's\|orcs's" "$TMP/kg/reports" "$TMP/kg/journal" "$TMP/kg/.umpire/outbox" ||
    die "a possessive 's after a plural side name"
! grep -rqE "[0-9] cm\b" "$TMP/kg/reports" "$TMP/kg/journal" "$TMP/kg/.umpire/outbox" ||
    die "a Warmaster distance in cm"
AB="$ROOT/campaigns/aspenbach-1809"
"$BIN" init "$TMP/ab" --scenario "$AB/scenario.yaml" --secret-file "$AB/demo.secret" > /dev/null
expect 0 "$BIN" close "$TMP/ab" "$AB/orders/turn-0001/austrians.yaml" "$AB/orders/turn-0001/french.yaml" \
    --rulings "$AB/orders/turn-0001/umpire.yaml"
has "$TMP/out" "# umpire receipt: austrians' orders for turn 1 are in and the turn is closed"
