# replay catches tampering: a die value changed in the SQLite journal (after dropping the
# append-only triggers), an event text changed, and a committed order file changed.
. "$ROOT/tests/e2e/lib.sh"
C="$TMP/c"
# open: the order files are committed each turn (the demo itself plays sealed, its rounds tuned
# for the sealed game: turn 4's orders do not fit the open one's dice, so three turns)
new_campaign harbour-raid "$C" --visibility open; play harbour-raid "$C" 3
expect 0 "$BIN" replay "$C"; has "$TMP/out" "replay: 3 turns identical"

# The journal refuses edits while its triggers stand.
set +e; sqlite3 "$C/.umpire/journal.sqlite" "UPDATE dice SET value = 1 WHERE turn = 2 AND idx = 0" 2>"$TMP/sqlerr"; r=$?; set -e
[ $r -ne 0 ] || die "the journal accepted an UPDATE"
has "$TMP/sqlerr" "append-only"
set +e; sqlite3 "$C/.umpire/journal.sqlite" "INSERT OR REPLACE INTO dice(turn, idx, sides, value, purpose) SELECT turn, idx, sides, value, purpose FROM dice WHERE turn = 2 AND idx = 0" 2>"$TMP/sqlerr"; r=$?; set -e
[ $r -ne 0 ] || die "the journal accepted INSERT OR REPLACE"

cp -a "$C" "$TMP/d"
triggers=$(sqlite3 "$TMP/d/.umpire/journal.sqlite" "SELECT name FROM sqlite_master WHERE type = 'trigger'")
for t in $triggers; do sqlite3 "$TMP/d/.umpire/journal.sqlite" "DROP TRIGGER $t"; done
sqlite3 "$TMP/d/.umpire/journal.sqlite" "UPDATE dice SET value = value % sides + 1 WHERE turn = 2 AND idx = 1"
expect 65 "$BIN" replay "$TMP/d"; has "$TMP/err" "turn 2: die 1 differs"

cp -a "$C" "$TMP/e"
for t in $triggers; do sqlite3 "$TMP/e/.umpire/journal.sqlite" "DROP TRIGGER $t"; done
sqlite3 "$TMP/e/.umpire/journal.sqlite" "UPDATE events SET text = 'nothing happened' WHERE turn = 3 AND seq = 0"
expect 65 "$BIN" replay "$TMP/e"; has "$TMP/err" "turn 3: event differs"

cp -a "$C" "$TMP/f"
of=$(cd "$TMP/f" && ls orders/turn-0003/*.yaml | grep -v umpire | head -n 1)
(cd "$TMP/f" && printf '# edited later\n' >> "$of" && git commit -qam "edit" && git tag -f turn-0003 >/dev/null)
expect 65 "$BIN" replay "$TMP/f"; has "$TMP/err" "turn 3: order file $of differs from the journal's copy"

# On a clone there is no journal: the journal exports committed at each tag are the record.
git clone -q "$C" "$TMP/g"
[ ! -e "$TMP/g/.umpire/journal.sqlite" ] || die "a clone holds the journal"
expect 0 "$BIN" replay "$TMP/g"; has "$TMP/out" "replay: 3 turns identical"
# A die of turn 2 changed in its export (and the tag moved onto the edit) is caught.
(cd "$TMP/g" && git checkout -q turn-0002 && awk '/^- index: 1$/ { hit = 1 } hit && /^  value: / { sub(/value: [0-9]+/, "value: 99"); hit = 0 } { print }' journal/turn-0002.yaml > x && mv x journal/turn-0002.yaml && git commit -qam "edit" && git tag -f turn-0002 >/dev/null)
expect 65 "$BIN" replay "$TMP/g"; has "$TMP/err" "replay: turn 2:"
