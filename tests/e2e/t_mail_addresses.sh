# t_mail_addresses.sh — the players' addresses are private to the umpire: `umpire init` keeps
# them in .umpire/addresses.yaml (0600, never committed) and campaign.yaml holds none (the SSH
# keys stay: players check signatures with them); the umpire changes an address by editing that
# file by hand or with `umpire players DIR --set` (docs/guide-umpire.md "Running a game by email"), a bad edit
# is pointed at; a campaign made before the file (addresses in campaign.yaml) still takes its
# players' mail.
. "$ROOT/tests/e2e/lib.sh"
SRC=$ROOT/campaigns/harbour-raid
PY=/usr/bin/python3
# addresses_are SECOND WHEN: c/.umpire/addresses.yaml is exactly this file, with SECOND as the
# attacker's second address, and 0600 (WHEN names the step in the failure)
addresses_are() {
    printf '%s\n' "# the players' mail addresses: private to the umpire, never committed (docs/formats.md)" \
        'addresses:' '  attacker:' '  - blood@example.org' "  - $1" '  defender: governor@example.org' > want.yaml
    cmp c/.umpire/addresses.yaml want.yaml || { diff want.yaml c/.umpire/addresses.yaml; die "addresses.yaml $2"; }
    [ "$(stat -c %a c/.umpire/addresses.yaml)" = 600 ] || die "addresses.yaml is not 0600 $2"
}
ssh-keygen -q -t ed25519 -N '' -C defender -f defender.key
sed -e 's/^  - id: attacker$/  - id: attacker\n    email: [blood@example.org, Peter.Blood@Example.net]/' \
    -e 's/^  - id: defender$/  - id: defender\n    email: governor@example.org\n    ssh_key: "KEY"/' \
    "$SRC/scenario.yaml" | awk -v k="$(cat defender.key.pub)" '{ sub(/KEY/, k); print }' > scenario.yaml
printf 'mail:\n  from: umpire@example.org\n' >> scenario.yaml
expect 0 "$BIN" init c --scenario scenario.yaml --secret-file "$SRC/demo.secret" --entropy none \
    --visibility open
grep -qi '@example\.net\|blood@\|governor@\|email' c/campaign.yaml && die "campaign.yaml holds an address"
grep -q "^  ssh_key: \"*$(cut -d' ' -f1,2 defender.key.pub)" c/campaign.yaml || die "campaign.yaml lacks the key"
addresses_are Peter.Blood@Example.net "after init"
[ -z "$(git -C c status --porcelain --ignored=no)" ] || die "addresses.yaml shows in git status"
python3 "$ROOT/tools/check-schemas.py" c >/dev/null || die "campaign.yaml does not match its schema"

# The attacker writes from a new address: refused, until the umpire puts it in the file.
orders=$SRC/orders/turn-0001/attacker.yaml
$PY "$ROOT/tests/e2e/mail/deliver.py" md blood@new.example.org "$orders" m1 1767225600
expect 0 "$BIN" inbox c --maildir md
has "$TMP/out" "blood@new.example.org is not the address of a player of campaign 'harbour-raid'"
sed -i 's/^  - blood@example.org$/  - blood@new.example.org/' c/.umpire/addresses.yaml
$PY "$ROOT/tests/e2e/mail/deliver.py" md blood@new.example.org "$orders" m2 1767225660
expect 0 "$BIN" inbox c --maildir md
has "$TMP/out" "accepted: orders of attacker for turn 1"
# The old address no longer counts.
$PY "$ROOT/tests/e2e/mail/deliver.py" md blood@example.org "$orders" m3 1767225720
expect 0 "$BIN" inbox c --maildir md
has "$TMP/out" "blood@example.org is not the address of a player of campaign 'harbour-raid'"

# A bad edit stops every command with the file, line and column.
cp c/.umpire/addresses.yaml good.yaml
sed -i 's/^  defender: governor@example.org$/  defender: governor/' c/.umpire/addresses.yaml
expect 65 "$BIN" status c
has "$TMP/err" "c/.umpire/addresses.yaml:6:13: error: 'governor' is not an email address (local@domain expected)"
sed -i 's/^  defender: governor$/  defendr: governor@example.org/' c/.umpire/addresses.yaml
expect 65 "$BIN" status c
has "$TMP/err" "c/.umpire/addresses.yaml:6:3: error: no player 'defendr' in the campaign (a player id expected)"
rm c/.umpire/addresses.yaml
mkdir c/.umpire/addresses.yaml
expect 65 "$BIN" status c
has "$TMP/err" "the players' addresses 'c/.umpire/addresses.yaml': file is not a regular file"
rmdir c/.umpire/addresses.yaml
cp good.yaml c/.umpire/addresses.yaml
expect 0 "$BIN" status c

# `umpire players` lists them, and --set changes one player's (the file rewritten whole, 0600).
expect 0 "$BIN" players c
cat > want.out <<'OUT'
attacker         blood@new.example.org, peter.blood@example.net
defender         governor@example.org; signs with an SSH key
OUT
cmp "$TMP/out" want.out || { diff want.out "$TMP/out"; die "umpire players"; }
expect 0 "$BIN" players c --set attacker blood@example.org Peter.Blood@Example.net
addresses_are peter.blood@example.net "after --set"
$PY "$ROOT/tests/e2e/mail/deliver.py" md blood@example.org "$orders" m5 1767225780
expect 0 "$BIN" inbox c --maildir md
has "$TMP/out" "accepted: orders of attacker for turn 1"
expect 0 "$BIN" players c --set defender
has "$TMP/out" "defender         (no address); signs with an SSH key"
has c/.umpire/addresses.yaml "  defender: []"
expect 64 "$BIN" players c --set nobody a@example.org
has "$TMP/err" "no player 'nobody' in campaign 'harbour-raid' (one of: attacker defender)"
expect 65 "$BIN" players c --set defender governor
has "$TMP/err" "'governor' is not an email address (local@domain expected)"
has c/.umpire/addresses.yaml "  defender: []"
expect 0 "$BIN" players c --set defender governor@example.org

# The players' clone verifies without the file.
git clone -q c clone
expect 3 "$BIN" verify clone

# A campaign made before the file: its Setup's campaign.yaml holds the addresses, and there is
# no .umpire/addresses.yaml. Made here by committing the addresses as an umpire before this
# change did (the Setup rebuilt with them), then the file removed.
expect 0 "$BIN" init old --scenario scenario.yaml --secret-file "$SRC/demo.secret" --entropy none \
    --visibility open
awk '{ print } /^- id: attacker$/ { print "  email: blood@example.org" }' old/campaign.yaml > old.yaml
mv old.yaml old/campaign.yaml
rm old/.umpire/addresses.yaml
git -C old add campaign.yaml
git -C old commit -q --amend --no-edit
git -C old tag -f turn-0000 >/dev/null
$PY "$ROOT/tests/e2e/mail/deliver.py" md2 blood@example.org "$orders" m4 1767225600
expect 0 "$BIN" inbox old --maildir md2
has "$TMP/out" "accepted: orders of attacker for turn 1"
expect 0 "$BIN" players old
has "$TMP/out" "attacker         blood@example.org"
has "$TMP/out" "defender         (no address); signs with an SSH key"
# Its umpire sets an address: the file names every player, the attacker keeps his.
expect 0 "$BIN" players old --set defender governor@example.org
has old/.umpire/addresses.yaml "  attacker: blood@example.org"
has old/.umpire/addresses.yaml "  defender: governor@example.org"
