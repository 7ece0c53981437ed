/* fuzz_orders_nhis.c — an order file for NHiS's order parser (src/rules/nhis/orders.c),
 * checked as `umpire check` checks it against betio-seawall after its turn 1. Its corpus
 * (tests/fuzz/corpus/fuzz_orders_nhis/) starts from the campaign's shipped order files, each with
 * `turn: 2` (the open turn), so that they reach the rule system's parser. */
#include <stdlib.h>

#include "core/campaign.h"
#include "fuzz.h"

FUZZ_ORDERS_TARGET("betio-seawall")
