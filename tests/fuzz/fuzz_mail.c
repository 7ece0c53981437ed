/* fuzz_mail.c — a delivered message as `umpire inbox` reads it (GMime): the parser never
 * crashes, and what it takes as an order file is valid UTF-8 without NUL bytes, of the
 * length it says, with a reason whenever it takes none. */
#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "mail/mail.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mail_in m;

	if (size > 65536)
		return 0;
	if (mail_parse(&m, data, size) == 0) {
		if (m.orders) {
			if (strlen(m.orders) != m.orders_len ||
				!g_utf8_validate(m.orders, (gssize)m.orders_len, NULL) ||
				!m.orders_name)
				abort();
		} else if (!m.problem) {
			abort(); /* no orders and no reason to tell the sender */
		}
		mail_in_release(&m);
	}
	return 0;
}
