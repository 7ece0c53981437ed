# t_run_idle.sh — the idle `umpire run` pass answered by the front alone (issue 38 item 5): a
# pass that did nothing leaves .umpire/run-idle; the front (umpire, the C library alone)
# answers the next pass from it without umpire-core, printing what the core would (nothing;
# the waits with --verbose; a pause always), until anything the mark lists changes. Proved
# with a copy of the front alone in a folder with no umpire-core beside it: it answers (exit
# 0) or hands over (exit 69, the core missing). Each invalidation then gets the full pass its
# work done: a mail in new/, the clock past the mark's time (a reminder, the deadline, a
# pause's end, a beacon round's time),
# an umpire command between passes (the mark removed), campaign.yaml edited by hand, other
# arguments, a garbled mark, a mark that is a link (not followed, not written through).
# Real parts: a Maildir, a sendmail program that files what it is handed.
. "$ROOT/tests/e2e/lib.sh"
SRC=$ROOT/campaigns/bewcastle-fray
CORE=$(dirname "$(readlink -f "$BIN")")/umpire-core
[ -x "$CORE" ] || die "no umpire-core beside $BIN"
mkdir -p lone md/new md/cur md/tmp
cp "$(readlink -f "$BIN")" lone/umpire
LONE=$PWD/lone/umpire
CAMP=c MARK=c/.umpire/run-idle

cat > sendmail <<'SH'
#!/bin/sh
# files each message it is handed (sendmail -oi -f FROM -- TO) in sent/
d=$(dirname "$0")/sent; mkdir -p "$d"; n=$(ls "$d" | wc -l)
cat > "$d/$n.eml"
SH
chmod +x sendmail
with_emails "$SRC/scenario.yaml" armstrong=blood@example.org forster=governor@example.org > scenario.yaml
cat >> scenario.yaml <<YAML
schedule:
  first_deadline: 2026-01-03T18:00:00Z
  every: 2d
  remind: 1d
mail:
  from: umpire@example.org
  transport: sendmail
  sendmail: $PWD/sendmail
YAML
expect 0 "$BIN" init c --scenario scenario.yaml --secret-file "$SRC/demo.secret" --entropy none
T0=1767300000       # 2026-01-01T20:40:00Z
REMIND=1767376800   # 2026-01-02T18:00:00Z: a day before the deadline
DEADLINE=1767463200 # 2026-01-03T18:00:00Z
export SOURCE_DATE_EPOCH=$T0

# run PROGRAM CODE [ARGS...]: an umpire run pass of c by PROGRAM, exit CODE wanted.
run() { _p=$1 _c=$2; shift 2; expect "$_c" "$_p" run "$CAMP" --maildir md "$@"; }
# idle PROGRAM [ARGS...]: a pass by PROGRAM that prints nothing.
idle() { _p=$1; shift; run "$_p" 0 "$@"; [ ! -s "$TMP/out" ] && [ ! -s "$TMP/err" ] || { cat "$TMP/out" "$TMP/err"; die "the idle pass printed"; }; }
# handed_over: the front alone had to start the core (exit 69, told).
handed_over() { run "$LONE" 69 "$@"; has "$TMP/err" "umpire-core is missing"; }
until_of() { sed -n 's/^until //p' "$MARK"; }

# The first pass has work (the briefings, sent): no mark. The second does nothing: a mark.
run "$BIN" 0
has "$TMP/out" "mail: the briefings queued for 2 players"
has "$TMP/out" "send: 2 sent"
[ ! -e "$MARK" ] || die "a pass that did something left a mark"
idle "$BIN"
[ -f "$MARK" ] && [ ! -L "$MARK" ] || die "the idle pass left no mark"
[ "$(until_of)" = $REMIND ] || die "the mark holds until $(until_of), not the reminder's time $REMIND"

# The front alone answers, the same as the core: nothing, or with --verbose the waits.
idle "$LONE"
expect 0 "$CORE" run c --maildir md --verbose
cp "$TMP/out" core.out
has core.out "turn 1: waiting for orders"
run "$LONE" 0 --verbose
cmp core.out "$TMP/out" || die "the front's --verbose is not the core's"
expect 69 "$LONE" --version
has "$TMP/err" "the umpire program umpire-core is missing (looked for $PWD/lone/umpire-core"

# The clock: before the mark's time it still answers; at it, the full pass sends reminders.
SOURCE_DATE_EPOCH=$((REMIND - 1)) idle "$LONE"
export SOURCE_DATE_EPOCH=$REMIND
handed_over
run "$BIN" 0
has "$TMP/out" "mail: reminders for turn 1 queued for 2 players"
idle "$BIN"
[ "$(until_of)" = $DEADLINE ] || die "the mark holds until $(until_of), not the deadline $DEADLINE"
idle "$LONE"

# A mail in new/: the full pass takes it.
python3 "$ROOT/tests/e2e/mail/deliver.py" md blood@example.org "$SRC/orders/turn-0001/armstrong.yaml" a1 $REMIND
handed_over
run "$BIN" 0
has "$TMP/out" "inbox: turn 1: 1 accepted"
run "$BIN" 0 # the reply went with the pass above
idle "$BIN"
idle "$LONE"

# The deadline: the turn goes without forster (schedule.missing: no-orders).
export SOURCE_DATE_EPOCH=$DEADLINE
handed_over
run "$BIN" 0
has "$TMP/out" "turn 1: "
idle "$BIN" || true
run "$BIN" 0
idle "$LONE"

# An umpire command between passes removes the mark.
expect 0 "$BIN" players c --set forster governor@example.org warden@example.org
[ ! -e "$MARK" ] || die "umpire players --set left the idle mark"
handed_over
idle "$BIN"
idle "$LONE"

# campaign.yaml edited by hand: the full pass runs (and takes the file as it is now).
echo "# a note of the umpire's" >> c/campaign.yaml
handed_over
idle "$BIN"
idle "$LONE"

# Other arguments, or the same ones spelled otherwise: the full pass.
handed_over --beacon-fetch
expect 69 "$LONE" run c --maildir=md
expect 69 "$LONE" run --maildir md c
expect 69 "$LONE" run c --maildir md --maildir md
idle "$LONE"

# A garbled mark, a truncated one: the full pass. The mark restored: answered again.
cp "$MARK" good.mark
sed 's/^until /until 0/' good.mark > "$MARK"
handed_over
head -n 3 good.mark > "$MARK"
handed_over
printf 'x' > "$MARK"
handed_over
cp good.mark "$MARK"
idle "$LONE"

# A mark that is a link: not followed (the full pass), and the pass replaces the link with
# a file of its own, the file it pointed to untouched.
mv "$MARK" elsewhere.mark
cp elsewhere.mark elsewhere.copy
ln -s "$PWD/elsewhere.mark" "$MARK"
handed_over
idle "$BIN"
[ -f "$MARK" ] && [ ! -L "$MARK" ] || die "the link is still the mark"
cmp elsewhere.mark elsewhere.copy || die "the pass wrote through the link"
idle "$LONE"

# A pause (entropy players: its close commits the override) is said by every pass, the
# front's too, without --verbose; the mark holds until the pause's end.
expect 0 "$BIN" init p --scenario scenario.yaml --secret-file "$SRC/demo.secret" --entropy players
CAMP=p MARK=p/.umpire/run-idle
export SOURCE_DATE_EPOCH=$T0
run "$BIN" 0
idle "$BIN"
expect 0 "$BIN" pause p --until 2026-01-10T00:00:00Z --reason "snow on the fells"
[ ! -e "$MARK" ] || die "umpire pause left the idle mark"
handed_over
run "$BIN" 0
run "$BIN" 0
has "$TMP/out" "turn 1: paused until 2026-01-10T00:00:00Z"
[ -f "$MARK" ] || die "a paused pass left no mark"
run "$LONE" 0
[ "$(cat "$TMP/out")" = "turn 1: paused until 2026-01-10T00:00:00Z" ] || die "the front did not say the pause"
[ "$(until_of)" = 1768003200 ] || die "a paused mark holds until $(until_of), not the pause's end"
SOURCE_DATE_EPOCH=1768003200 handed_over

# A closed turn waiting for its beacon round: the mark holds until the round is out, then the
# full pass takes the round (--beacon-command) and resolves the turn.
BS=$ROOT/campaigns/betio-seawall
export SOURCE_DATE_EPOCH=1767225600
expect 0 "$BIN" init b --scenario "$BS/scenario.yaml" --secret-file "$BS/demo.secret" \
    --entropy beacon --demo-beacon --visibility open
expect 0 "$BIN" close b --allow-missing
has "$TMP/out" "round 201, out at 2026-01-01 00:10:00 UTC"
CAMP=b MARK=b/.umpire/run-idle
CMD="UMPIRE_BLS=$(dirname "$(readlink -f "$BIN")")/umpire-bls $ROOT/tools/demo-beacon"
idle "$BIN" --beacon-command "$CMD"
[ "$(until_of)" = 1767226200 ] || die "the mark holds until $(until_of), not the round's time"
SOURCE_DATE_EPOCH=1767226199 idle "$LONE" --beacon-command "$CMD"
export SOURCE_DATE_EPOCH=1767226200
handed_over --beacon-command "$CMD"
run "$BIN" 0 --beacon-command "$CMD"
has "$TMP/out" "turn 1: "
