# Crafted clones (issue 10 item 8): a commit or a tree that inflates past umpire's limits
# (src/core/repo.h: 1 MiB a commit, 8 MiB and 262,144 entries a tree) is sized from its header
# and refused before it is read whole, by every command that reads a clone and by
# tools/umpire-verify.mjs, in bounded memory (blobs: t_hardening).
. "$ROOT/tests/e2e/lib.sh"
C="$TMP/c"
new_campaign harbour-raid "$C"
play harbour-raid "$C" 1
attacker="$ROOT/campaigns/harbour-raid/orders/turn-0001/attacker.yaml"

# crafted NAME TREE: a clone of C in $TMP/NAME whose main and tag turn-0001 are moved to a
# commit on top of main with root tree TREE and the message on stdin (no reflog: a 40 MiB
# subject would be copied there).
crafted() {
    git clone -q "$C" "$TMP/$1"
    _id=$(git -C "$TMP/$1" commit-tree "$2" -p HEAD)
    git -C "$TMP/$1" -c core.logAllRefUpdates=false update-ref refs/heads/main "$_id"
    git -C "$TMP/$1" tag -f turn-0001 "$_id" >/dev/null
}
# refused CLONE TEXT TEXT2: every reader of the clone (umpire verify, log, replay, check and
# tools/umpire-verify.mjs) exits 65 saying TEXT and TEXT2, with a peak RSS under 48 MiB where
# /usr/bin/time is there (before these limits the 40 MiB commit took 92 MiB in umpire, 141 MiB
# in the Python verifier; an honest run takes about 10 and 22); tools/umpire-verify.mjs under
# its own honest peak plus 48 MiB (node alone takes more than 48).
refused() {
    _why=$2 _why2=$3
    refused_by "$BIN" verify "$1"
    refused_by "$BIN" log "$1"
    refused_by "$BIN" replay "$1"
    refused_by "$BIN" check "$1" "$attacker"
    JS_RSS=1; refused_by node "$JSV" "$1"; JS_RSS=
}
# refused_by CMD...: CMD exits 65 saying $_why and $_why2, its peak RSS bounded (not for a
# sanitized umpire: ASan's shadow memory alone takes more).
refused_by() {
    if [ -x /usr/bin/time ] && { [ "$1" != "$BIN" ] || [ -z "$sanitized" ]; }; then
        expect 65 /usr/bin/time -f 'peak-rss-kib %M' -o "$TMP/rss" "$@"
        _kib=$(sed -n 's/^peak-rss-kib //p' "$TMP/rss")
        # node itself and the verifier's modules take about 100 MiB before any object
        _max=49152; [ -z "${JS_RSS:-}" ] || _max=$JS_MAX_KIB
        [ "$_kib" -lt "$_max" ] || die "'$*' peaked at $_kib KiB (under $_max KiB expected)"
    else
        expect 65 "$@"
    fi
    cat "$TMP/out" "$TMP/err" >"$TMP/both"
    has "$TMP/both" "$_why"
    has "$TMP/both" "$_why2"
}
[ -x /usr/bin/time ] || echo "skipped: peak memory (no /usr/bin/time)"
# tools/umpire-verify.mjs's bound: its peak on the honest clone plus 48 MiB (a 40 MiB commit
# inflated would not pass it: it sizes a loose object from its header)
JS_MAX_KIB=200000
if [ -x /usr/bin/time ]; then
    git clone -q "$C" "$TMP/honest0"
    /usr/bin/time -f 'peak-rss-kib %M' -o "$TMP/rss0" node "$JSV" "$TMP/honest0" >/dev/null 2>&1 || true
    JS_MAX_KIB=$(( $(sed -n 's/^peak-rss-kib //p' "$TMP/rss0") + 49152 ))
fi
sanitized=
if grep -q __asan_init "$BIN"; then sanitized=1; echo "skipped: umpire's peak memory (a sanitized build)"; fi

# A 40 MiB commit message (about 40 KB compressed).
head -c 41943040 /dev/zero | tr '\0' 'a' >"$TMP/msg"
crafted bigcommit "$(git -C "$C" rev-parse 'HEAD^{tree}')" <"$TMP/msg"
rm "$TMP/msg"
refused "$TMP/bigcommit" "the commit object $(git -C "$TMP/bigcommit" rev-parse HEAD) is 41943" \
    "bytes, over the limit of 1 MiB for a commit (a crafted repository?)"
expect 65 "$BIN" verify "$TMP/bigcommit"
has "$TMP/err" "umpire: repo: cannot read 'campaign.yaml' at 'HEAD': the commit object $(git -C "$TMP/bigcommit" rev-parse HEAD) is 41943"

# bigtree KIND: a root tree of C's files and many more entries naming campaign.yaml's blob,
# written whole in git's tree format (git mktree takes minutes on a loaded machine):
# KIND many: 250,000 entries f000000...; KIND names3: every three-character name of 64 letters.
bigtree() {
    python3 - "$C" "$1" <<'PY'
import binascii, subprocess, sys
repo, kind = sys.argv[1:3]
git = lambda *a, **k: subprocess.run(["git", "-C", repo, *a], capture_output=True, check=True, **k).stdout
blob = git("rev-parse", "HEAD:campaign.yaml").decode().strip()
ents = []
for line in git("ls-tree", "HEAD").decode().splitlines():
    meta, name = line.split("\t", 1)
    mode, typ, oid = meta.split()
    ents.append((mode.lstrip("0"), name, oid, typ == "tree"))
if kind == "many":
    names = ["f%06d" % i for i in range(250000)]
else:
    a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
    names = [x + y + z for x in a for y in a for z in a]
ents += [("100644", n, blob, False) for n in names]
ents.sort(key=lambda e: e[1] + ("/" if e[3] else ""))  # git's order: a tree as NAME/
data = b"".join(b"%s %s\0" % (m.encode(), n.encode()) + binascii.unhexlify(o) for m, n, o, _ in ents)
print(git("hash-object", "-t", "tree", "-w", "--stdin", input=data).decode().strip())
PY
}

# A root tree of 8.4 MB: the campaign's files and 250,000 more entries.
tree=$(bigtree many)
echo crafted | crafted bigtree "$tree"
refused "$TMP/bigtree" "the tree object $tree is 8750" \
    "bytes, over the limit of 8 MiB for a tree (a crafted repository?)"

# A root tree under 8 MiB with 262,144 more entries (three-character names): over the entry limit.
tree=$(bigtree names3)
[ "$(git -C "$C" cat-file -s "$tree")" -lt 8388608 ] || die "the many-entries tree is not under 8 MiB"
echo crafted | crafted manyentries "$tree"
n=$(( $(git -C "$C" ls-tree HEAD | wc -l) + 262144 ))
refused "$TMP/manyentries" "tree $tree has $n entries" "over the limit of 262144 (a crafted repository?)"

# The same limits leave an honest clone alone.
git clone -q "$C" "$TMP/honest"
expect 3 "$BIN" verify "$TMP/honest"
expect 3 node "$JSV" "$TMP/honest"
echo "crafted clone: ok"
