/* fuzz_export.c — a journal export (journal/turn-NNNN.yaml) as verify and replay read it
 * from a clone (audit_parse_export). */
#include "core/audit.h"
#include "core/journal.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct journal_record *r = NULL;
	struct diag d;

	diag_init(&d);
	audit_parse_export(&r, NULL, "journal/turn-0001.yaml", data, size, &d);
	journal_record_free(r);
	diag_release(&d);
	return 0;
}
