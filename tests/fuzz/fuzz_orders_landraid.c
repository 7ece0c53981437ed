/* fuzz_orders_landraid.c — an order file for Land Raid's order parser (src/rules/land-raid/orders.c),
 * checked as `umpire check` checks it against harbour-raid after its turn 1. Its corpus
 * (tests/fuzz/corpus/fuzz_orders_landraid/) starts from the campaign's shipped order files, each with
 * `turn: 2` (the open turn), so that they reach the rule system's parser. */
#include <stdlib.h>

#include "core/campaign.h"
#include "fuzz.h"

FUZZ_ORDERS_TARGET("harbour-raid")
