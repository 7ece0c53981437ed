# The Land Raid and NHiS demo campaigns show what they are there to show (their
# campaigns/NAME/demo-shows.txt): betio-seawall a Shaken US tank that rallies (tank-morale:
# nationality), a melee handed to the umpire and his ruling applied by an adjustment;
# harbour-raid, played sealed with its beacon values, groups shooting and assaulting, an
# order naming its group (§6), and an officer left alone who flees (§19).
. "$ROOT/tests/e2e/lib.sh"
new_campaign betio-seawall "$TMP/b"; play betio-seawall "$TMP/b"
demo_shows betio-seawall "$TMP/b"
new_campaign harbour-raid "$TMP/h"; play harbour-raid "$TMP/h"
grep -q '^visibility: sealed$' "$TMP/h/campaign.yaml" || die "harbour-raid's demo is not sealed"
demo_shows harbour-raid "$TMP/h"
