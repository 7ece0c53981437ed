# t_publish_site.sh — `umpire publish DIR REMOTE --site` (issue 35: the pages beside the
# history): the campaign's pages, as `umpire site` writes them, committed to the branch pages
# of the campaign's repository and pushed to a bare remote after the tags and main. The branch
# holds exactly the site's files (byte for byte, each a plain file); publishing again with
# nothing new moves nothing; a new turn adds one commit on the one before (a fast-forward,
# never forced); main, the index and the work tree are untouched; a remote whose pages went
# elsewhere refuses (exit 65), and main and the tags are published all the same first.
. "$ROOT/tests/e2e/lib.sh"
[ -f "$ROOT/build/web/verify.js" ] || skip "no build/web: make web"
HR="$ROOT/campaigns/harbour-raid"
new_campaign harbour-raid c --entropy none
expect 0 "$BIN" turn c "$HR/orders/turn-0001/attacker.yaml"
git init -q --bare -b main remote.git
head_before=$(git -C c rev-parse HEAD)

expect 0 "$BIN" publish c "$TMP/remote.git" --site
has "$TMP/out" "published main and 2 tags to $TMP/remote.git"
has "$TMP/out" "to branch pages"
sum=$(sed -n 's/^\([0-9a-f]\{64\}\)  verify\/verify.js$/\1/p' "$TMP/out")
[ "$sum" = "$(sha256sum "$ROOT/build/web/verify.js" | cut -d' ' -f1)" ] || die "the bundle's SHA-256 is not printed: $(cat "$TMP/out")"
first=$(git --git-dir=remote.git rev-parse -q --verify refs/heads/pages) || die "no branch pages on the remote"
[ "$first" = "$(git -C c rev-parse refs/heads/pages)" ] || die "the remote's pages are not the campaign's"
[ "$(git --git-dir=remote.git rev-parse main)" = "$head_before" ] || die "main not published"
[ "$(git -C c rev-parse HEAD)" = "$head_before" ] || die "main moved"
[ -z "$(git -C c status --porcelain)" ] || die "the work tree or index changed: $(git -C c status --porcelain)"
git -C c rev-parse -q --verify refs/heads/pages^ >/dev/null && die "the first pages commit has a parent"

# exactly the files of umpire site, byte for byte, each a plain file
expect 0 "$BIN" site c "$TMP/site"
git clone -q -b pages remote.git served
rm -rf served/.git
diff -r site served >/dev/null || die "the branch pages is not the site: $(diff -rq site served | head -5)"
git --git-dir=remote.git ls-tree -r pages | awk '$1 != "100644" { bad = 1; print } END { exit bad }' ||
    die "a file of the pages is not a plain file"
git --git-dir=remote.git ls-tree -r --name-only pages | grep -qx 'turn-0001/index.html' || die "no page of turn 1"
git --git-dir=remote.git ls-tree -r --name-only pages | grep -qx 'verify/verify.js' || die "no verifier"

# again, nothing new: the pages stay where they are
expect 0 "$BIN" publish c "$TMP/remote.git" --site
[ "$(git --git-dir=remote.git rev-parse pages)" = "$first" ] || die "the pages moved with nothing new"

# a new turn: one commit on the one before, and main with it
expect 0 "$BIN" turn c "$HR/orders/turn-0002/defender.yaml"
expect 0 "$BIN" publish c "$TMP/remote.git" --site
second=$(git --git-dir=remote.git rev-parse pages)
[ "$second" != "$first" ] || die "the pages did not move with turn 2"
[ "$(git --git-dir=remote.git rev-parse pages^)" = "$first" ] || die "the new pages are not on the old ones"
git --git-dir=remote.git ls-tree -r --name-only pages | grep -qx 'turn-0002/index.html' || die "no page of turn 2"
[ "$(git --git-dir=remote.git rev-parse main)" = "$(git -C c rev-parse main)" ] || die "main not published with turn 2"
git --git-dir=remote.git log -1 --format=%B pages | grep -q "^Pages of campaign harbour-raid, turn 2$" ||
    die "the pages commit says: $(git --git-dir=remote.git log -1 --format=%B pages)"

# pages moved elsewhere on the remote: refused, never forced; main and the tags went first
git clone -q -b pages remote.git other
echo x >other/stray.html
git -C other add stray.html
git -C other commit -qm "elsewhere"
git -C other push -q origin pages
expect 0 "$BIN" turn c "$HR/orders/turn-0003/attacker.yaml"
expect 65 "$BIN" publish c "$TMP/remote.git" --site
has "$TMP/err" "refs/heads/pages"
[ "$(git --git-dir=remote.git rev-parse main)" = "$(git -C c rev-parse main)" ] || die "main not published before the refused pages"
git --git-dir=remote.git cat-file -e pages:stray.html 2>/dev/null || die "the remote's pages were forced"

# without --site, publish pushes no branch pages (a fresh remote)
git init -q --bare -b main plain.git
expect 0 "$BIN" publish c "$TMP/plain.git"
git --git-dir=plain.git rev-parse -q --verify refs/heads/pages >/dev/null && die "pages pushed without --site"
echo "ok"
