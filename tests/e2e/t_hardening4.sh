# t_hardening4.sh — issue 32 ("Hardening, fourth round"), the items without a test file of
# their own. Item 6: `umpire audit` escapes the control characters of an umpire ruling's text
# (a terminal title, a screen clear, colours) in its "events of phase" list and its "for"
# line, as everything else it prints.
. "$ROOT/tests/e2e/lib.sh"

# --- Item 6: a ruling whose text holds ESC sequences.
U=u
new_campaign harbour-raid "$U" --entropy none --visibility open
printf '%s\n' 'campaign: harbour-raid' 'turn: 1' 'player: umpire' 'orders:' '  - roll: 2d6' \
    '    for: "storm \e]0;owned\a\e[2J\e[31mred"' > u1.yaml
expect 0 "$BIN" turn "$U" --allow-missing --rulings u1.yaml
expect 0 "$BIN" audit "$U" 1:0
if LC_ALL=C grep -q "$(printf '\033')" "$TMP/out"; then die "audit printed a raw ESC"; fi
if LC_ALL=C grep -q "$(printf '\007')" "$TMP/out"; then die "audit printed a raw BEL"; fi
has "$TMP/out" 'for      "umpire ruling 1: storm  ]0;owned  [2J [31mred (2d6) [1/2]"'
grep -qF '[umpire] storm \x1b]0;owned\x07\x1b[2J\x1b[31mred: 2d6 = ' "$TMP/out" ||
    die "the ruling's event is not escaped in the events of phase list"

# --- Item 5: journal damage is seen before anything is written, and by verify. A sealed
# campaign (its order files are in git only as salted hashes) after turn 1, then three kinds
# of damage, each on a fresh copy: bytes overwritten in the journal's stored copy of an order
# file, a files row changed, a page of the SQLite file overwritten. close and turn refuse
# (exit 65, the damage named, nothing written); verify refuses the first two.
new_campaign harbour-raid h
play harbour-raid "$PWD/h" 1
HR=$ROOT/campaigns/harbour-raid
T2=$HR/orders/turn-0002
# state DIR: HEAD, tags, work tree and the journal's bytes (fingerprint counts rows with
# sqlite3, which a damaged file may not allow).
state() {
    printf '%s\n' "$(git -C "$1" rev-parse HEAD)" "$(git -C "$1" tag | tr '\n' ' ')" \
        "$(git -C "$1" status --porcelain | tr '\n' ' ')"
    sha256sum < "$1/.umpire/journal.sqlite"
}
damaged() { # DIR MESSAGE: close and turn refuse with MESSAGE, and write nothing
    _before=$(state "$1")
    expect 65 env SOURCE_DATE_EPOCH=$((1767225600 + 2 * 86400)) "$BIN" close "$1" "$T2/defender.yaml"
    has "$TMP/err" "$2"
    expect 65 env SOURCE_DATE_EPOCH=$((1767225600 + 2 * 86400)) "$BIN" turn "$1" --beacon 68397e944df9d2230afa327b7a9b2b1a92e3cd7eaa3bc7d107705df5622570ef
    has "$TMP/err" "$2"
    [ "$(state "$1")" = "$_before" ] || die "a refused command wrote to $1"
}
cp -a h h-orders
journal_sql h-orders "UPDATE orders SET bytes = CAST(replace(CAST(bytes AS TEXT), 'orders:', 'orders:#') AS BLOB) WHERE turn = 1 AND player = 'attacker'"
expect 65 "$BIN" verify h-orders
has "$TMP/out" "verify: FAILED: turn 1: the journal's stored copy of attacker's order file is damaged: its bytes hash to"
damaged h-orders "turn 1: the journal's stored copy of attacker's order file is damaged"
# The turn noted its rows as checked (.umpire/sound, issue 38): a changed row is still seen.
[ -s h/.umpire/sound ] || die "turn 1 left no .umpire/sound: the check below would not test it"
cp -a h h-files
journal_sql h-files "UPDATE files SET sha256 = '$(git -C h show turn-0001:state.yaml | sed 's/turn: 1/turn: 7/' | sha256sum | cut -c1-64)' WHERE turn = 1 AND path = 'state.yaml'"
expect 65 "$BIN" verify h-files
has "$TMP/out" "verify: FAILED: turn 1: the journal's files row state.yaml differs from the blob committed"
damaged h-files "turn 1: the journal's files row state.yaml is damaged: it differs from the blob its commit"
# A page of the SQLite file overwritten (the root page of an index on the dice), in place
# after a command that found the journal sound noted it so (.umpire/checked, issue 38: the
# next command skips quick_check while the file is as that command left it): the write is
# still seen.
cp -a h h-page
mkdir -p "$TMP/md0/new" "$TMP/md0/cur" "$TMP/md0/tmp"
expect 0 "$BIN" inbox h-page --maildir "$TMP/md0"
[ -s h-page/.umpire/checked ] || die "inbox left no .umpire/checked: the check below would not test it"
J=h-page/.umpire/journal.sqlite
page=$(sqlite3 "$J" "SELECT rootpage FROM sqlite_master WHERE type = 'index' AND tbl_name = 'dice' LIMIT 1")
[ "$(sqlite3 "$J" "PRAGMA page_size")" -eq 4096 ] && [ "$page" -gt 1 ] || die "no index page of the dice table"
head -c 4096 /dev/zero | tr '\0' '\377' | dd of="$J" bs=4096 seek=$((page - 1)) conv=notrunc 2>/dev/null
damaged h-page "the journal (.umpire/journal.sqlite) is damaged: SQLite's quick_check says:"
# The mark is a cache, written without fsync (file_write_atomic): one a crash cut short is
# not the stamp, so the check runs. The damaged file's own stamp, as journal_stamp writes it
# (idle_stat_text's numbers), skips quick_check (the damage is met later, reading the turn):
# which shows the case after it tests the cut.
stamp() { # DIR: .umpire/checked for the journal as it is now, as journal_stamp writes it
    printf 'journal.sqlite %s\njournal.sqlite-wal 0 0 %s 0 0\n' \
        "$(stat -c '%d %i %s %.9Y %.9Z' "$1/.umpire/journal.sqlite" | tr -d .)" \
        "$(stat -c %s "$1/.umpire/journal.sqlite-wal" 2>/dev/null || echo 0)"
}
for cut in whole torn; do
    cp -a h "h-$cut"
    expect 0 "$BIN" inbox "h-$cut" --maildir "$TMP/md0"
    head -c 4096 /dev/zero | tr '\0' '\377' |
        dd of="h-$cut/.umpire/journal.sqlite" bs=4096 seek=$((page - 1)) conv=notrunc 2>/dev/null
    stamp "h-$cut" >"h-$cut/.umpire/checked"
done
expect 74 "$BIN" inbox h-whole --maildir "$TMP/md0"
has "$TMP/err" "journal: cannot read turn 1: database disk image is malformed"
if grep -q "quick_check" "$TMP/err"; then die "the whole stamp did not skip quick_check"; fi
stamp h-torn | head -c -1 >h-torn/.umpire/checked.new # no final newline
mv h-torn/.umpire/checked.new h-torn/.umpire/checked
damaged h-torn "the journal (.umpire/journal.sqlite) is damaged: SQLite's quick_check says:"
# umpire run (issue 38): an idle pass (no mail, nothing to close) writes nothing and leaves
# the check, which reads the whole file, for later; a mail waiting makes it refuse the same.
mkdir -p "$TMP/md/new" "$TMP/md/cur" "$TMP/md/tmp"
_before=$(state h-page)
expect 0 env SOURCE_DATE_EPOCH=$((1767225600 + 2 * 86400)) "$BIN" run h-page --maildir "$TMP/md"
[ "$(state h-page)" = "$_before" ] || die "an idle run pass wrote to h-page"
printf 'From: someone@example.org\nSubject: orders\n\nhello\n' >"$TMP/md/new/1.mail"
expect 65 env SOURCE_DATE_EPOCH=$((1767225600 + 2 * 86400)) "$BIN" run h-page --maildir "$TMP/md"
has "$TMP/err" "SQLite's quick_check says:"
[ "$(state h-page)" = "$_before" ] || die "a refused run pass wrote to h-page"
[ -f "$TMP/md/new/1.mail" ] || die "the mail left new/"
expect 3 "$BIN" verify h
echo "ESC escaped in audit; journal damage refused by verify, close and turn"
