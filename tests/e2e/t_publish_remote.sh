# t_publish_remote.sh — `umpire publish` to a real remote over the git protocol: a bare
# repository served by `git daemon` (git's own receive-pack, so the remote's hooks run), as a
# git host serves it. Every tag goes in one push (one connection, one pack; counted in the
# daemon's log), then main in a second, only once the remote took every tag: a remote hook
# that refuses one tag leaves the others pushed and main where it was, and is reported with
# the ref and its reason; once the refusal is lifted the next publish adds the missing tag and
# main, and a clone verifies. The state a crash between the two pushes leaves (new tags, main
# where it was) is what a player's verify calls a publish not finished, and the next publish
# repairs it (docs/formats.md, "Publishing").
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

# The tags in one push; the hook refuses turn-0002: the others are in, the refusal is named,
# and main is not pushed: it never stands ahead of a tag the remote lacks.
expect 65 "$BIN" publish c "$URL"
has "$TMP/err" "refs/tags/turn-0002"
[ "$(pushes)" -eq 1 ] || die "$(pushes) pushes for a refused publish (one expected)"
[ "$(cat srv/remote.git/updated | tr '\n' ' ')" = "refs/tags/turn-0000 refs/tags/turn-0001 " ] \
    || die "refs updated as: $(cat srv/remote.git/updated | tr '\n' ' ')"
git --git-dir=srv/remote.git rev-parse -q --verify refs/heads/main >/dev/null && die "main pushed past a refused tag"
git --git-dir=srv/remote.git rev-parse -q --verify refs/tags/turn-0002 >/dev/null && die "a refused tag is there"

# The refusal lifted: the next publish adds the missing tag, then main (two pushes), nothing
# forced; a player's clone verifies.
rm srv/remote.git/no-turn-2
expect 0 "$BIN" publish c "$URL"
[ "$(pushes)" -eq 3 ] || die "$(pushes) pushes after two publishes (1 + 2 expected)"
[ "$(tail -n 2 srv/remote.git/updated | tr '\n' ' ')" = "refs/tags/turn-0002 refs/heads/main " ] \
    || die "refs updated as: $(cat srv/remote.git/updated | tr '\n' ' ')"
[ "$(git --git-dir=srv/remote.git rev-parse turn-0002)" = "$(git -C c rev-parse turn-0002)" ] || die "turn-0002 not repaired"
[ "$(git --git-dir=srv/remote.git rev-parse main)" = "$(git -C c rev-parse main)" ] || die "main not pushed"
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
