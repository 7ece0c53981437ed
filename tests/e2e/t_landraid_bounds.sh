# Land Raid: what `init` accepts, every `turn` reads back (issue 9 item 5). A scenario with
# 101 attacker officers (the default officer allowance is their count, which the state
# reader once refused above 100) plays its turns; one over a bound is refused at `init`.
. "$ROOT/tests/e2e/lib.sh"
scen="$TMP/many.yaml"
{
    printf 'scenario: many-officers\nrules: land-raid\n'
    printf 'players: [{id: attacker, name: A}, {id: defender, name: D}]\n'
    printf 'game:\n  columns: 26\n  rows: 26\n  bases:\n'
    i=0
    while [ "$i" -lt 101 ]; do
        printf '    - {id: o%03d, side: attacker, role: officer, square: A1}\n' "$i"
        i=$((i + 1))
    done
    printf '    - {id: d1, side: defender, square: Z26}\n'
} >"$scen"
printf '%064d\n' 7 >"$TMP/secret"
expect 0 "$BIN" init --visibility open --entropy none "$TMP/c" --scenario "$scen" --secret-file "$TMP/secret"
has "$TMP/c/state.yaml" "attacker: 101"
printf 'campaign: many-officers\nturn: 1\nplayer: attacker\norders: []\n' >"$TMP/a1.yaml"
expect 0 "$BIN" turn "$TMP/c" "$TMP/a1.yaml"
printf 'campaign: many-officers\nturn: 2\nplayer: defender\norders: []\n' >"$TMP/d2.yaml"
expect 0 "$BIN" turn "$TMP/c" "$TMP/d2.yaml"

# One past the bound is refused at init, at its line, as a turn would refuse it.
sed 's/^game:$/game:\n  officer-allowance: {attacker: 2001}/' "$scen" >"$TMP/over.yaml"
expect 65 "$BIN" init "$TMP/c2" --scenario "$TMP/over.yaml" --secret-file "$TMP/secret"
has "$TMP/err" "officer allowance"
