# The JSON Schemas and umpire agree: the shipped scenarios and order files, and an initialised
# campaign.yaml, validate against schemas/ (every schema's $id is where `make install` puts
# it), and so do the close files of two closed turns. Every shipped order file is accepted
# by `umpire check` against the state before its turn, and every order template a report
# carries (docs: "Next") is accepted as it stands by both `umpire check` and the schema its
# first line names; a template with its entries filled in too.
. "$ROOT/tests/e2e/lib.sh"
py=python3; [ -x /usr/bin/python3 ] && py=/usr/bin/python3
new_campaign harbour-raid "$TMP/c"; play harbour-raid "$TMP/c" 2
expect 0 "$py" "$ROOT/tools/check-schemas.py" "$TMP/c"; has "$TMP/out" "valid"
# and a broken file is caught (the check can fail)
mkdir -p "$TMP/x"; printf 'id: UPPER CASE\nrules: chess\n' > "$TMP/x/campaign.yaml"
expect 1 "$py" "$ROOT/tools/check-schemas.py" "$TMP/x"

# NHiS: an unquoted hex (activate: 0203) is what umpire takes; so must the schema.
printf 'campaign: betio-seawall\nturn: 1\nplayer: usmc\norders:\n  - activate: 0203\n    fire: 0405\n' \
    > "$TMP/unquoted.yaml"
"$py" - "$ROOT/schemas/nhis-orders.schema.json" "$TMP/unquoted.yaml" <<'PY' || die "the NHiS schema refuses an unquoted hex"
import json, sys, yaml, jsonschema
jsonschema.validate(yaml.safe_load(open(sys.argv[2])), json.load(open(sys.argv[1])))
PY

# Every campaign, turn by turn as tools/demo-play plays it: the shipped files checked before
# their turn, then each report's template after it.
n_tpl=0
for camp in "$ROOT"/campaigns/*/; do
    name=$(basename "$camp")
    d="$TMP/play-$name"
    new_campaign "$name" "$d"
    for tdir in "$camp"orders/turn-*; do
        n=$(basename "$tdir" | sed 's/^turn-0*//')
        files=$(ls "$tdir"/*.yaml | LC_ALL=C sort | grep -v '/umpire\.yaml$' || true)
        rulings=
        [ ! -f "$tdir/umpire.yaml" ] || rulings="--rulings $tdir/umpire.yaml"
        # shellcheck disable=SC2086
        expect 0 "$BIN" check "$d" $files $rulings
        # the turn as the demo plays it (closed, then its round's value; entropy none: one step)
        expect 0 sh -c 'cd "$1" && tools/demo-play "$2" "$3" "$4" "$5" "$5"' \
            demo-play "$ROOT" "$BIN" "$name" "$d" "$n"
        # open: reports/turn-NNNN/PLAYER.md; sealed: .umpire/outbox/PLAYER/turn-NNNN/report.md
        for r in "$d/reports/turn-$(printf %04d "$n")"/*.md "$d/.umpire/outbox"/*/"turn-$(printf %04d "$n")"/report.md; do
            [ -f "$r" ] || continue
            p=$(basename "$r" .md)
            [ "$p" != report ] || p=$(basename "$(dirname "$(dirname "$r")")")
            t="$TMP/tpl-$name-$n-$p.yaml"
            awk '/^## Next/ { next_ = 1 } next_ && /^```yaml$/ { on = 1; next } /^```$/ { on = 0 } on' "$r" > "$t"
            if [ ! -s "$t" ]; then rm -f "$t"; continue; fi
            head -n 1 "$t" | grep -q '^# yaml-language-server: \$schema=' || die "$t: no schema line"
            expect 0 "$BIN" check "$d" "$t"
            n_tpl=$((n_tpl + 1))
        done
    done
done
[ "$n_tpl" -ge 20 ] || die "only $n_tpl templates found in the reports"
# shellcheck disable=SC2046
expect 0 "$py" "$ROOT/tools/check-schemas.py" $(ls "$TMP"/tpl-*.yaml)
has "$TMP/out" "valid"

# A template filled in: Land Raid's defender after turn 1, its first officer's entry
# uncommented with a shot, is checked by umpire and the schema alike.
t="$TMP/tpl-harbour-raid-1-defender.yaml"
[ -s "$t" ] || die "no template for the defender after turn 1"
awk '/^orders: \[\]/ { print "orders:"; fill = 1; next }
    fill && /^#   - officer:/ { sub(/^# /, ""); print; print "    actions:"; print "      - shoot"; fill = 0; next }
    { print }' "$t" > "$TMP/filled.yaml"
grep -q '^  - officer:' "$TMP/filled.yaml" || die "template has no officer entry to fill in"
new_campaign harbour-raid "$TMP/one"; play harbour-raid "$TMP/one" 1
expect 0 "$BIN" check "$TMP/one" "$TMP/filled.yaml"
has "$TMP/out" "ok: orders of defender for turn 2"
expect 0 "$py" "$ROOT/tools/check-schemas.py" "$TMP/filled.yaml"
