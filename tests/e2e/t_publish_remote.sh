# t_publish_remote.sh — `umpire publish` to a real remote over the git protocol: a bare
# repository served by `git daemon` (git's own receive-pack, so the remote's hooks run), as a
# git host serves it. Every tag goes in one push (one connection, one pack; counted in the
# daemon's log), then main in a second, only once the remote took every tag: a remote hook
# that refuses one tag leaves the others pushed and main where it was, and is reported with
# the ref and its reason; once the refusal is lifted the next publish adds the missing tag and
# main, and a clone verifies. The state a crash between the two pushes leaves (new tags, main
# where it was) is what a player's verify calls a publish not finished, and the next publish
# repairs it (docs/formats.md, "Publishing"). A remote that keeps silent (a hook that sleeps,
# a server that accepts and never answers) is given up after the idle or connect timeout
# (exit 75, set to 1 s here), and the next publish converges.
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
silent=""
trap 'kill $daemon $silent 2>/dev/null || true' EXIT
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
expect 3 "$BIN" verify clone2
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
expect 3 "$BIN" verify clone3
has "$TMP/out" "note: tags turn-0003 to turn-0003 are ahead of main, which ends at turn 2 (commit $(git -C c rev-parse turn-0002)) and leads to them: a publish that has not finished"
has "$TMP/out" "verify: ok: campaign harbour-raid (sealed, not yet revealed): 2 turns"
expect 0 "$BIN" publish c "$URL"
[ "$(git --git-dir=srv/remote.git rev-parse main)" = "$(git -C c rev-parse main)" ] || die "main not finished"
git -C clone3 pull -q --ff-only
expect 3 "$BIN" verify clone3

# A remote that keeps silent after the pack (issue 25, item 7): a pre-receive hook that sleeps
# while the file slow exists. Past the idle timeout (60 s by default, 1 s here) publish stops
# the push and exits 75; once the hook has run and the remote is done with that push, the
# next publish converges and a clone verifies.
expect 0 "$BIN" turn c "$HR/orders/turn-0004/"*.yaml
cat > srv/remote.git/hooks/pre-receive <<'HOOK'
#!/bin/sh
cat >/dev/null
i=0
while [ -e "$GIT_DIR/slow" ] && [ $i -lt 1200 ]; do sleep 0.1; i=$((i + 1)); done
touch "$GIT_DIR/hook-ran"
HOOK
chmod +x srv/remote.git/hooks/pre-receive
touch srv/remote.git/slow
UMPIRE_PUSH_IDLE_TIMEOUT=1; export UMPIRE_PUSH_IDLE_TIMEOUT
expect 75 "$BIN" publish c "$URL"
unset UMPIRE_PUSH_IDLE_TIMEOUT
has "$TMP/err" "did not answer for 1 s while pushing: the push was stopped"
[ ! -e srv/remote.git/hook-ran ] || die "the hook finished before the timeout: nothing was timed out"
rm srv/remote.git/slow
# the remote finishes that push on its own: its hook runs, its receive-pack ends
i=0; until [ -e srv/remote.git/hook-ran ] || [ $i -ge 600 ]; do sleep 0.1; i=$((i + 1)); done
[ -e srv/remote.git/hook-ran ] || die "the remote's hook never ran"
# every connection the daemon took has ended (its log says "[PID] Disconnected" for each)
open_conns() { echo $(( $(grep -c "Connection from" daemon.log) - $(grep -c "Disconnected" daemon.log) )); }
i=0; until [ "$(open_conns)" -eq 0 ] || [ $i -ge 600 ]; do sleep 0.1; i=$((i + 1)); done
expect 0 "$BIN" publish c "$URL"
[ "$(git --git-dir=srv/remote.git rev-parse main)" = "$(git -C c rev-parse main)" ] || die "main not pushed after the timeout"
[ "$(git --git-dir=srv/remote.git rev-parse turn-0004)" = "$(git -C c rev-parse turn-0004)" ] || die "turn-0004 not pushed after the timeout"
git clone -q "$URL" clone4
expect 3 "$BIN" verify clone4

# A server that accepts the connection and never answers: past the connect timeout (30 s by
# default, 1 s here) publish exits 75.
port2=$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
/usr/bin/python3 -c '
import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(4)
open(sys.argv[2], "w").close()
conns = []
while True:
    c, _ = s.accept(); conns.append(c)
' "$port2" listening &
silent=$!
i=0; until [ -e listening ] || [ $i -ge 100 ]; do sleep 0.1; i=$((i + 1)); done
UMPIRE_PUSH_CONNECT_TIMEOUT=1; export UMPIRE_PUSH_CONNECT_TIMEOUT
expect 75 "$BIN" publish c "git://127.0.0.1:$port2/remote.git"
unset UMPIRE_PUSH_CONNECT_TIMEOUT
has "$TMP/err" "did not answer for 1 s while connecting: the push was stopped"
