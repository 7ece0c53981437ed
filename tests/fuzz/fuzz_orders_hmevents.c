/* fuzz_orders_hmevents.c — an order file for the horse-and-musket events's order parser (src/rules/hm-events/orders.c),
 * checked as `umpire check` checks it against aspenbach-1809 after its turn 1. Its corpus
 * (tests/fuzz/corpus/fuzz_orders_hmevents/) starts from the campaign's shipped order files, each with
 * `turn: 2` (the open turn), so that they reach the rule system's parser. */
#include <stdlib.h>

#include "core/campaign.h"
#include "fuzz.h"

FUZZ_ORDERS_TARGET("aspenbach-1809")
