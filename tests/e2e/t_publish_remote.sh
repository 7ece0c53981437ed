# t_publish_remote.sh — `umpire publish` to a real remote over the git protocol: a bare
# repository served by `git daemon` (git's own receive-pack, so the remote's hooks run), as a
# git host serves it. main and every tag go in ONE push (one connection, one pack; counted in
# the daemon's log); the remote updates them one by one, tags first, main last. A remote hook
# that refuses one tag leaves the others pushed and is reported with the ref and its reason;
# once the refusal is lifted the next publish adds the missing tag and a clone verifies. The
# state a crash in the middle of a push leaves (new tags, main where it was) is repaired by the
# next publish the same way (docs/formats.md, "Publishing").
. "$ROOT/tests/e2e/lib.sh"
HR="$ROOT/campaigns/harbour-raid"
new_campaign harbour-raid c --entropy none
expect 0 "$BIN" turn c "$HR/orders/turn-0001/attacker.yaml"
expect 0 "$BIN" turn c "$HR/orders/turn-0002/defender.yaml"

# The remote, served by git daemon on a free port of 127.0.0.1, with an update hook that
# refuses the tag turn-0002 while the file no-turn-2 exists.
mkdir srv
git init -q --bare -b main srv/remote.git
cat > srv/remote.git/hooks/update <<'HOOK'
#!/bin/sh
if [ "$1" = refs/tags/turn-0002 ] && [ -e "$GIT_DIR/no-turn-2" ]; then
    echo "turn-0002 is not wanted yet" >&2
    exit 1
fi
echo "$1" >> "$GIT_DIR/updated"
HOOK
chmod +x srv/remote.git/hooks/update
touch srv/remote.git/no-turn-2
port=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
git daemon --listen=127.0.0.1 --port="$port" --base-path="$TMP/srv" --export-all \
    --enable=receive-pack --reuseaddr --verbose --log-destination=stderr "$TMP/srv" 2> daemon.log &
daemon=$!
trap 'kill $daemon 2>/dev/null || true' EXIT
URL="git://127.0.0.1:$port/remote.git"
i=0; until git ls-remote "$URL" >/dev/null 2>&1 || [ $i -ge 100 ]; do sleep 0.1; i=$((i + 1)); done
git ls-remote "$URL" >/dev/null 2>&1 || die "git daemon did not start"
pushes() { grep -c "Request receive-pack" daemon.log || true; }

# One push; the hook refuses turn-0002: the other refs are in, the refusal is named.
expect 65 "$BIN" publish c "$URL"
has "$TMP/err" "refs/tags/turn-0002"
[ "$(pushes)" -eq 1 ] || die "$(pushes) pushes for one publish (one expected)"
# The remote updated the refs in the order given: tags first, main last.
[ "$(cat srv/remote.git/updated | tr '\n' ' ')" = "refs/tags/turn-0000 refs/tags/turn-0001 refs/heads/main " ] \
    || die "refs updated as: $(cat srv/remote.git/updated | tr '\n' ' ')"
[ "$(git --git-dir=srv/remote.git rev-parse main)" = "$(git -C c rev-parse main)" ] || die "main not pushed"
git --git-dir=srv/remote.git rev-parse -q --verify refs/tags/turn-0002 >/dev/null && die "a refused tag is there"
# What a player sees meanwhile: main names a turn whose tag is missing; verify says so.
git clone -q "$URL" clone1
expect 65 "$BIN" verify clone1
has "$TMP/out" "turn-0002"

# The refusal lifted: the next publish adds the missing tag (one push again), nothing forced.
rm srv/remote.git/no-turn-2
expect 0 "$BIN" publish c "$URL"
[ "$(pushes)" -eq 2 ] || die "$(pushes) pushes after two publishes"
[ "$(git --git-dir=srv/remote.git rev-parse turn-0002)" = "$(git -C c rev-parse turn-0002)" ] || die "turn-0002 not repaired"
git -C clone1 fetch -q --tags origin
expect 0 "$BIN" verify clone1
git clone -q "$URL" clone2
expect 0 "$BIN" verify clone2
# Again: nothing to do, still one push, same refs.
expect 0 "$BIN" publish c "$URL"

# The state a push cut short between the references leaves (tags first: new tags, main where
# it was), made here with git itself; the next publish finishes it.
expect 0 "$BIN" turn c "$HR/orders/turn-0003/"*.yaml
git -C c push -q "$URL" refs/tags/turn-0003
[ "$(git --git-dir=srv/remote.git rev-parse main)" = "$(git -C c rev-parse turn-0002)" ] || die "main moved"
# A player who fetches in that window sees a tag past main's end that leads back to it,
# which a fresh clone cannot tell from a main moved back: both verifiers check main alone and
# say both (a clone that had verified turn 3 would fail on its remembered head).
git clone -q "$URL" clone3
expect 0 "$BIN" verify clone3
has "$TMP/out" "note: tags turn-0003 to turn-0003 are ahead of main, which ends at turn 2 (commit $(git -C c rev-parse turn-0002)) and leads to them: a publish that has not finished"
has "$TMP/out" "verify: ok: campaign harbour-raid (sealed, not yet revealed): 2 turns"
expect 0 "$BIN" publish c "$URL"
[ "$(git --git-dir=srv/remote.git rev-parse main)" = "$(git -C c rev-parse main)" ] || die "main not finished"
git -C clone3 pull -q --ff-only
expect 0 "$BIN" verify clone3
