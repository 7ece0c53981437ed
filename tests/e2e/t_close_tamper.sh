# Closes forged into a clone that only verify's check of the close catches (issue 34 item 8,
# src/cmd/verify_sealed.c): a sealed turn not yet revealed is never re-resolved, so what its
# close fixed is held against its export alone (check_close_export: D_t, and who sent a
# file), and a pending players-entropy close is checked by nothing else for its commitments
# (close_check_entropy). Each forgery rebuilds the close commit with the message its edited
# file gives (same parent, author and time), the turn's commit after it on the new one, and
# moves the tags and main: every other check passes, and each check made a no-op lets its
# forgery through.
. "$ROOT/tests/e2e/lib.sh"
HR="$ROOT/campaigns/harbour-raid"

# forge_close DIR T FILE-SED MSG-SED: rewrites close-T of clone DIR: its close file edited by
# FILE-SED, its message by MSG-SED; every later commit rebuilt on it with the same edited
# file (same message, author and time); their tags and main moved.
forge_close() {
    _d=$1 _n=$(printf '%04d' "$2") _fs=$3 _ms=$4
    _f=journal/turn-$_n.close.yaml
    _blob=$(git -C "$_d" show "close-$_n:$_f" | sed "$_fs" | git -C "$_d" hash-object -w --stdin)
    _close=$(git -C "$_d" rev-parse "close-$_n^{commit}")
    _new=
    for _c in $(git -C "$_d" rev-list --reverse "$_close^..main"); do
        _when=$(git -C "$_d" log -1 --format=%at "$_c")
        _parent=${_new:-$(git -C "$_d" rev-parse "$_c^")}
        rm -f "$TMP/forge.index"
        GIT_INDEX_FILE="$TMP/forge.index" git -C "$_d" read-tree "$_c"
        GIT_INDEX_FILE="$TMP/forge.index" git -C "$_d" update-index --cacheinfo "100644,$_blob,$_f"
        _tree=$(GIT_INDEX_FILE="$TMP/forge.index" git -C "$_d" write-tree)
        git -C "$_d" cat-file commit "$_c" | sed '1,/^$/d' >"$TMP/forge.msg"
        [ "$_c" != "$_close" ] || sed -i "$_ms" "$TMP/forge.msg"
        _new=$(GIT_AUTHOR_NAME=umpire GIT_AUTHOR_EMAIL=umpire@localhost \
            GIT_AUTHOR_DATE="$_when +0000" GIT_COMMITTER_NAME=umpire \
            GIT_COMMITTER_EMAIL=umpire@localhost GIT_COMMITTER_DATE="$_when +0000" \
            git -C "$_d" commit-tree "$_tree" -p "$_parent" -F "$TMP/forge.msg")
        for _t in $(git -C "$_d" tag --points-at "$_c"); do
            git -C "$_d" tag -f "$_t" "$_new" >/dev/null
        done
    done
    git -C "$_d" reset -q --hard "$_new"
}

# A sealed campaign on the demo beacon, two turns closed and resolved, not revealed: verify
# cannot re-resolve them, and passes them as consistent.
S="$TMP/sealed"
new_campaign harbour-raid "$S" --visibility sealed
play harbour-raid "$S" 2
expect 3 "$BIN" verify "$S"
has "$TMP/out" "sealed: not re-resolved until the reveal"

# The close's D_t (orders_digest, and the message's Orders-Digest) replaced: the close commit
# rebuilds and is unchanged at main; only the export's orders_digest differs from it
# (verify_sealed.c, check_close_export's D_t).
D=abababababababababababababababababababababababababababababababab
git clone -q "$S" "$TMP/digest"
forge_close "$TMP/digest" 2 "s/^orders_digest: .*/orders_digest: $D/" \
    "s/^Orders-Digest: .*/Orders-Digest: $D/"
both_fail "$TMP/digest"
has "$TMP/out" "verify: FAILED: turn 2: the export's order hashes or D_t differ from what close-0002 fixed"
has "$TMP/js.out" "verify: FAILED: turn 2: journal/turn-0002.close.yaml (tag close-0002) fixed other salted hashes or another D_t than the export's"

# The defender's file taken out of the close (listed as missing), D_t kept: the close says
# nobody sent a file, the export that the defender did (check_close_export's who sent).
git clone -q "$S" "$TMP/sender"
forge_close "$TMP/sender" 2 \
    '/^- player: defender$/d; /^  sha256: /d; s/^orders:$/orders: []/; s/^missing: \[\]$/missing:\n- defender/' \
    's/^1 order files, 0 without/0 order files, 1 without/'
git -C "$TMP/sender" show close-0002:journal/turn-0002.close.yaml | grep -qx -- '- defender' ||
    die "the forged close does not list the defender as missing"
both_fail "$TMP/sender"
has "$TMP/out" "verify: FAILED: turn 2: the export's order hashes or D_t differ from what close-0002 fixed"
has "$TMP/js.out" "fixed other salted hashes or another D_t than the export's"

# Entropy players, a close pending (not resolved): its only order file's entropy: commitment
# taken out of the close. Nothing re-runs a pending close; without a commitment its reveals
# would be empty and B_t known at the close (close_check_entropy, called by check_close).
P="$TMP/players"
new_campaign harbour-raid "$P" --visibility sealed --entropy players
"$BIN" nonce >"$TMP/nonce"
e1=$(sed -n 's/^entropy: //p' "$TMP/nonce")
{ cat "$HR/orders/turn-0001/attacker.yaml"; echo "entropy: $e1"; } >"$TMP/p1.yaml"
SOURCE_DATE_EPOCH=1767229200 "$BIN" close "$P" "$TMP/p1.yaml" >/dev/null
expect 3 "$BIN" verify "$P"
git clone -q "$P" "$TMP/nocommit"
forge_close "$TMP/nocommit" 1 '/^  entropy: /d' 's/^$/&/'
! git -C "$TMP/nocommit" show close-0001:journal/turn-0001.close.yaml | grep -q '^  entropy: ' ||
    die "the forged close still carries a commitment"
both_fail "$TMP/nocommit"
has "$TMP/out" "verify: FAILED: turn 1: no order file of the close carries an entropy: commitment (entropy players)"
has "$TMP/out" "(journal/turn-0001.close.yaml at close-0001)"
has "$TMP/js.out" "no order file of the close carries an entropy: commitment"
