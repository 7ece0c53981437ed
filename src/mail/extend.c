/* extend.c — `extend DURATION` by mail (extend.h): a player's extension, checked against his
 * budget and the deadline it moves, recorded as an override and announced to every player. */
#include <stdlib.h>
#include <string.h>

#include "mail/extend.h"
#include "core/campaign.h"
#include "core/error.h"
#include "core/pbem.h"
#include "core/schedule.h"
#include "mail/notify.h"
#include "core/banned.h"

int extend_request(struct campaign *c, int player, const char *command, long long now,
	struct buf *why, struct buf *granted)
{
	long long d;
	size_t n;

	if (!command || strncmp(command, "extend", 6) != 0 ||
		(command[6] != ' ' && command[6] != '\0'))
		return EXTEND_NOT;
	const char *arg = command + 6;
	while (*arg == ' ')
		arg++;
	if (player < 0) {
		buf_printf(why, "only a player may ask for more time, from one of his addresses\n");
		return EXTEND_REFUSED;
	}
	if (pbem_parse_duration(arg, &d) < 0 || d <= 0) {
		buf_printf(why,
			"'%s': 'extend DURATION' expected, like 'extend 24h' (90s, 45m, 12h, 2d)\n",
			command);
		return EXTEND_REFUSED;
	}
	if (c->entropy == CAMPAIGN_ENTROPY_NONE || !c->pbem.schedule.set ||
		c->pbem.schedule.extensions <= 0) {
		buf_printf(why,
			"campaign '%s' grants no extensions (its schedule.extensions is 0)\n",
			c->id);
		return EXTEND_REFUSED;
	}
	struct override o = { .kind = OVERRIDE_EXTEND,
		.turn = schedule_open_turn(c),
		.at = now,
		.shift = d,
		.player = xstrdup(c->players[player]),
		.reason = xasprintf("asked by mail") };
	if (schedule_add(c, &o) < 0) {
		override_release(&o);
		if (error_last()->klass != ERROR_INPUT)
			return -1;
		buf_printf(why, "%s (you have used %lld s of %lld s)\n", error_last()->message,
			schedule_extended(c, c->players[player]), c->pbem.schedule.extensions);
		error_clear();
		return EXTEND_REFUSED;
	}
	size_t k = c->pbem.n_overrides - 1;
	override_describe(granted, &c->pbem.overrides[k]);
	if (notify_override(c, k, now, &n) < 0)
		return -1;
	return EXTEND_GRANTED;
}
