# One rule for the close's lists (issue 38, item 7): `umpire close --allow-missing` with both
# players missing writes `missing:` sorted by id in byte order (betio-seawall lists its
# players usmc, ija), both verifiers pass the campaign, and a close rewritten with the list
# out of order (the commit rebuilt around it, the tag moved) is refused by both alike.
. "$ROOT/tests/e2e/lib.sh"
H="$ROOT/campaigns/betio-seawall"
D="$TMP/d"
expect 0 "$BIN" init --visibility open "$D" --scenario "$H/scenario.yaml" \
    --secret-file "$H/demo.secret" --entropy beacon --demo-beacon
# turn 1: closed with nobody's orders, resolved with the demo beacon's round it names
expect 0 env SOURCE_DATE_EPOCH=1767229200 "$BIN" close "$D" --allow-missing
has "$TMP/out" "Turn 1 closed: 0 order files, 2 players without"
printf -- '- ija\n- usmc\n' >"$TMP/want"
sed -n '/^missing:$/,/^beacon:$/p' "$D/journal/turn-0001.close.yaml" | sed '1d;$d' >"$TMP/got"
cmp -s "$TMP/want" "$TMP/got" || { cat "$TMP/got" >&2; die "missing: is not [ija, usmc]"; }
# shellcheck disable=SC2046
set -- $(UMPIRE_BLS="$(dirname "$(readlink -f "$BIN")")/umpire-bls" "$ROOT/tools/demo-beacon" 1401)
expect 0 env SOURCE_DATE_EPOCH=1767233000 "$BIN" turn "$D" --beacon "$1" --beacon-signature "$2"
# turn 2: closed the same way, awaiting its randomness
expect 0 env SOURCE_DATE_EPOCH=1767315600 "$BIN" close "$D" --allow-missing
git clone -q "$D" "$TMP/c"
expect 3 "$BIN" verify "$TMP/c"
expect 3 node "$JSV" "$TMP/c"
grep -q '^verify: ok: campaign [^:]*: 1 turn, ' "$TMP/out" || { cat "$TMP/out"; die "umpire-verify.mjs: not 1 turn"; }

# The close of turn 2 with missing: [usmc, ija]: the same commit otherwise (author, time,
# message), main and close-0002 moved to it, in a clone never verified (one that was would
# refuse the rewritten history first).
git clone -q "$D" "$TMP/t"
(
    cd "$TMP/t"
    git fetch -q origin 'refs/tags/*:refs/tags/*'
    f=journal/turn-0002.close.yaml
    awk '$0 == "- ija" { held = $0; next } { print } held && $0 == "- usmc" { print held; held = "" }' \
        "$f" >"$f.new"
    mv "$f.new" "$f"
    git add "$f"
    git log -1 --format=%B >../msg
    GIT_AUTHOR_NAME=umpire GIT_AUTHOR_EMAIL=umpire@localhost GIT_COMMITTER_NAME=umpire \
        GIT_COMMITTER_EMAIL=umpire@localhost GIT_AUTHOR_DATE='1767315600 +0000' \
        GIT_COMMITTER_DATE='1767315600 +0000' \
        git commit -q --amend --cleanup=verbatim -F ../msg
    git tag -f close-0002 >/dev/null
)
grep -A2 '^missing:$' "$TMP/t/journal/turn-0002.close.yaml" | tr '\n' ' ' >"$TMP/got"
has "$TMP/got" "missing: - usmc - ija"
both_fail "$TMP/t"
has "$TMP/out" "turn 2: journal/turn-0002.close.yaml (tag close-0002): missing is not sorted, or lists a player twice"
has "$TMP/js.out" "turn 2: journal/turn-0002.close.yaml (tag close-0002): missing is not sorted, or lists a player twice"
