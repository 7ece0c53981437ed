/* fuzz_orders.c — an order file checked as `check` and `turn` check it, against a mid-game
 * state of every shipped rule system: the first byte picks the campaign, modulo their number
 * (0 Land Raid's harbour-raid, 1 NHiS's betio-seawall, 2 Border Reivers' bewcastle-fray,
 * 3 Warmaster's karak-gate, 4 the horse-and-musket events' aspenbach-1809, each after its
 * turn 1), the rest is the file. Each rule system also has a target of its own
 * (fuzz_orders_NAME.c) whose corpus is its campaign's shipped order files. */
#include <stdlib.h>

#include "core/campaign.h"
#include "fuzz.h"

struct game {
	const char *name;
	struct campaign *c;
};
static struct game games[] = { { "harbour-raid", NULL }, { "betio-seawall", NULL },
	{ "bewcastle-fray", NULL }, { "karak-gate", NULL }, { "aspenbach-1809", NULL } };
#define N_GAMES (sizeof(games) / sizeof(games[0]))

static void close_games(void)
{
	for (size_t i = 0; i < N_GAMES; i++)
		campaign_close(games[i].c);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	for (size_t i = 0; i < N_GAMES; i++)
		games[i].c = fuzz_mid_game(games[i].name);
	atexit(close_games);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size >= 1)
		fuzz_check_orders(games[data[0] % N_GAMES].c, data + 1, size - 1);
	return 0;
}
