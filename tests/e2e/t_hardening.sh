# Hostile files and shared campaigns (issue 10): an order file that is a FIFO, a directory or
# the umpire's secret is refused before a byte of it is read or echoed; invisible characters
# and Unicode line breaks are refused at their line and column; verify and replay take a
# shared lock, so they run beside each other, on a read-only copy, and a turn waits for them
# instead of failing.
. "$ROOT/tests/e2e/lib.sh"
C="$TMP/c"
new_campaign harbour-raid "$C" --entropy none --visibility open
files1=$(ls "$ROOT"/campaigns/harbour-raid/orders/turn-0001/*.yaml | sort)
attacker="$ROOT/campaigns/harbour-raid/orders/turn-0001/attacker.yaml"

# A FIFO would block a plain open() forever, holding the campaign lock: refused at once.
# (timeout(1) only turns a hang into a failure; nothing here measures time.)
mkfifo "$TMP/fifo.yaml"
expect 65 timeout 60 "$BIN" check "$C" "$TMP/fifo.yaml"
has "$TMP/err" "fifo.yaml:1:1: error: order file is not a regular file (it is a FIFO; a regular file expected)"
before=$(fingerprint "$C")
# shellcheck disable=SC2086
expect 65 timeout 60 "$BIN" turn "$C" $files1 "$TMP/fifo.yaml"
has "$TMP/err" "it is a FIFO"
expect 65 "$BIN" check "$C" "$TMP"
has "$TMP/err" "it is a directory"
[ "$(fingerprint "$C")" = "$before" ] || die "a refused turn changed the campaign"

# The secret, by a symlink: refused, and none of its digits echoed.
ln -s "$C/.umpire/secret" "$TMP/secret.yaml"
expect 65 "$BIN" check "$C" "$TMP/secret.yaml"
has "$TMP/err" "secret.yaml:1:1: error: this is the umpire's secret (.umpire/secret), never an order file"
secret=$(cut -c1-16 "$C/.umpire/secret")
grep -qF "$secret" "$TMP/err" && die "the secret's digits were echoed"

# Any other file given as an order file (here a copy of the secret, which its path does not
# give away; no line starts with `campaign:`) is said to be no order file, and nothing of it
# is echoed (issue 25): not one of its 64 digits.
cp "$C/.umpire/secret" "$TMP/copied.yaml"
expect 65 "$BIN" check "$C" "$TMP/copied.yaml"
has "$TMP/err" "copied.yaml:1:1: error: not an order file: no line starts with 'campaign:'"
grep -qF "$(cut -c1-8 "$TMP/copied.yaml")" "$TMP/err" && die "digits of the file were echoed"
grep -qF "$(cut -c40-47 "$TMP/copied.yaml")" "$TMP/err" && die "digits of the file were echoed"
[ "$(wc -l <"$TMP/err")" -eq 1 ] || die "more than the one error line"
# Given as a scenario (no line starts with `rules:`), alike.
expect 65 "$BIN" init "$TMP/nocampaign" --scenario "$TMP/copied.yaml"
has "$TMP/err" "copied.yaml:1:1: error: not a scenario: no line starts with 'rules:'"
grep -qF "$(cut -c1-8 "$TMP/copied.yaml")" "$TMP/err" && die "digits of the scenario were echoed"
# So is a YAML file with a long line that is not an order file.
{ printf 'key: ['
  i=0; while [ $i -lt 40 ]; do printf 'secret, '; i=$((i + 1)); done
  printf 'x]]'
  i=0; while [ $i -lt 40 ]; do printf ', secret'; i=$((i + 1)); done
  printf '\n'; } >"$TMP/notorders.yaml"
expect 65 "$BIN" check "$C" "$TMP/notorders.yaml"
has "$TMP/err" "notorders.yaml:1:1: error: not an order file"
grep -q "secret" "$TMP/err" && die "the file was echoed"
# An order file (a line starts with `campaign:`), however broken, shows a long line as a
# 120-column window, 40 columns before the caret, so the caret stays under the offending spot.
{ printf 'campaign: harbour-raid\nturn: 1\nplayer: attacker\norders: ['
  i=0; while [ $i -lt 40 ]; do printf 'plunder, '; i=$((i + 1)); done
  printf 'x]]'
  i=0; while [ $i -lt 40 ]; do printf ', plunder'; i=$((i + 1)); done
  printf '\n'; } >"$TMP/syntax.yaml"
expect 65 "$BIN" check "$C" "$TMP/syntax.yaml"
has "$TMP/err" "syntax.yaml:4:372: error: did not find expected key"
shows_excerpt "$TMP/err" "syntax.yaml:4:372" 120 "]"
{ printf 'campaign: harbour-raid\nturn: 1\nplayer: attacker\norders:\n  - officer: blood\n'
  printf '    actions: [%150s{move: Z9}]  # %s\n' "" "$(printf '%0200d' 0)"; } >"$TMP/long.yaml"
expect 65 "$BIN" check "$C" "$TMP/long.yaml"
has "$TMP/err" "long.yaml:6:172: error: move 'Z9' is not a square"
shows_excerpt "$TMP/err" "long.yaml:6:172" 120 "Z"
has "$TMP/err" "    6 | ...$(printf '%33s' ''){move: Z9}]  # 000"

# U+2028 ends a YAML comment where a viewer sees none: the orders after it would be live.
printf 'campaign: harbour-raid\nturn: 1\nplayer: attacker\n# note\342\200\250orders: []\n' >"$TMP/ls.yaml"
expect 65 "$BIN" check "$C" "$TMP/ls.yaml"
has "$TMP/err" "ls.yaml:4:7: error: U+2028 (LINE SEPARATOR, a YAML line break) is not allowed"
printf 'campaign: harbour-raid\nturn: 1\nplayer: attacker\n# note\302\205orders: []\n' >"$TMP/nel.yaml"
expect 65 "$BIN" check "$C" "$TMP/nel.yaml"
has "$TMP/err" "nel.yaml:4:7: error: U+0085 (NEXT LINE, a YAML line break) is not allowed"
sed 's/player: attacker/player: atta\xe2\x80\x8bcker/' "$attacker" >"$TMP/zw.yaml"
expect 65 "$BIN" check "$C" "$TMP/zw.yaml"
has "$TMP/err" "zw.yaml:3:13: error: U+200B (invisible control character) is not allowed"
shows_source "$TMP/err" "zw.yaml:3:13"
printf 'campaign: harbour-raid\nturn: 1\nplayer: attacker\n# \033[2Jcleared\norders: []\n' >"$TMP/esc.yaml"
expect 65 "$BIN" check "$C" "$TMP/esc.yaml"
has "$TMP/err" "esc.yaml:4:3: error: U+001B (control character) is not allowed"
# A byte order mark opening the file is its encoding's signature: accepted.
{ printf '\357\273\277'; cat "$attacker"; } >"$TMP/bom.yaml"
expect 0 "$BIN" check "$C" "$TMP/bom.yaml"

# A secret its group or others can read is warned about (they could compute every die).
chmod 640 "$C/.umpire/secret"
# Nothing in a file says who sent it: `player: umpire` is accepted only from the file the
# umpire gives with --rulings, so a player cannot forge rulings ("the defender surrenders").
printf 'campaign: harbour-raid\nturn: 1\nplayer: umpire\norders:\n  - roll: d6+1000000\n    for: the defender surrenders\n' >"$TMP/forged.yaml"
expect 65 "$BIN" check "$C" "$TMP/forged.yaml"
has "$TMP/err" "forged.yaml:3:9: error: player 'umpire' in an order file: the umpire gives the rulings file with --rulings FILE (a player's id expected)"
before=$(fingerprint "$C")
# shellcheck disable=SC2086
expect 65 "$BIN" turn "$C" $files1 "$TMP/forged.yaml"
has "$TMP/err" "player 'umpire' in an order file"
[ "$(fingerprint "$C")" = "$before" ] || die "a forged rulings file changed the campaign"
expect 65 "$BIN" check "$C" --rulings "$attacker"
has "$TMP/err" "attacker.yaml:3:9: error: the --rulings file is the umpire's: it says player 'attacker' (umpire expected)"
expect 0 "$BIN" check "$C" --rulings "$TMP/forged.yaml"
has "$TMP/out" "forged.yaml: ok: orders of umpire for turn 1"
expect 64 "$BIN" check "$C" --rulings "$TMP/forged.yaml" --rulings "$TMP/forged.yaml"
has "$TMP/err" "one --rulings file at most"

# shellcheck disable=SC2086
expect 0 "$BIN" turn "$C" $files1
has "$TMP/err" "umpire: warning: $C/.umpire/secret can be read by its group or by others"
chmod 600 "$C/.umpire/secret"

# Readers share: verify runs while a turn's writer lock is held, and beside another reader.
# (exit 3: consistent, not proven fair, entropy none; docs/fairness.md "The verdict")
rc=0; flock -x "$C/.umpire/lock" "$BIN" verify "$C" >/dev/null 2>"$TMP/err" || rc=$?
[ "$rc" -eq 3 ] || die "verify beside a held writer lock: exit $rc: $(cat "$TMP/err")"
flock -s "$C/.umpire/readers" "$BIN" replay "$C" >/dev/null 2>"$TMP/err" || die "replay beside another reader: $(cat "$TMP/err")"

# A turn waits for a running reader (here a shell holding the shared lock) instead of
# failing with 75, then runs once it ends.
rm -f "$TMP/held" "$TMP/release"
flock -s "$C/.umpire/readers" sh -c "touch '$TMP/held'; i=0; while [ ! -f '$TMP/release' ] && [ \$i -lt 1200 ]; do sleep 0.05; i=\$((i+1)); done" &
reader=$!
i=0; while [ ! -f "$TMP/held" ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done
files2=$(ls "$ROOT"/campaigns/harbour-raid/orders/turn-0002/*.yaml | sort)
# shellcheck disable=SC2086
"$BIN" turn "$C" $files2 >"$TMP/turn.out" 2>"$TMP/turn.err" &
turn=$!
i=0; while ! grep -q "waiting for it to finish" "$TMP/turn.err" && [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done
has "$TMP/turn.err" "umpire: a verify or replay is reading the campaign: waiting for it to finish"
# While it waits: no core dump could ever write the secret to disk.
grep -E '^Max core file size +0 +0 ' "/proc/$turn/limits" >/dev/null || { cat "/proc/$turn/limits"; die "core dumps not disabled"; }
[ "$(git -C "$C" tag | wc -l)" -eq 2 ] || die "the turn ran while a reader held the lock"
touch "$TMP/release"
wait $reader
set +e; wait $turn; rc=$?; set -e
[ $rc -eq 0 ] || { cat "$TMP/turn.err"; die "the waiting turn exited $rc"; }
has "$TMP/turn.out" "Turn 2:"

# A read-only copy verifies and replays (a read-only bind mount in a user namespace, where
# the system allows one; otherwise said and skipped).
cp -a "$C" "$TMP/ro"
rm -f "$TMP/ro/.umpire/readers"
if unshare -rm true 2>/dev/null; then
    unshare -rm sh -c "mount --bind -o ro '$TMP/ro' '$TMP/ro' && touch '$TMP/ro/x' 2>/dev/null && exit 9; { \"$BIN\" verify '$TMP/ro'; [ \$? -eq 3 ]; } && \"$BIN\" replay '$TMP/ro'" >"$TMP/out" 2>"$TMP/err" ||
        { cat "$TMP/err"; die "verify/replay of a read-only copy failed"; }
    has "$TMP/out" "replay: 2 turns identical"
else
    echo "skipped: the read-only copy (unshare -rm is not allowed here)"
fi
# A small crafted clone whose blobs inflate past the limit: refused from the object's header,
# never inflated (umpire and tools/umpire-verify.mjs alike; commits and trees: t_crafted_clone).
git clone -q "$C" "$TMP/big"
head -c 41943040 /dev/zero | tr '\0' 'a' >"$TMP/big/campaign.yaml"
cp "$TMP/big/campaign.yaml" "$TMP/big/journal/turn-0001.yaml"
git -C "$TMP/big" -c user.name=mallory -c user.email=m@example.org commit -qam big
git -C "$TMP/big" tag -f turn-0001 >/dev/null
expect 65 "$BIN" verify "$TMP/big"
has "$TMP/err" "umpire: repo: cannot read 'campaign.yaml' at 'HEAD': the blob object "
has "$TMP/err" " is 41943040 bytes, over the limit of 32 MiB for a blob (a crafted repository?)"
expect 65 "$BIN" check "$TMP/big" "$attacker"
has "$TMP/err" "over the limit of 32 MiB for a blob"
expect 65 node "$JSV" "$TMP/big"
has "$TMP/out" " is 41943040 bytes, over the limit of 32 MiB for a blob (a crafted repository?)"

# Text reaches each sink escaped for it: a ruling's purpose with an ESC sequence (YAML's "\e"
# escape, so no raw control byte is in the file), HTML and a javascript: link.
E="$TMP/esc"
new_campaign harbour-raid "$E" --entropy none --visibility open
printf 'campaign: harbour-raid\nturn: 1\nplayer: umpire\norders:\n  - roll: d6\n    for: "\\e[2J<script>x</script> [go](javascript:alert(1)) | cell"\n' >"$TMP/r.yaml"
expect 0 "$BIN" turn "$E" --allow-missing --rulings "$TMP/r.yaml"
report=$(ls "$E"/reports/turn-0001/*.md | head -n 1)
has "$report" '\x1b[2J&lt;script&gt;x&lt;/script&gt; [go]\(javascript:alert(1)) \| cell'
grep -q "$(printf '\033')" "$report" && die "an ESC reached a report"
grep -q '<script>' "$report" && die "HTML reached a report"
expect 0 "$BIN" log "$E"
has "$TMP/out" '\x1b[2J<script>x</script> [go](javascript:alert(1)) | cell'
grep -q "$(printf '\033')" "$TMP/out" && die "an ESC from the journal reached the terminal"
# Any error message is escaped too (it may quote a path, a file's or a clone's text).
expect 66 "$BIN" verify "$(printf '%s/no\033[2Jcampaign' "$TMP")"
has "$TMP/err" "/no\x1b[2Jcampaign'"
grep -q "$(printf '\033')" "$TMP/err" && die "an ESC in a path reached the terminal"

# A Setup rewritten on a fresh clone (fair: false made true, the chain head and the commit
# rebuilt) passes every check a clone allows on its own; the values init printed, announced
# out of band, pin it.
# rewrite_setup CLONE: fair: false made true in the Setup, the hash chain head rebuilt, the
# commit rebuilt with the same author, time and trailers, turn-0000 and main moved onto it.
rewrite_setup() {
d=$1
sed -i 's/^  fair: false$/  fair: true/' "$d/campaign.yaml"
head=$( { head -c 32 /dev/zero; cat "$d/campaign.yaml"; } | sha256sum | cut -c1-64)
old=$(git -C "$d" rev-parse HEAD)
msg=$(git -C "$d" log -1 --format=%B "$old" | sed "s/^Journal-Head: .*/Journal-Head: $head/")
git -C "$d" add campaign.yaml
tree=$(git -C "$d" write-tree)
when=$(git -C "$d" log -1 --format=%at "$old")
new=$(printf '%s\n' "$msg" | GIT_AUTHOR_NAME=umpire GIT_AUTHOR_EMAIL=umpire@localhost GIT_AUTHOR_DATE="$when +0000" \
    GIT_COMMITTER_NAME=umpire GIT_COMMITTER_EMAIL=umpire@localhost GIT_COMMITTER_DATE="$when +0000" git -C "$d" commit-tree "$tree")
git -C "$d" reset -q --soft "$new"
git -C "$d" tag -f turn-0000 "$new" >/dev/null
}
P="$TMP/pin"
expect 0 "$BIN" init --visibility open --entropy none "$P" --scenario "$ROOT/campaigns/harbour-raid/scenario.yaml" \
    --secret-file "$ROOT/campaigns/harbour-raid/demo.secret"
commitment=$(sed -n 's/^commitment \([0-9a-f]*\) .*/\1/p' "$TMP/out")
setup=$(sed -n 's/^setup \([0-9a-f]*\) (SHA-256 of campaign.yaml): announce it.*/\1/p' "$TMP/out")
[ ${#setup} -eq 64 ] || die "init printed no setup hash"
[ "$setup" = "$(sha256sum "$P/campaign.yaml" | cut -c1-64)" ] || die "the setup hash is not campaign.yaml's"
expect 3 "$BIN" verify "$P" --commitment "$commitment" --setup "$setup"
git clone -q "$P" "$TMP/pin2"
rewrite_setup "$TMP/pin2"
expect 3 "$BIN" verify "$TMP/pin2"
expect 65 "$BIN" verify "$TMP/pin2" --commitment "$commitment" --setup "$setup"
has "$TMP/out" "verify: FAILED: setup: campaign.yaml hashes to "
has "$TMP/out" "not the $setup announced (--setup): the Setup was rewritten"
expect 65 "$BIN" verify "$P" --commitment "$(echo "$commitment" | tr 0-9a-f 1-9a-f0)"
has "$TMP/out" "announced (--commitment): the Setup was rewritten"
expect 64 "$BIN" verify "$P" --setup 12
# tools/umpire-verify.mjs alike.
V="$JSV"
expect 3 node "$V" "$P" --commitment "$commitment" --setup "$setup"
expect 3 node "$V" "$TMP/pin2"
expect 65 node "$V" "$TMP/pin2" --commitment "$commitment" --setup "$setup"
has "$TMP/out" "verify: FAILED: setup: campaign.yaml hashes to "
has "$TMP/out" "not the $setup announced (--setup): the Setup was rewritten"

# Run as a user who does not own the repository, libgit2 refuses it (git's safe.directory
# check): said as such, not "not a campaign". Needs root to switch user, else skipped.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
    chmod 755 "$TMP"
    set +e
    setpriv --reuid=65534 --regid=65534 --clear-groups "$BIN" log "$C" >"$TMP/out" 2>"$TMP/err"; rc=$?
    set -e
    [ $rc -eq 66 ] || { cat "$TMP/err"; die "another user's campaign: exit $rc (66 expected)"; }
    has "$TMP/err" "is a git repository owned by another user, which libgit2 refuses to open"
else
    echo "skipped: another user's repository (needs root and setpriv)"
fi
echo "hardening: ok"
