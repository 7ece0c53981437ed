/* log_umpire.c — `umpire log DIR --umpire [--json]`: every override of the umpire's in one
 * place (issue 37 item 4): rulings, adjustments, turns closed without a player, extensions,
 * pauses, resumes and stand-ins, with the turn and the reason given, from what a clone holds
 * (core/overrides.h), and the open turn's not yet committed on the umpire's own copy. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/cmd.h"
#include "core/campaign.h"
#include "core/escape.h"
#include "core/overrides.h"
#include "core/pbem.h"
#include "core/turn.h"
#include "core/banned.h"

static void print_text(const struct override_item *v, size_t n)
{
	struct buf a = BUF_INIT, b = BUF_INIT;

	for (size_t i = 0; i < n; i++) {
		buf_clear(&a);
		buf_clear(&b);
		escape_terminal(&a, v[i].text);
		escape_terminal(&b, v[i].reason);
		printf("turn %d: %s%s%s\n", v[i].turn, buf_str(&a), *v[i].reason ? ": " : "",
			buf_str(&b));
	}
	if (!n)
		printf("no overrides\n");
	buf_release(&a);
	buf_release(&b);
}

static int print_json(const struct override_item *v, size_t n)
{
	json_t *arr = json_array();
	char when[32];

	for (size_t i = 0; i < n; i++) {
		json_t *o = json_object();
		json_object_set_new(o, "turn", json_integer(v[i].turn));
		json_object_set_new(o, "kind", json_string(v[i].kind));
		json_object_set_new(o, "player",
			v[i].player ? json_string(v[i].player) : json_null());
		if (v[i].at >= 0)
			pbem_format_utc(when, sizeof when, v[i].at);
		json_object_set_new(o, "at", v[i].at >= 0 ? json_string(when) : json_null());
		json_object_set_new(o, "text", json_string(v[i].text));
		json_object_set_new(o, "reason", json_string(v[i].reason));
		json_array_append_new(arr, o);
	}
	char *s = json_dumps(arr, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
	json_decref(arr);
	if (!s)
		return EXIT_SOFTWARE;
	printf("%s\n", s);
	free(s);
	return EXIT_OK;
}

int cmd_log_umpire(const char *dir, int turn, int json)
{
	struct campaign *c = NULL;
	struct override_item *v = NULL;
	size_t n = 0;
	int rc = EXIT_OK;

	if (campaign_open(&c, dir, 0) < 0)
		return cmd_error("umpire");
	for (int t = turn < 0 ? 1 : turn; t <= (turn < 0 ? TURN_MAX : turn); t++) {
		int r = overrides_of_committed(c, t, &v, &n);
		if (r == ERROR_NOTFOUND)
			break; /* the open turn's, made and not yet committed, are in */
		if (r < 0) {
			rc = cmd_error("umpire log");
			break;
		}
	}
	if (rc == EXIT_OK)
		rc = json ? print_json(v, n) : (print_text(v, n), EXIT_OK);
	overrides_free(v, n);
	campaign_close(c);
	return rc;
}
