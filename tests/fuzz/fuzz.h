/* fuzz.h — what every fuzz target defines (libFuzzer's interface) and what the targets
 * share. A target is built twice: with clang's libFuzzer for `make fuzz`, and with driver.c
 * (a plain main that feeds it each file of its committed corpus) for `make test`. */
#ifndef UMPIRE_FUZZ_H
#define UMPIRE_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* One input; returns 0. A crash, a sanitizer report or abort() is a finding. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* Called once before the first input. */
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* A NUL-terminated copy of data (free it). */
char *fuzz_strndup(const uint8_t *data, size_t size);
/* A new temporary directory for this process, removed at exit. */
const char *fuzz_tmpdir(void);
/* The repository's root (the shipped campaigns): $UMPIRE_ROOT, else ".". */
const char *fuzz_root(void);

struct campaign;
/* The shipped campaign name (campaigns/NAME under fuzz_root), created in fuzz_tmpdir and played
 * to the end of its turn 1 with its shipped orders; aborts when it cannot. Close it with
 * campaign_close. */
struct campaign *fuzz_mid_game(const char *name);
/* data as an order file checked as `umpire check` checks it (the turn pipeline's load..orders)
 * against c; files over ORDER_FILE_MAX_BYTES are skipped. */
void fuzz_check_orders(struct campaign *c, const uint8_t *data, size_t size);

/* The whole of a rule system's order-parser target (fuzz_orders_NAME.c): the campaign NAME
 * of campaigns/ after its turn 1 (fuzz_mid_game), each input checked as its order file for
 * turn 2 (fuzz_check_orders). */
#define FUZZ_ORDERS_TARGET(campaign_name) \
	static struct campaign *fuzz_game; \
	static void fuzz_close_game(void) \
	{ \
		campaign_close(fuzz_game); \
	} \
	int LLVMFuzzerInitialize(int *argc, char ***argv) \
	{ \
		(void)argc; \
		(void)argv; \
		fuzz_game = fuzz_mid_game(campaign_name); \
		atexit(fuzz_close_game); \
		return 0; \
	} \
	int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) \
	{ \
		fuzz_check_orders(fuzz_game, data, size); \
		return 0; \
	}

#endif
