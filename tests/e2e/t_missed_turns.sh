# t_missed_turns.sh — missed turns, counted and bounded (issue 37 item 1): a campaign with a
# schedule (missing no-orders, civil_disorder 3) where ija misses one turn, sends, then misses
# three in a row into civil disorder (its side plays the NHiS hold orders, journaled), misses
# once more in it, then sends orders again and leaves it. The counts come from the committed
# closes alone: status (text and --json), every report and the reminder say them; umpire
# verify and both independent verifiers pass; a close rewritten to hide a miss fails verify.
. "$ROOT/tests/e2e/lib.sh"
SRC=$ROOT/campaigns/betio-seawall
C=$TMP/c
D0=1767225600                  # lib.sh's SOURCE_DATE_EPOCH
DAY=86400
with_emails "$SRC/scenario.yaml" usmc=usmc@example.org ija=ija@example.org > scenario.yaml
cat >> scenario.yaml <<'YAML'
mail:
  from: umpire@example.org
schedule:
  first_deadline: 2026-01-02T00:00:00Z
  every: 1d
  missing: no-orders
  civil_disorder: 3
YAML
"$BIN" init "$C" --scenario scenario.yaml --secret-file "$SRC/demo.secret" --visibility open \
    --entropy beacon --beacon unsigned-demo-values-chosen-by-hand --beacon-genesis 1692803367 \
    --beacon-period 3 >/dev/null || die "init"
at() { _t=$1; shift; env SOURCE_DATE_EPOCH="$_t" "$@"; }
orders() { # PLAYER TURN: an order file with no orders (the ija's keeps its opportunity fire)
    {
        printf 'campaign: betio-seawall\nturn: %s\nplayer: %s\norders: []\n' "$2" "$1"
        [ "$1" = ija ] && printf 'standing:\n  opportunity:\n    - {hex: "0405", within: 2}\n'
    } > "$TMP/$1-$2.yaml"
    echo "$TMP/$1-$2.yaml"
}
# turn N: close after its deadline with the files of the players named, then resolve it.
turn() {
    _n=$1; shift
    _close=$((D0 + _n * DAY + 60))
    _files=""
    for _p in "$@"; do _files="$_files $(orders "$_p" "$_n")"; done
    # shellcheck disable=SC2086
    expect 0 at $_close "$BIN" close "$C" $_files
    expect 0 at $((_close + 1200)) "$BIN" turn "$C" --beacon "value-$_n"
}
report() { cat "$C/reports/turn-$(printf %04d "$1")/usmc.md"; }

# Before any miss: no line anywhere.
turn 1 usmc
has "$C/journal/turn-0001.close.yaml" "- ija"
expect 0 "$BIN" status "$C"
has "$TMP/out" "missed turns: ija 1 in a row, 1 in all"
report 1 > r1.md
has r1.md "## Missed turns"
has r1.md "- ija: 1 in a row, 1 in all"
grep -q "civil disorder\|holds:" r1.md && die "a first miss in civil disorder or holding"
turn 2 usmc ija
expect 0 "$BIN" status "$C"
has "$TMP/out" "missed turns: ija 0 in a row, 1 in all"
turn 3 usmc
turn 4 usmc
expect 0 "$BIN" status --json "$C"
python3 - "$TMP/out" <<'PY' || die "status --json after turn 4"
import json, sys
s = json.load(open(sys.argv[1]))
p = {x["id"]: x for x in s["players"]}
assert (p["ija"]["missed_in_row"], p["ija"]["missed_total"], p["ija"]["civil_disorder"]) == (2, 3, False), p["ija"]
assert (p["usmc"]["missed_in_row"], p["usmc"]["missed_total"], p["usmc"]["civil_disorder"]) == (0, 0, False), p["usmc"]
PY
# The reminder of turn 5 says how many he has missed and what comes at the third.
# The reminder of turn 5 tells ija his count, what a miss plays and when civil disorder comes.
expect 0 at $((D0 + 4 * DAY + 600)) "$BIN" remind "$C"
python3 - "$C/.umpire/outbox/new/remind-0005-ija.eml" <<'PY' || die "ija's reminder"
import email, email.policy, sys
m = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=email.policy.default)
body = " ".join(m.get_body(("plain",)).get_content().split())
for want in ("Missed turns: 2 in a row, 3 in all.",
             "A missed turn plays your side's standing orders.",
             "After 3 missed in a row your side is in civil disorder and plays its hold orders"):
    assert want in body, (want, body)
PY
# The third in a row: civil disorder, journaled, and the hold orders played.
turn 5 usmc
report 5 > r5.md
has r5.md "ija: civil disorder: 3 turns missed in a row; the side plays its hold orders"
has r5.md "ija holds: no impulse, no opportunity fire this turn"
has r5.md "- ija: 3 in a row, 4 in all (civil disorder: hold orders)"
has "$C/journal/turn-0005.yaml" "ija: civil disorder: 3 turns missed in a row"
expect 0 "$BIN" status "$C"
has "$TMP/out" "missed turns: ija 3 in a row, 4 in all (civil disorder: hold orders)"
expect 0 "$BIN" status --json "$C"
has "$TMP/out" '"civil_disorder": true'
turn 6 usmc
report 6 > r6.md
has r6.md "ija: in civil disorder: the side plays its hold orders"
has r6.md "ija holds: no impulse, no opportunity fire this turn"
# Orders again: civil disorder ends, and the count in a row restarts.
turn 7 usmc ija
report 7 > r7.md
has r7.md "ija: civil disorder ends: orders accepted after 4 turns missed in a row"
grep -q "ija holds" r7.md && die "ija holds with orders in"
has r7.md "- ija: 0 in a row, 5 in all"
expect 0 "$BIN" status "$C"
has "$TMP/out" "missed turns: ija 0 in a row, 5 in all"
grep -q "civil disorder" "$TMP/out" && die "still in civil disorder after orders"

# Everything re-derives from the history: umpire verify on a clone, and both verifiers.
git clone -q "$C" clone
expect 3 "$BIN" verify clone  # 3: checked, but an unsigned beacon is not provably fair
expect 3 node "$JSV" clone

# A history whose close of turn 4 hides ija's miss, its commit message made to agree: the
# turn's replay finds the close's players without orders differ from the turn's record.
git clone -q "$C" tampered
X=$(git -C tampered rev-parse close-0004)
(cd tampered && git filter-branch -f --tree-filter \
    'f=journal/turn-0004.close.yaml; [ -f $f ] && sed -i "/^missing:/,/^[a-z]/{/^- ija/d}; s/^missing:$/missing: []/" $f || true' \
    --msg-filter "if [ \"\$GIT_COMMIT\" = $X ]; then sed 's/1 order files, 1 without/1 order files, 0 without/'; else cat; fi" \
    --tag-name-filter cat -- --all >/dev/null 2>&1) || die "filter-branch"
grep -q "^- ija" tampered/journal/turn-0004.close.yaml && die "the tamper did not take"
expect 65 "$BIN" verify tampered
has "$TMP/out" "turn 4 was closed (tag close-0004"
has "$TMP/out" "the players without orders differ from the close's"
# ... and so do both independent verifiers: the close's missing list is who the turn
# journaled as sending no orders.
expect 65 node "$JSV" tampered
has "$TMP/out" "lists without orders [], the turn's journal/turn-0004.yaml journaled no orders from [ija]"
