/* fuzz_campaign.c — campaign.yaml as every command reads it from git (campaign_parse). */
#include <stdlib.h>

#include "core/campaign.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct campaign *c = xcalloc(1, sizeof(*c));
	struct buf bytes = BUF_INIT;
	struct diag d;

	c->lock_fd = c->readers_fd = -1;
	buf_append(&bytes, data, size);
	diag_init(&d);
	campaign_parse(c, "campaign.yaml", &bytes, &d);
	diag_release(&d);
	buf_release(&bytes);
	campaign_close(c);
	return 0;
}
