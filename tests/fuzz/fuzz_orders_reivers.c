/* fuzz_orders_reivers.c — an order file for Border Reivers's order parser (src/rules/reivers/orders.c),
 * checked as `umpire check` checks it against bewcastle-fray after its turn 1. Its corpus
 * (tests/fuzz/corpus/fuzz_orders_reivers/) starts from the campaign's shipped order files, each with
 * `turn: 2` (the open turn), so that they reach the rule system's parser. */
#include <stdlib.h>

#include "core/campaign.h"
#include "fuzz.h"

FUZZ_ORDERS_TARGET("bewcastle-fray")
