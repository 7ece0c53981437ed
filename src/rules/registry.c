/* registry.c — the static table of rule systems. Adding a rule system means one extern
 * line and one table entry here; the core never names a game. */
#include <string.h>
#include "rules/rules.h"
#include "core/suggest.h"
#include "core/banned.h"

extern const struct rule_system rules_land_raid;
extern const struct rule_system rules_nhis;
extern const struct rule_system rules_hm_events;
extern const struct rule_system rules_warmaster;
extern const struct rule_system rules_reivers;

const struct rule_system *const rules_registry[] = {
	&rules_land_raid,
	&rules_nhis,
	&rules_hm_events,
	&rules_warmaster,
	&rules_reivers,
	NULL,
};

const struct rule_system *rules_find(const char *name)
{
	for (size_t i = 0; rules_registry[i]; i++)
		if (strcmp(rules_registry[i]->name, name) == 0)
			return rules_registry[i];
	return NULL;
}

void rules_suggest(struct buf *out, const char *name)
{
	const char *names[sizeof(rules_registry) / sizeof(rules_registry[0])];
	size_t n = 0;

	while (rules_registry[n]) {
		names[n] = rules_registry[n]->name;
		n++;
	}
	suggest_append(out, name, names, n, n);
}
