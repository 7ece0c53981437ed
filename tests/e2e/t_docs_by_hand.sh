# docs/fairness.md, "Checking by hand": every ```sh block of the section runs with the tools a
# player has (sh, sha256sum, xxd, openssl, bc) and prints every value its comments promise
# (a comment's hex or decimal number after '#', or after '...='); a value edited in the page
# fails here.
. "$ROOT/tests/e2e/lib.sh"
awk '/^```/ { fence = !fence } /^## Checking by hand/ { on = 1; next } /^## / && !fence { on = 0 }
    on' "$ROOT/docs/fairness.md" > "$TMP/section.md"
awk -v dir="$TMP" '/^```sh$/ { n++; f = dir "/block" n ".sh"; inb = 1; next }
    /^```/ { inb = 0 } inb { print > f }' "$TMP/section.md"
# The order files the digest example reads: the "some-missing" vector's, as committed.
mkdir -p "$TMP/orders/turn-0003"
py=python3; [ -x /usr/bin/python3 ] && py=/usr/bin/python3
"$py" - "$ROOT/tests/vectors/fairness.json" "$TMP/orders/turn-0003" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
d = [d for d in v["orders_digest"] if d["name"] == "some-missing"][0]
for p in d["players"]:
    if p["file_hex"] is not None:
        open("%s/%s.yaml" % (sys.argv[2], p["id"]), "wb").write(bytes.fromhex(p["file_hex"]))
# The report the sealed-report example opens: the views vector's attacker report.
r = [i for i in v["views"][0]["items"] if (i["player"], i["item"]) == ("attacker", "report")][0]
open("%s/../../report.md" % sys.argv[2], "wb").write(bytes.fromhex(r["content_hex"]))
PY
n=0
for b in "$TMP"/block*.sh; do
    n=$((n + 1))
    (cd "$TMP" && sh "$b") > "$TMP/got" 2>&1 || { cat "$TMP/got" >&2; die "$(basename "$b") failed"; }
    # the promised values: the first word after '#' or '...=' on a line, when it is a number
    sed -n 's/.*\(#\|\.\.\.=\) *\([0-9a-f][0-9a-f]*\).*/\2/p' "$b" | while read -r want; do
        grep -q -- "$want" "$TMP/got" || { cat "$b" "$TMP/got" >&2; die "$(basename "$b") does not print $want"; }
    done
done
[ "$n" -ge 7 ] || die "only $n sh blocks found in Checking by hand"
