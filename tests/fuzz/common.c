/* common.c — what the fuzz targets share (fuzz.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/campaign.h"
#include "core/file.h"
#include "core/turn.h"
#include "fuzz.h"

static char tmp[64];

char *fuzz_strndup(const uint8_t *data, size_t size)
{
	char *s = xmalloc(size + 1);

	if (size)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

static void remove_tmp(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		fprintf(stderr, "fuzz: cannot remove %s\n", tmp);
}

const char *fuzz_tmpdir(void)
{
	if (!tmp[0]) {
		snprintf(tmp, sizeof(tmp), "/tmp/umpire-fuzz-XXXXXX");
		if (!mkdtemp(tmp))
			abort();
		atexit(remove_tmp);
	}
	return tmp;
}

const char *fuzz_root(void)
{
	const char *r = getenv("UMPIRE_ROOT");

	return r && *r ? r : ".";
}

static char *slurp(const char *path, size_t *len)
{
	struct buf b = BUF_INIT;

	if (file_read(path, 1 << 20, &b) < 0)
		abort();
	*len = b.len;
	return buf_detach(&b);
}

struct campaign *fuzz_mid_game(const char *name)
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
			continue; /* round.txt: the demo's beacon round, not an order file */
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

void fuzz_check_orders(struct campaign *c, const uint8_t *data, size_t size)
{
	struct turn t;

	if (size > ORDER_FILE_MAX_BYTES)
		return;
	turn_init(&t, c, TURN_LIVE, TURN_CHECK_ONLY, NULL, NULL, NULL);
	turn_add_order_bytes(&t, "orders.yaml", data, size);
	turn_run(&t, "load", "orders");
	turn_release(&t);
}
