/* fuzz_export.c — a journal export (journal/turn-NNNN.yaml) as verify and replay read it
 * from a clone (audit_parse_export): each input read twice, without a campaign and against
 * a fresh harbour-raid campaign (so the checks of `campaign`, `rules` and `orders` run). */
#include <stdlib.h>
#include <string.h>

#include "core/audit.h"
#include "core/campaign.h"
#include "core/file.h"
#include "core/journal.h"
#include "fuzz.h"

static struct campaign *harbour;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct campaign_spec spec;
	struct buf scen = BUF_INIT;
	struct diag d;
	char *path = xasprintf("%s/campaigns/harbour-raid/scenario.yaml", fuzz_root());

	(void)argc;
	(void)argv;
	if (file_read(path, 1 << 20, &scen) < 0)
		abort();
	memset(&spec, 0, sizeof(spec));
	spec.dir = xasprintf("%s/harbour-raid", fuzz_tmpdir());
	spec.scenario_name = "scenario.yaml";
	spec.scenario = scen.data;
	spec.scenario_len = scen.len;
	spec.chain_length = 16;
	spec.when = 1767225600;
	memset(spec.secret, 7, sizeof(spec.secret));
	diag_init(&d);
	if (campaign_create(&harbour, &spec, &d) < 0)
		abort();
	diag_release(&d);
	buf_release(&scen);
	free((char *)spec.dir);
	free(path);
	return 0;
}

static void parse(const struct campaign *c, const void *bytes, size_t size)
{
	struct journal_record *r = NULL;
	struct diag d;

	diag_init(&d);
	audit_parse_export(&r, c, "journal/turn-0001.yaml", bytes, size, &d);
	journal_record_free(r);
	diag_release(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* audit_read_export hands over "" for an empty blob, never NULL; the driver's buffer for
	 * an empty file is NULL: an empty input reaches the reader as it does in verify. */
	const void *bytes = data && size ? (const void *)data : (const void *)"";

	parse(NULL, bytes, size);
	parse(harbour, bytes, size);
	return 0;
}
