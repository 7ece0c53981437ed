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
echo "hardening3: ok"
