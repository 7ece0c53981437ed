/* fuzz_scenario.c — a scenario as `umpire init` reads it: parsed, turned into campaign.yaml
 * and read back, the rule system's initial state parsed and emitted. The target directory
 * is never usable (it holds a .git), so nothing is written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/campaign.h"
#include "fuzz.h"

static char *dir;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	dir = xasprintf("%s/in-use", fuzz_tmpdir());
	char *file = xasprintf("%s/.git", dir); /* in use: holds a .git */
	char *cmd = xasprintf("mkdir -p '%s' && : > '%s'", dir, file);
	if (system(cmd) != 0)
		abort();
	free(cmd);
	free(file);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct campaign_spec spec;
	struct campaign *c = NULL;
	struct diag d;

	memset(&spec, 0, sizeof(spec));
	spec.dir = dir;
	spec.scenario_name = "scenario.yaml";
	spec.scenario = data;
	spec.scenario_len = size;
	spec.chain_length = 4;
	spec.when = 1767225600;
	diag_init(&d);
	if (campaign_create(&c, &spec, &d) == 0)
		abort(); /* the directory is in use: creating must fail */
	diag_release(&d);
	return 0;
}
