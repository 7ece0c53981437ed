# Hardening, third round (issue 25): an empty journal export, player ids that are paths,
# leftover temporary files after kill -9, echoes of files that are not order files, precise
# messages for a wrong secret, another campaign's journal and a journal of another version,
# and oversize input refused before anything else looks at it.
. "$ROOT/tests/e2e/lib.sh"
V="$JSV"
H="$ROOT/campaigns/harbour-raid"

# 1. An empty journal export in a clone (the issue's steps): verify and audit say what is
# wrong (exit 65), neither crashes; tools/umpire-verify.mjs alike.
C="$TMP/c"
new_campaign harbour-raid "$C" --entropy none --visibility open
play harbour-raid "$C" 3
git clone -q "$C" "$TMP/empty"
(cd "$TMP/empty" && : >journal/turn-0003.yaml && git commit -qam x && git tag -f turn-0003 >/dev/null)
expect 65 "$BIN" verify "$TMP/empty"
has "$TMP/out" "journal/turn-0003.yaml cannot be read: journal/turn-0003.yaml:1:1: document is empty"
expect 65 "$BIN" audit "$TMP/empty" 3:0
has "$TMP/err" "journal/turn-0003.yaml:1:1: error: document is empty"
expect 65 node "$V" "$TMP/empty"
has "$TMP/out" "verify: FAILED: turn 3: journal/turn-0003.yaml:1:1: document is empty"

# 6. Player ids that are paths: refused by one pattern (docs/formats.md, Player ids) in the
# scenario, in an order file and by `players --set`.
for id in '..' '.' '.git' '-x'; do
    sed "s/^  - id: defender\$/  - id: \"$id\"/" "$H/scenario.yaml" >"$TMP/ids.yaml"
    expect 65 "$BIN" init "$TMP/ids" --scenario "$TMP/ids.yaml" --entropy none --visibility open
    has "$TMP/err" "ids.yaml:15:9: error: player id is the quoted string '$id' (a player id: 1 to 64 letters, digits, '_', '.' or '-', starting with a letter or a digit expected)"
    [ ! -e "$TMP/ids" ] || die "init made a campaign with player '$id'"
    expect 64 "$BIN" players "$C" --set "$id" x@example.org
    has "$TMP/err" "umpire players: '$id' is not a player id"
done
printf 'campaign: harbour-raid\nturn: 4\nplayer: .git\norders: []\n' >"$TMP/dotgit.yaml"
expect 65 "$BIN" check "$C" "$TMP/dotgit.yaml"
has "$TMP/err" "dotgit.yaml:3:9: error: player is '.git' (a player id: 1 to 64 letters"

# 8. Temporary files of durable writes that a kill -9 left (.NAME.XXXXXX) under
# .umpire/closed/, sealed/ and outbox/ are removed by the next run that takes the writer
# lock, as stale git locks are; other files stay.
K="$TMP/kill"
"$BIN" init "$K" --scenario "$H/scenario.yaml" --secret-file "$H/demo.secret" --entropy beacon --beacon unsigned-test-beacon --beacon-genesis 1692803367 --beacon-period 3 \
    --visibility sealed >/dev/null
SOURCE_DATE_EPOCH=1767229200 "$BIN" close "$K" "$H/orders/turn-0001/attacker.yaml" >/dev/null
for d in closed/turn-0001 sealed/turn-0001/orders outbox/attacker/turn-0001 outbox/new; do
    mkdir -p "$K/.umpire/$d"
    printf 'half' >"$K/.umpire/$d/.attacker.yaml.Ab12Cd"
    printf 'keep' >"$K/.umpire/$d/.keep"
    touch -d '2026-01-01 00:00:00' "$K/.umpire/$d/.attacker.yaml.Ab12Cd"
done
expect 0 "$BIN" status "$K"
[ -n "$(find "$K/.umpire" -name '.attacker.yaml.*')" ] || die "a reader removed temporary files"
SOURCE_DATE_EPOCH=1767229900 expect 0 "$BIN" turn "$K" --beacon "demo value 1"
left=$(find "$K/.umpire" -name '.*.??????' -type f)
[ -z "$left" ] || die "temporary files left after the next run: $left"
[ "$(find "$K/.umpire" -name .keep | wc -l)" -eq 4 ] || die "a file that is no temporary file was removed"

# 10. Precise messages: a wrong secret (in a sealed campaign with a closed turn, where the
# salts come from it first), another campaign's journal, a journal of another version.
S="$TMP/sealed"
"$BIN" init "$S" --scenario "$H/scenario.yaml" --secret-file "$H/demo.secret" --entropy beacon --beacon unsigned-test-beacon --beacon-genesis 1692803367 --beacon-period 3 \
    --visibility sealed >/dev/null
cp "$H/orders/turn-0001/attacker.yaml" "$TMP/attacker-1.yaml"
SOURCE_DATE_EPOCH=1767229200 expect 0 "$BIN" close "$S" "$TMP/attacker-1.yaml"
export SOURCE_DATE_EPOCH=1767229900
# another campaign, with a secret of its own
"$BIN" init "$TMP/other" --scenario "$H/scenario.yaml" --entropy none --visibility open >/dev/null
cp "$S/.umpire/secret" "$TMP/secret.bak"
cp "$TMP/other/.umpire/secret" "$S/.umpire/secret"
before=$(fingerprint "$S")
expect 65 "$BIN" turn "$S" --beacon "demo value 1"
has "$TMP/err" "/.umpire/secret' is not this campaign's secret: it does not lead to the commitment in campaign.yaml"
grep -q "cannot change" "$TMP/err" && die "a wrong secret was told as changed inputs"
cp "$TMP/secret.bak" "$S/.umpire/secret"
cp "$S/.umpire/journal.sqlite" "$TMP/journal.bak"
cp "$TMP/other/.umpire/journal.sqlite" "$S/.umpire/journal.sqlite"
expect 65 "$BIN" turn "$S" --beacon "demo value 1"
has "$TMP/err" "the journal (.umpire/journal.sqlite) is another campaign's: its Setup is commit $(git -C "$TMP/other" rev-parse turn-0000), this campaign's (tag turn-0000) is $(git -C "$S" rev-parse turn-0000)"
expect 65 "$BIN" verify "$S"
has "$TMP/err" "is another campaign's"
cp "$TMP/journal.bak" "$S/.umpire/journal.sqlite"
sqlite3 "$S/.umpire/journal.sqlite" "PRAGMA user_version = 99"
for cmd in turn status verify; do
    expect 65 "$BIN" $cmd "$S"
    has "$TMP/err" "its user_version is 99; this umpire reads journals of user_version 0 and schema_version 2 or older only"
done
sqlite3 "$S/.umpire/journal.sqlite" "PRAGMA user_version = 0"
[ "$(fingerprint "$S")" = "$before" ] || die "a refused run changed the campaign"
expect 0 "$BIN" turn "$S" --beacon "demo value 1"

# 11. Oversize input is bad input (exit 65) before anything else looks at it: a 12 MB order
# file for turn 3 of a beacon campaign after turn 2 was "already processed"; every command
# that takes files refuses it alike, and nothing is written.
Bc="$TMP/beacon"
"$BIN" init "$Bc" --scenario "$H/scenario.yaml" --secret-file "$H/demo.secret" --entropy beacon --demo-beacon \
    --visibility open >/dev/null
play harbour-raid "$Bc" 2
{ printf 'campaign: harbour-raid\nturn: 3\nplayer: attacker\norders: []\n# '
  head -c 12000000 /dev/zero | tr '\0' x; echo; } >"$TMP/huge.yaml"
before=$(fingerprint "$Bc")
for cmd in turn close check; do
    expect 65 "$BIN" $cmd "$Bc" "$TMP/huge.yaml"
    has "$TMP/err" "huge.yaml:1:1: error: order file is larger than 1048576 bytes (a smaller file expected)"
    grep -q "already processed" "$TMP/out" && die "$cmd: an oversize file was 'already processed'"
done
expect 65 "$BIN" turn "$Bc" --rulings "$TMP/huge.yaml"
has "$TMP/err" "huge.yaml:1:1: error: order file is larger than 1048576 bytes"
expect 65 "$BIN" reveal "$Bc" "$TMP/huge.yaml"
has "$TMP/err" "huge.yaml:1:1: error: reveal file is larger than 4096 bytes (a smaller file expected)"
expect 65 "$BIN" verify "$Bc" --receipt "$TMP/huge.yaml"
has "$TMP/err" "huge.yaml:1:1: error: receipt file is larger than 65536 bytes (a smaller file expected)"
expect 65 "$BIN" init "$TMP/hugeinit" --scenario "$TMP/huge.yaml"
[ "$(fingerprint "$Bc")" = "$before" ] || die "an oversize file changed the campaign"

# 3. The next close refuses a journal edited under the history (a die of the last turn
# changed with the append-only triggers dropped), as the next turn does (t_sealed_tamper).
cp -a "$Bc" "$TMP/edited"
sqlite3 "$TMP/edited/.umpire/journal.sqlite" "DROP TRIGGER dice_no_update;
    UPDATE dice SET value = value % sides + 1 WHERE turn = 2 AND idx = 0"
printf 'campaign: harbour-raid\nturn: 3\nplayer: attacker\norders: []\n' >"$TMP/t3.yaml"
before=$(fingerprint "$TMP/edited")
SOURCE_DATE_EPOCH=1767400000 expect 65 "$BIN" close "$TMP/edited" "$TMP/t3.yaml"
has "$TMP/err" "umpire: the journal no longer matches git (restore .umpire/journal.sqlite from a backup, or run 'umpire verify' to see more): turn 2: die 0: the journal has d6 = "
[ "$(fingerprint "$TMP/edited")" = "$before" ] || die "a close went ahead on an edited journal"
echo "hardening3: ok"
