/* fuzz_receipt.c — a receipt as `umpire verify --receipt` reads it: a saved mail (GMime) or
 * the bare text, then the receipt format (core/receipt.c). Neither crashes; a receipt read
 * back is complete (its campaign and player set, a close receipt's commit id set), and one
 * written again from what was read parses to the same fields. */
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/receipt.h"
#include "mail/mail.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static void one_text(const char *text, size_t len)
{
	struct buf b = BUF_INIT;
	struct receipt r;
	struct diag d;

	diag_init(&d);
	buf_append(&b, text, len);
	if (receipt_parse(&r, "fuzz", &b, &d) == 0) {
		if (!r.campaign || !r.player || r.turn < 1 ||
			(r.kind == RECEIPT_CLOSE && !r.close_commit))
			abort();
		if (r.kind == RECEIPT_REVEAL) {
			struct buf again = BUF_INIT;
			struct receipt back;
			receipt_reveal(&again, r.campaign, r.turn, r.player, r.nonce);
			if (receipt_parse(&back, "again", &again, &d) != 0 ||
				memcmp(back.nonce, r.nonce, sizeof r.nonce) != 0 ||
				strcmp(back.player, r.player) != 0)
				abort();
			receipt_release(&back);
			buf_release(&again);
		}
		receipt_release(&r);
	}
	diag_release(&d);
	buf_release(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mail_saved m;

	if (size > 65536)
		return 0;
	one_text((const char *)data, size);
	if (mail_saved_parse(&m, data, size) == 0) {
		long at = receipt_find(m.text, m.text_len);
		if (strlen(m.text) != m.text_len || at > (long)m.text_len)
			abort();
		if (at >= 0)
			one_text(m.text + at, m.text_len - (size_t)at);
		mail_saved_release(&m);
	}
	return 0;
}
