# t_mail_cycle.sh — the Land Raid example (harbour-raid) played from first mail to final
# report by mail and `umpire run` alone, as the demo plays it (demo.init: sealed): each turn the
# due player mails his shipped order file; `umpire run` (as cron would, at the demo's clock)
# takes it and, once every due player has sent, resolves the turn (entropy none) or closes it
# and mails the receipt, and an hour later asks the beacon command for the round the close
# named (the demo's value) and resolves it (entropy beacon); it mails the reports, publishes
# to a bare remote a clone verifies, and sends everything to a real SMTP server on 127.0.0.1.
# The dice, keys, digests, beacons and seeds end identical to the demo's (tools/demo-play);
# campaign.yaml is the demo's plus the schedule, publish and mail blocks the scenario adds (the
# players' addresses stay in the umpire's .umpire/addresses.yaml): the commits differ by them.
. "$ROOT/tests/e2e/lib.sh"
SRC=$ROOT/campaigns/harbour-raid
PY=/usr/bin/python3
$PY -c 'import aiosmtpd' 2>/dev/null || die "python3-aiosmtpd missing (make deps)"

with_emails "$SRC/scenario.yaml" attacker=blood@example.org defender=governor@example.org > scenario.yaml
cat >> scenario.yaml <<'YAML'
schedule:
  first_deadline: 2026-01-02T12:00:00Z
  every: 1d
  remind: 1d
publish:
  remote: remote.git
  auto: true
mail:
  from: umpire@example.org
  tls: none
YAML
# shellcheck disable=SC2046
"$BIN" init c --scenario scenario.yaml --secret-file "$SRC/demo.secret" --visibility open \
    $(cat "$SRC/demo.init" 2>/dev/null || true) >/dev/null
# Played as the demo plays it (demo.init): with entropy beacon each turn is closed when the
# demo closes it, so that the close names the demo's round (orders/turn-NNNN/round.txt: the
# close is beacon_delay before it), then resolved with that round's value and signature from
# the demo beacon (tools/demo-beacon) once it is out; with entropy none each turn in one step.
beacon=0
grep -q '^  entropy: beacon$' c/campaign.yaml && beacon=1
grep -q '^  beacon_demo: true$' c/campaign.yaml || [ $beacon -eq 0 ] || die "harbour-raid's demo is not on the demo beacon"
genesis=$(sed -n 's/^  beacon_genesis: //p' c/campaign.yaml)
period=$(sed -n 's/^  beacon_period: //p' c/campaign.yaml)
delay=$(sed -n 's/^  beacon_delay: //p' c/campaign.yaml)
last=$(ls -d "$SRC"/orders/turn-* | wc -l)
[ $beacon -eq 0 ] ||
    last=$(ls "$SRC"/orders/turn-*/round.txt | sed 's|.*/turn-0*\([0-9]*\)/round.txt|\1|' | sort -n | tail -1)
# the demo beacon's rounds, as `umpire run --beacon-command` asks for them (CMD ROUND)
bls=$(dirname "$(readlink -f "$BIN")")/umpire-bls
printf '#!/bin/sh\nUMPIRE_BLS="%s" exec "%s/tools/demo-beacon" "$1"\n' "$bls" "$ROOT" > beacon.sh
new_campaign harbour-raid "$TMP/demo"
play harbour-raid "$TMP/demo" "$last"

$PY "$ROOT/tests/e2e/mail/smtp-server.py" smtp & server=$!
trap 'kill $server 2>/dev/null || true' EXIT
i=0; while [ ! -f smtp/port ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
[ -f smtp/port ] || die "the SMTP server did not start"
export UMPIRE_SMTP_URL="smtp://127.0.0.1:$(cat smtp/port)"

mkdir -p md/new md/cur md/tmp
base=1767225600
turns=0
for tdir in "$SRC"/orders/turn-*; do
    n=$(basename "$tdir" | sed 's/^turn-0*//')
    [ "$n" -le "$last" ] || break
    at=$((base + n * 86400))
    # with closes: when the demo closes the turn (tools/demo-play)
    [ $beacon -eq 0 ] || at=$((genesis + ($(cat "$tdir/round.txt") - 1) * period - delay))
    # Early in the day nothing has come: run waits, and the reminder goes out once.
    SOURCE_DATE_EPOCH=$((at - 7200)) expect 0 "$BIN" run c --maildir md --verbose
    has "$TMP/out" "turn $n: waiting for orders"
    for f in "$tdir"/*.yaml; do
        p=$(basename "$f" .yaml)
        addr=$([ "$p" = attacker ] && echo blood@example.org || echo governor@example.org)
        $PY "$ROOT/tests/e2e/mail/deliver.py" md "$addr" "$f" "t$n-$p" $((at - 3600))
    done
    SOURCE_DATE_EPOCH=$at expect 0 "$BIN" run c --maildir md --beacon-command "sh $TMP/beacon.sh"
    has "$TMP/out" "inbox: turn $n: 1 accepted, 0 refused"
    tags=$((n + 1))
    if [ $beacon -eq 1 ]; then
        has "$TMP/out" "turn $n: closed with 1 order file"
        has "$TMP/out" "mail: the receipts of turn $n queued for 2 players"
        SOURCE_DATE_EPOCH=$at expect 0 "$BIN" status c --json
        has "$TMP/out" '"turn": '"$n"','
        has "$TMP/out" '"phase": "closed",'
        has "$TMP/out" '"missing": [],'
        SOURCE_DATE_EPOCH=$((at + 3600)) expect 0 "$BIN" run c --maildir md --beacon-command "sh $TMP/beacon.sh"
        tags=$((2 * n + 1))
    fi
    has "$TMP/out" "mail: the reports of turn $n queued for 2 players"
    has "$TMP/out" "publish: main and $tags tags to remote.git"
    SOURCE_DATE_EPOCH=$((at + 3600)) expect 0 "$BIN" status c --json
    has "$TMP/out" '"turn": '"$((n + 1))"','
    has "$TMP/out" '"closed": false,'
    SOURCE_DATE_EPOCH=$((at + 3600)) expect 0 "$BIN" status c
    has "$TMP/out" "outbox: 0 messages waiting"
    turns=$n
    # Running again at once changes nothing and sends nothing (checked on the first turns).
    [ "$n" -le 2 ] || continue
    head=$(git -C c rev-parse HEAD)
    SOURCE_DATE_EPOCH=$((at + 3600)) expect 0 "$BIN" run c --maildir md --beacon-command "sh $TMP/beacon.sh"
    [ "$(git -C c rev-parse HEAD)" = "$head" ] || die "a second run moved main"
    grep -q "^send:" "$TMP/out" && die "a second run sent mail"
    # cron's pass with nothing to do is silent (cron mails any output to the umpire)
    [ ! -s "$TMP/out" ] && [ ! -s "$TMP/err" ] || { cat "$TMP/out" "$TMP/err"; die "an idle run printed"; }
done
# Nobody has sent turn N+1's orders: a later run waits and changes nothing.
head=$(git -C c rev-parse HEAD)
SOURCE_DATE_EPOCH=$((base + (turns + 1) * 86400 - 7200)) expect 0 "$BIN" run c --maildir md --verbose
grep -q "turn $((turns + 1)): \(waiting for orders\|the game is over\)" "$TMP/out" || die "turn $((turns + 1))"
[ "$(git -C c rev-parse HEAD)" = "$head" ] || die "a run without orders moved main"

# campaign.yaml: the demo's, then the scenario's schedule, publish and mail blocks; no address.
n=$(wc -l < demo/campaign.yaml)
head -n "$n" c/campaign.yaml | cmp -s - demo/campaign.yaml ||
    { diff demo/campaign.yaml c/campaign.yaml | head; die "campaign.yaml is not the demo's"; }
[ "$(sed -n "$((n + 1)),\$p" c/campaign.yaml | grep -v '^  ' | tr '\n' ' ')" = "schedule: publish: mail: " ] ||
    die "campaign.yaml adds more than schedule, publish and mail"

# Same dice, keys, digests and seeds as the demo; same states and players' files.
"$BIN" log demo > demo.log
"$BIN" log c > mail.log
cmp demo.log mail.log || { diff demo.log mail.log | head; die "the mail-driven game differs from the demo"; }
for t in $(git -C demo tag -l 'turn-*' | grep -v '^turn-0000$'); do
    [ "$(git -C demo rev-parse "$t:state.yaml")" = "$(git -C c rev-parse "$t:state.yaml")" ] ||
        die "$t: state.yaml differs"
done
# Every committed file but campaign.yaml (those blocks) and, with closes, the reports (they
# name the close commit) and the exports, whose sealed `views` commit to those reports; and
# each player's private files (sealed: .umpire/outbox/PLAYER).
skip='campaign.yaml'
[ $beacon -eq 0 ] || skip='campaign.yaml\|reports/\|journal/turn-[0-9]*\.yaml'
git -C demo ls-tree -r HEAD | grep -v "	\($skip\)" > demo.tree
git -C c ls-tree -r HEAD | grep -v "	\($skip\)" > mail.tree
cmp demo.tree mail.tree || { diff demo.tree mail.tree | head; die "the committed files differ"; }
# The exports: identical but for the `views` block (the reports' and views' salted hashes)
# and the public report's hash (that report names the close commit too).
for e in demo/journal/turn-*.yaml; do
    for d in demo c; do
        awk '/^views:/ { v = 1; next } v && /^[^- ]/ { v = 0 } /^public_report_sha256: / { next } !v' \
            "$d/${e#demo/}" > "$d.export"
    done
    cmp -s demo.export c.export || { diff demo.export c.export | head; die "${e#demo/} differs"; }
done
# With closes a player's report names the close commit too: compared without that commit id.
for p in attacker defender; do
    [ -d "demo/.umpire/outbox/$p" ] || continue
    # (his salt.yaml holds his report's salted hash, which names that commit too)
    diff -r -x report.md -I '^  report_sha256: ' "demo/.umpire/outbox/$p" "c/.umpire/outbox/$p" >/dev/null ||
        die "$p's outbox differs"
    for r in "demo/.umpire/outbox/$p"/turn-*/report.md; do
        for d in demo c; do
            # ... and without "no schedule" among the reasons it is not provably fair: the
            # demo has no schedule, this game has one
            sed -e 's/^Closed in commit `[0-9a-f]*`/Closed in commit `C`/' \
                -e 's/; no schedule (the umpire chooses when to close, so he can close again)\././' \
                "$d/${r#demo/}" > "$d.report"
        done
        cmp -s demo.report c.report || { diff demo.report c.report | head; die "${r#demo/} differs"; }
    done
done

# What reached the SMTP server, message by message: each player's briefing once, then per
# turn one acceptance and one reminder to the due player, then both players' reports.
$PY - smtp "$turns" "$beacon" <<'PY'
import email, email.policy, glob, sys
beacon = int(sys.argv[3])
msgs = []
for path in sorted(glob.glob(sys.argv[1] + "/*.eml")):
    m = email.message_from_binary_file(open(path, "rb"), policy=email.policy.default)
    rcpt = open(path[:-4] + ".env").read().split("\n")[1]
    msgs.append((rcpt, m["Subject"]))
turns = int(sys.argv[2])
subjects = [s for _, s in msgs]
for n in range(1, turns + 1):
    assert any(s == "[harbour-raid] turn %d: orders accepted" % n for s in subjects), n
    assert sum(s == "[harbour-raid] turn %d: your orders are missing" % n for s in subjects) == 1, n
    reports = [r for r, s in msgs if s == "[harbour-raid] turn %d: your report" % n]
    for path in glob.glob(sys.argv[1] + "/*.eml"):
        m = email.message_from_binary_file(open(path, "rb"), policy=email.policy.default)
        if m["Subject"] == "[harbour-raid] turn %d: your report" % n:
            names = [a.get_filename() for a in m.iter_attachments()]
            assert names[:3] == ["report-%04d.md" % n, "view-%04d.yaml" % n, "salt-%04d.yaml" % n], names
    assert sorted(reports) == ["blood@example.org", "governor@example.org"], (n, reports)
    receipts = sum(s == "[harbour-raid] turn %d closed: your receipt" % n for s in subjects)
    assert receipts == 2 * beacon, (n, receipts)   # every player, due or not (issue 34)
    # The acceptance before the receipt of the close the same pass made (issue 33).
    if beacon:
        acc = subjects.index("[harbour-raid] turn %d: orders accepted" % n)
        rec = subjects.index("[harbour-raid] turn %d closed: your receipt" % n)
        assert acc < rec, (n, subjects)
for path in sorted(glob.glob(sys.argv[1] + "/*.eml")):
    m = email.message_from_binary_file(open(path, "rb"), policy=email.policy.default)
    if m["Subject"].endswith(": orders accepted"):
        assert "next pass" not in m.get_body(("plain",)).get_content(), path
later = [s for s in subjects if s.startswith("[harbour-raid] turn %d:" % (turns + 1))]
assert later in ([], ["[harbour-raid] turn %d: your orders are missing" % (turns + 1)]), later
briefings = sorted(r for r, s in msgs if s == "[harbour-raid] your briefing: the table before turn 1")
assert briefings == ["blood@example.org", "governor@example.org"], briefings
assert len(msgs) == (4 + 2 * beacon) * turns + len(later) + 2, len(msgs)
PY

# The players' remote: a clone verifies the whole game.
git clone -q remote.git clone
expect 3 "$BIN" verify clone
# The independent verifier reads a campaign.yaml with addresses, schedule and mail settings.
expect 3 node "$JSV" clone
[ "$(git -C clone rev-parse HEAD)" = "$(git -C c rev-parse HEAD)" ] || die "the remote's main"

# Sealed: the attacker saves his report mails' attachments of turns 1 and 2 side by side in
# one folder (they are named per turn); both verifiers check both turns from it, and fail on
# one edited file among them.
for f in smtp/*.eml; do
    $PY - "$f" view <<'PY'
import email, email.policy, os, sys
m = email.message_from_binary_file(open(sys.argv[1], "rb"), policy=email.policy.default)
if m["To"] == "blood@example.org" and m["Subject"] in (
        "[harbour-raid] turn 1: your report", "[harbour-raid] turn 2: your report"):
    os.makedirs(sys.argv[2], exist_ok=True)
    for a in m.iter_attachments():
        assert not os.path.exists(sys.argv[2] + "/" + a.get_filename()), a.get_filename()
        open(sys.argv[2] + "/" + a.get_filename(), "wb").write(a.get_payload(decode=True))
PY
done
for n in 1 2; do
    for f in report view salt; do
        [ -f view/$f-000$n.* ] || die "turn $n's $f attachment not saved"
    done
done
for v in "$BIN verify" "node $JSV"; do
    expect 3 $v clone --view view
    has "$TMP/out" "view view: ok: attacker's orders for turn 1 are the ones committed"
    has "$TMP/out" "view view: ok: attacker's orders for turn 2 are the ones committed"
done
cp -r view view-bad
printf 'You won.\n' >> view-bad/report-0002.md
for v in "$BIN verify" "node $JSV"; do
    expect 65 $v clone --view view-bad
    has "$TMP/out" "view view-bad: ok: attacker's orders for turn 1 are the ones committed"
    grep -q "view-bad/report-0002.md does not open the commitment journal/turn-0002.yaml holds for attacker's report of turn 2" "$TMP/out" "$TMP/err" ||
        die "$v: the edited report of turn 2 passed"
done

# The players' addresses are published nowhere: no object of the clone (every loose and packed
# one, whatever ref reaches it) nor of the umpire's own repository holds one; the umpire's
# private .umpire/addresses.yaml (0600) does.
for r in clone c; do
    git -C $r cat-file --batch-all-objects --batch > objects.$r
    [ -s objects.$r ] || die "$r: no objects read"
    if grep -a -i 'blood@example\.org\|governor@example\.org' objects.$r > found.$r; then
        head -3 found.$r >&2; die "$r: a committed object holds a player's address"
    fi
done
grep -q '^  attacker: blood@example.org$' c/.umpire/addresses.yaml ||
    die "the umpire's .umpire/addresses.yaml lacks the attacker's address"
grep -q '^  defender: governor@example.org$' c/.umpire/addresses.yaml ||
    die "the umpire's .umpire/addresses.yaml lacks the defender's address"
[ "$(stat -c %a c/.umpire/addresses.yaml)" = 600 ] || die "addresses.yaml is not 0600"
git -C c ls-files --error-unmatch .umpire/addresses.yaml 2>/dev/null && die "addresses.yaml is tracked"
true
