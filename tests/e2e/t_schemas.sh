# The shipped scenarios and order files, and an initialised campaign.yaml, validate against
# the JSON Schemas in schemas/, and so do the close files of two closed turns.
. "$ROOT/tests/e2e/lib.sh"
new_campaign harbour-raid "$TMP/c"; play harbour-raid "$TMP/c" 2
py=python3; [ -x /usr/bin/python3 ] && py=/usr/bin/python3
expect 0 "$py" "$ROOT/tools/check-schemas.py" "$TMP/c"; has "$TMP/out" "valid"
# and a broken file is caught (the check can fail)
mkdir -p "$TMP/x"; printf 'id: UPPER CASE\nrules: chess\n' > "$TMP/x/campaign.yaml"
expect 1 "$py" "$ROOT/tools/check-schemas.py" "$TMP/x"
