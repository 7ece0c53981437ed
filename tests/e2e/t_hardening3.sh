# Hardening, third round (issue 25): an empty journal export, player ids that are paths,
# leftover temporary files after kill -9, echoes of files that are not order files, precise
# messages for a wrong secret, another campaign's journal and a journal of another version,
# and oversize input refused before anything else looks at it.
. "$ROOT/tests/e2e/lib.sh"
V="$ROOT/tools/umpire-verify"
H="$ROOT/campaigns/harbour-raid"

# 1. An empty journal export in a clone (the steps): verify and audit say what is
# wrong (exit 65), neither crashes; tools/umpire-verify alike.
C="$TMP/c"
new_campaign harbour-raid "$C" --entropy none --visibility open
play harbour-raid "$C" 3
git clone -q "$C" "$TMP/empty"
(cd "$TMP/empty" && : >journal/turn-0003.yaml && git commit -qam x && git tag -f turn-0003 >/dev/null)
expect 65 "$BIN" verify "$TMP/empty"
has "$TMP/out" "journal/turn-0003.yaml cannot be read: journal/turn-0003.yaml:1:1: document is empty"
expect 65 "$BIN" audit "$TMP/empty" 3:0
has "$TMP/err" "journal/turn-0003.yaml:1:1: error: document is empty"
expect 65 python3 "$V" "$TMP/empty"

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
echo "hardening3: ok"
