# No symbolic link is followed inside a campaign (.umpire/ and the work tree) or a Maildir
# (issue 25, item 2): each link is refused by name (exit 65), nothing is read through it,
# nothing is written or moved through it, and once it is gone the same run goes ahead.
. "$ROOT/tests/e2e/lib.sh"
SRC=$ROOT/campaigns/bewcastle-fray
H=$ROOT/campaigns/harbour-raid
PY=/usr/bin/python3
link_refused() { has "$TMP/err" "$1' is a symbolic link: umpire never follows a link inside a campaign or a Maildir"; }
empty() { [ -z "$(ls -A "$1")" ] || { ls -la "$1" >&2; die "something was written through a link into $1"; }; }

# A campaign by mail: armstrong's address, a reply address.
with_emails "$SRC/scenario.yaml" armstrong=blood@example.org >scenario.yaml
printf 'mail:\n  from: umpire@example.org\n  smtp: smtp://127.0.0.1:1\n  tls: none\n' >>scenario.yaml
expect 0 "$BIN" init c --scenario scenario.yaml --secret-file "$SRC/demo.secret" --entropy none \
    --visibility open
$PY "$ROOT/tests/e2e/mail/make-messages.py" md bewcastle-fray \
    "$SRC/orders/turn-0001/armstrong.yaml" "$SRC/orders/turn-0001/forster.yaml"
find md/new -type f ! -name '01-attachment' -delete
mail=md/new/01-attachment

# The turn's inbox folder a link to a folder elsewhere: the accepted orders are not written
# there; `inbox` and `run` refuse by name.
mkdir -p c/.umpire/inbox elsewhere
ln -s "$TMP/elsewhere" c/.umpire/inbox/turn-0001
expect 65 "$BIN" inbox c --maildir md
link_refused "c/.umpire/inbox/turn-0001"
expect 65 "$BIN" run c --maildir md
link_refused "c/.umpire/inbox/turn-0001"
empty elsewhere
rm c/.umpire/inbox/turn-0001

# A link in new/ to the secret, or to /etc/passwd: not read, not moved, none of it echoed.
ln -s "$TMP/c/.umpire/secret" md/new/00-secret
expect 65 "$BIN" inbox c --maildir md
link_refused "md/new/00-secret"
grep -qF "$(cut -c1-16 c/.umpire/secret)" "$TMP/out" "$TMP/err" && die "the secret was echoed"
[ -L md/new/00-secret ] || die "the link was moved"
empty md/cur
rm md/new/00-secret
ln -s /etc/passwd md/new/00-passwd
expect 65 "$BIN" inbox c --maildir md
link_refused "md/new/00-passwd"
grep -q "root:" "$TMP/out" "$TMP/err" && die "/etc/passwd was echoed"
[ -L md/new/00-passwd ] && [ -z "$(ls md/cur)" ] || die "the link was moved"
rm md/new/00-passwd

# cur/ a link into the campaign: the mail is not moved there.
mkdir stolen
rmdir md/cur
ln -s "$TMP/stolen" md/cur
expect 65 "$BIN" inbox c --maildir md
link_refused "md/cur"
empty stolen
[ -f "$mail" ] || die "the mail left new/"
rm md/cur
mkdir md/cur

# With the links gone, the same mail goes through.
expect 0 "$BIN" inbox c --maildir md
has "$TMP/out" "01-attachment: accepted: orders of armstrong for turn 1"
[ -f c/.umpire/inbox/turn-0001/armstrong.yaml ] || die "the orders were not stored"

# addresses.yaml a link to /etc/passwd: refused by name, its first line never printed.
mv c/.umpire/addresses.yaml addresses.bak
ln -s /etc/passwd c/.umpire/addresses.yaml
expect 65 "$BIN" players c
link_refused "c/.umpire/addresses.yaml"
grep -q "root:" "$TMP/out" "$TMP/err" && die "/etc/passwd was echoed"
expect 65 "$BIN" players c --set armstrong a@example.org
[ -L c/.umpire/addresses.yaml ] || die "players --set wrote through the link"
rm c/.umpire/addresses.yaml
mv addresses.bak c/.umpire/addresses.yaml

# The secret a link: refused, not read.
mv c/.umpire/secret secret.bak
ln -s "$TMP/secret.bak" c/.umpire/secret
expect 65 "$BIN" turn c --allow-missing "$SRC/orders/turn-0001/forster.yaml"
link_refused "c/.umpire/secret"
rm c/.umpire/secret
mv secret.bak c/.umpire/secret

# The work tree: a turn's reports folder a link to a folder elsewhere.
O="$TMP/open"
new_campaign harbour-raid "$O" --entropy none --visibility open
mkdir -p "$O/reports" outside
ln -s "$TMP/outside" "$O/reports/turn-0001"
# shellcheck disable=SC2046
expect 65 "$BIN" turn "$O" $(ls "$H"/orders/turn-0001/*.yaml)
link_refused "reports/turn-0001"
empty outside
rm "$O/reports/turn-0001"
# shellcheck disable=SC2046
expect 0 "$BIN" turn "$O" $(ls "$H"/orders/turn-0001/*.yaml)

# .umpire/closed and .umpire/sealed links: a close writes nothing through them.
S="$TMP/sealed"
"$BIN" init "$S" --scenario "$H/scenario.yaml" --secret-file "$H/demo.secret" --entropy beacon \
    --visibility sealed >/dev/null
mkdir closed-out sealed-out
ln -s "$TMP/closed-out" "$S/.umpire/closed"
ln -s "$TMP/sealed-out" "$S/.umpire/sealed"
cp "$H/orders/turn-0001/attacker.yaml" attacker.yaml
expect 65 "$BIN" close "$S" attacker.yaml
has "$TMP/err" "is a symbolic link: umpire never follows a link inside a campaign"
empty closed-out
empty sealed-out
# the journal a link
J="$TMP/jl"
new_campaign harbour-raid "$J" --entropy none --visibility open
mv "$J/.umpire/journal.sqlite" journal.sqlite
ln -s "$TMP/journal.sqlite" "$J/.umpire/journal.sqlite"
expect 65 "$BIN" status "$J"
link_refused ".umpire/journal.sqlite"
echo "symlinks: ok"
