/* words.c — small pieces of English for messages and reports: a side called "austrians" has
 * the austrians' orders, not the austrians's. */
#include <string.h>

#include "core/words.h"
#include "core/banned.h"

const char *words_possessive(const char *name)
{
	size_t n = strlen(name);

	return n && (name[n - 1] == 's' || name[n - 1] == 'S') ? "'" : "'s";
}
