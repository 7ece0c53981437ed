/* fuzz_orders.c — an order file checked as `check` and `turn` check it, against a mid-game
 * state of every shipped rule system: the first byte picks the campaign, modulo their number
 * (0 Land Raid's harbour-raid, 1 NHiS's betio-seawall, 2 Border Reivers' bewcastle-fray,
 * 3 Warmaster's karak-gate, 4 the horse-and-musket events' aspenbach-1809, each after its
 * turn 1), the rest is the file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/campaign.h"
#include "core/turn.h"
#include "fuzz.h"

struct game {
	const char *name;
	struct campaign *c;
};
static struct game games[] = { { "harbour-raid", NULL }, { "betio-seawall", NULL },
	{ "bewcastle-fray", NULL }, { "karak-gate", NULL }, { "aspenbach-1809", NULL } };
#define N_GAMES (sizeof(games) / sizeof(games[0]))

static char *slurp(const char *path, size_t *len)
{
	struct buf b = BUF_INIT;

	if (file_read(path, 1 << 20, &b) < 0)
		abort();
	*len = b.len;
	return buf_detach(&b);
}

/* The shipped campaign name, created and played to the end of turn 1. */
static struct campaign *mid_game(const char *name)
{
	struct campaign_spec spec;
	struct campaign *c = NULL;
	struct diag d;
	struct turn t;
	char *path = xasprintf("%s/campaigns/%s/scenario.yaml", fuzz_root(), name);
	size_t len;
	char *scen = slurp(path, &len);

	memset(&spec, 0, sizeof(spec));
	spec.dir = xasprintf("%s/%s", fuzz_tmpdir(), name);
	spec.scenario_name = "scenario.yaml";
	spec.scenario = scen;
	spec.scenario_len = len;
	spec.chain_length = 16;
	spec.when = 1767225600;
	memset(spec.secret, 7, sizeof(spec.secret));
	diag_init(&d);
	if (campaign_create(&c, &spec, &d) < 0)
		abort();
	diag_release(&d);
	turn_init(&t, c, TURN_LIVE, TURN_ALLOW_MISSING, NULL, NULL, NULL);
	t.when = 1767225600;
	free(path);
	path = xasprintf("%s/campaigns/%s/orders/turn-0001", fuzz_root(), name);
	char *cmd = xasprintf("ls '%s'", path);
	FILE *ls = popen(cmd, "r");
	char line[256];
	while (ls && fgets(line, sizeof(line), ls)) {
		line[strcspn(line, "\n")] = '\0';
		size_t n = strlen(line);
		if (n < 5 || strcmp(line + n - 5, ".yaml") != 0)
			continue; /* beacon.txt: the demo's beacon value, not an order file */
		char *f = xasprintf("%s/%s", path, line);
		/* umpire.yaml is the umpire's rulings, given as such (as --rulings does). */
		if (strcmp(line, "umpire.yaml") == 0)
			turn_add_rulings_file(&t, f);
		else
			turn_add_order_file(&t, f);
		free(f);
	}
	if (!ls || pclose(ls) != 0 || turn_run(&t, "recover", "publish") != 0)
		abort();
	turn_release(&t);
	free(cmd);
	free(path);
	free(scen);
	free((char *)spec.dir);
	return c;
}

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
		games[i].c = mid_game(games[i].name);
	atexit(close_games);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct turn t;

	if (size < 1 || size > ORDER_FILE_MAX_BYTES + 1)
		return 0;
	turn_init(&t, games[data[0] % N_GAMES].c, TURN_LIVE, TURN_CHECK_ONLY, NULL, NULL, NULL);
	turn_add_order_bytes(&t, "orders.yaml", data + 1, size - 1);
	turn_run(&t, "load", "orders");
	turn_release(&t);
	return 0;
}
