/* fuzz_dice.c — dice notation as umpire rulings give it ("3d6kh2+1"): the parser never
 * crashes, and what it accepts formats to a canonical notation that parses back the same. */
#include <stdlib.h>
#include <string.h>

#include "core/dice.h"
#include "fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dice_expr e, again;
	char err[200], canon[64], canon2[64];

	if (size > 256)
		return 0;
	char *text = fuzz_strndup(data, size);
	if (dice_expr_parse(&e, text, err, sizeof(err)) == 0) {
		dice_expr_format(&e, canon, sizeof(canon));
		if (dice_expr_parse(&again, canon, err, sizeof(err)) != 0)
			abort(); /* the canonical form must parse */
		dice_expr_format(&again, canon2, sizeof(canon2));
		if (strcmp(canon, canon2) != 0)
			abort(); /* and format to itself */
	}
	free(text);
	return 0;
}
