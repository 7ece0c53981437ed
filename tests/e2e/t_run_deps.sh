# t_run_deps.sh — a fresh machine has what the run path calls (issue 33): tools/check-run-deps
# (make lint) passes on this tree and fails, naming the program, the script and the package,
# on a copy whose run list lacks xxd (the demo beacon's); and a missing program stops the
# scripts at once with its own message: without xxd, tools/demo-play stops at tools/demo-beacon
# saying so, instead of handing umpire a wrong beacon value ("not SHA256 of the signature").
. "$ROOT/tests/e2e/lib.sh"

# --- The check, on this tree and on a copy whose run list lost xxd.
expect 0 python3 "$ROOT/tools/check-run-deps"
has "$TMP/out" "check-run-deps: ok"
mkdir r
cp -r "$ROOT/Makefile" "$ROOT/src" "$ROOT/tools" "$ROOT/schemas" r/
tar -C "$ROOT" --exclude=web/node_modules -cf - web | tar -C r -xf -   # make demo builds web
sed -i '/^xxd$/d' r/tools/install-deps
expect 1 python3 r/tools/check-run-deps
has "$TMP/out" "tools/demo-beacon:"
has "$TMP/out" "calls 'xxd' (/usr/bin/xxd, package xxd), which a fresh machine lacks after tools/install-deps run: add xxd to its run list"

# --- A PATH holding every program of this machine but xxd.
mkdir nox
for d in /usr/local/bin /usr/bin /usr/sbin; do
    for p in "$d"/*; do
        n=$(basename "$p")
        [ "$n" = xxd ] || [ -e "nox/$n" ] || ln -s "$p" "nox/$n"
    done
done
NOX=$TMP/nox
[ ! -e "$NOX/xxd" ] || die "xxd in the test's PATH"

# tools/demo-beacon alone: exit non-zero, nothing on stdout, the cause as its last word.
set +e
(cd "$ROOT" && PATH=$NOX tools/demo-beacon 7) >beacon.out 2>beacon.err
rc=$?
set -e
[ "$rc" -ne 0 ] || die "demo-beacon exited 0 without xxd"
[ ! -s beacon.out ] || { cat beacon.out; die "demo-beacon printed a value without xxd"; }
tail -n 1 beacon.err | grep -q "xxd: command not found" || { cat beacon.err; die "demo-beacon's error does not name xxd"; }

# A turn on the demo beacon: demo-play stops before umpire turn, with the same message.
HR=$ROOT/campaigns/harbour-raid
expect 0 "$BIN" init --visibility open c --scenario "$HR/scenario.yaml" --secret-file "$HR/demo.secret" --demo-beacon
set +e
(cd "$ROOT" && PATH=$NOX tools/demo-play "$BIN" harbour-raid "$TMP/c" 1) >play.out 2>play.err
rc=$?
set -e
[ "$rc" -ne 0 ] || die "demo-play exited 0 without xxd"
tail -n 1 play.err | grep -q "xxd: command not found" || { cat play.err; die "demo-play's last error is not the missing xxd"; }
! grep -q "SHA256\|SHA-256\|beacon value" play.err || { cat play.err; die "umpire was handed a wrong beacon value"; }
expect 0 "$BIN" status c
! grep -q "turn 1 resolved\|after turn 1" "$TMP/out" || die "turn 1 was resolved without a beacon"
echo "ok: the run path's programs are in the run list; a missing one stops the scripts with its name"
