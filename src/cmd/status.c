/* status.c — `umpire status`: the open turn of a game by mail: its deadline, who is due, who
 * has sent (when, which file), who is missing, whether it is closed. As text, or as JSON
 * (jansson) for scripts and web pages. */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/timelock.h"
#include "core/campaign.h"
#include "core/missed.h"
#include "mail/inbox.h"
#include "mail/outbox.h"
#include "core/clock.h"
#include "core/banned.h"

static const char status_help[] =
	"usage: umpire status DIR [--json]\n\n"
	"The open turn of the campaign in DIR: its deadline and grace (schedule: in\n"
	"campaign.yaml), whether it is closed, and for each player whether he is due, has sent\n"
	"orders by mail (when the accepted mail arrived, the SHA-256 of his current file) or is\n"
	"missing; a turn closed under entropy players, whose nonces are still to come and until\n"
	"when umpire run waits for them; then the messages waiting in the outbox and those the\n"
	"server refused for good. Once the game is over (the rule system ends it, the key chain\n"
	"is used up, or the campaign is revealed) it says so and why. --json prints one JSON\n"
	"object.\n"
	"The time compared with the deadline is $SOURCE_DATE_EPOCH when set, else the clock.\n";

static json_t *utc_or_null(long long t)
{
	char s[32];
	if (t < 0)
		return json_null();
	pbem_format_utc(s, sizeof(s), t);
	return json_string(s);
}

static const char *phase(const struct inbox_status *s, long long now)
{
	if (s->game_over)
		return "game over";
	if (s->closed)
		return "closed";
	if (s->deadline >= 0 && now > s->grace_end)
		return "open, past the deadline and grace";
	if (s->deadline >= 0 && now > s->deadline)
		return "open, in the grace period";
	return "open";
}

static void print_json(const struct campaign *c, const struct inbox_status *s, long long now,
	const struct missed *m)
{
	json_t *o = json_object(), *players = json_array();
	json_t *lists[3] = { json_array(), json_array(), json_array() }; /* due, sent, missing */
	char hex[65];

	json_object_set_new(o, "campaign", json_string(c->id));
	json_object_set_new(o, "turn", json_integer(s->turn));
	json_object_set_new(o, "phase", json_string(phase(s, now)));
	json_object_set_new(o, "closed", json_boolean(s->closed));
	json_object_set_new(o, "game_over", json_boolean(s->game_over));
	json_object_set_new(o, "over", s->over ? json_string(s->over) : json_null());
	json_object_set_new(o, "result", s->result ? json_string(s->result) : json_null());
	json_object_set_new(o, "winner", s->winner ? json_string(s->winner) : json_null());
	json_object_set_new(o, "revealed", json_boolean(s->revealed));
	json_object_set_new(o, "now", utc_or_null(now));
	json_object_set_new(o, "deadline", utc_or_null(s->deadline));
	json_object_set_new(o, "grace_end", utc_or_null(s->grace_end));
	for (size_t i = 0; i < s->n_players; i++) {
		const struct inbox_player_status *p = &s->players[i];
		json_t *j = json_object();
		json_object_set_new(j, "id", json_string(p->player));
		json_object_set_new(j, "due", json_boolean(p->due));
		json_object_set_new(j, "sent", json_boolean(p->sent));
		hex_encode(hex, p->sha256, FAIR_HASH_BYTES);
		json_object_set_new(j, "orders_sha256", p->sent ? json_string(hex) : json_null());
		json_object_set_new(j, "sent_at", p->sent ? utc_or_null(p->sent_at) : json_null());
		json_object_set_new(j, "submissions", json_integer((json_int_t)p->submissions));
		const struct missed *pm = missed_find(m, c, p->player);
		json_object_set_new(j, "missed_in_row", json_integer(pm ? pm->in_row : 0));
		json_object_set_new(j, "missed_total", json_integer(pm ? pm->total : 0));
		json_object_set_new(j, "civil_disorder", json_boolean(pm && pm->disorder));
		json_array_append_new(players, j);
		if (p->due)
			json_array_append_new(lists[0], json_string(p->player));
		if (p->sent)
			json_array_append_new(lists[1], json_string(p->player));
		if (p->due && !p->sent)
			json_array_append_new(lists[2], json_string(p->player));
	}
	json_object_set_new(o, "players", players);
	json_object_set_new(o, "due", lists[0]);
	json_object_set_new(o, "sent", lists[1]);
	json_object_set_new(o, "missing", lists[2]);
	json_object_set_new(o, "outbox", json_integer((json_int_t)s->pending_mail));
	json_object_set_new(o, "outbox_failed",
		json_integer((json_int_t)outbox_count(c, "failed")));
	if (s->reveals) {
		json_t *who = json_array();
		for (const char *p = s->unrevealed; *p;) {
			size_t n = strcspn(p, ",");
			json_array_append_new(who, json_stringn(p, n));
			p += n;
			p += strspn(p, ", ");
		}
		json_object_set_new(o, "unrevealed", who);
		json_object_set_new(o, "reveal_end", utc_or_null(s->reveal_end));
	}
	struct buf why = BUF_INIT;
	json_object_set_new(o, "not_provably_fair",
		campaign_unproven(c, &why) ? json_string(buf_str(&why)) : json_null());
	buf_release(&why);
	char *text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (text)
		printf("%s\n", text);
	free(text);
	json_decref(o);
}

static void print_text(const struct campaign *c, const struct inbox_status *s, long long now,
	const struct missed *m)
{
	char when[32], hex[65];

	if (s->game_over) {
		printf("campaign %s: the game is over (%s) after turn %d\n", c->id, s->over,
			s->turn - 1);
		printf("result: %s\n", s->result);
		if (c->visibility == CAMPAIGN_SEALED && !s->revealed)
			printf("sealed: 'umpire reveal %s' publishes what the turns withheld\n",
				c->dir);
	} else {
		printf("campaign %s, turn %d: %s\n", c->id, s->turn, phase(s, now));
	}
	struct buf why = BUF_INIT;
	if (campaign_unproven(c, &why))
		printf("not provably fair: %s\n", buf_str(&why));
	buf_release(&why);
	if (s->deadline >= 0) {
		pbem_format_utc(when, sizeof(when), s->deadline);
		printf("deadline %s", when);
		pbem_format_utc(when, sizeof(when), s->grace_end);
		printf(", grace until %s\n", when);
	} else {
		printf("no deadline (no schedule in campaign.yaml)\n");
	}
	if (!s->over) {
		struct buf tl = BUF_INIT;
		timelock_note(&tl, c, s->turn, 0);
		fputs(buf_str(&tl), stdout);
		buf_release(&tl);
	}
	for (size_t i = 0; i < s->n_players; i++) {
		const struct inbox_player_status *p = &s->players[i];
		printf("  %-16s %-8s ", p->player, p->due ? "due" : "not due");
		if (p->sent) {
			hex_encode(hex, p->sha256, FAIR_HASH_BYTES);
			pbem_format_utc(when, sizeof(when), p->sent_at);
			printf("sent %s orders_sha256 %.16s...\n", p->sent_at ? when : "?", hex);
		} else {
			printf("%s\n", p->due ? "missing" : "-");
		}
	}
	if (missed_any(m, c->n_players)) {
		struct buf line = BUF_INIT;
		for (size_t i = 0; i < c->n_players; i++)
			if (m[i].total) {
				buf_printf(&line, "%s%s ", line.len ? "; " : "", c->players[i]);
				missed_describe(&line, &m[i]);
			}
		printf("missed turns: %s\n", buf_str(&line));
		buf_release(&line);
	}
	if (s->reveals && s->n_unrevealed) {
		pbem_format_utc(when, sizeof(when), s->reveal_end);
		printf("reveals: waiting for the nonces of %s%s%s\n", s->unrevealed,
			s->reveal_end >= 0 ? " until " : "", s->reveal_end >= 0 ? when : "");
	} else if (s->reveals) {
		printf("reveals: every committed nonce is in\n");
	}
	printf("outbox: %zu message%s waiting\n", s->pending_mail, s->pending_mail == 1 ? "" : "s");
	size_t failed = outbox_count(c, "failed");
	if (failed)
		printf("outbox: %zu message%s refused for good by the server (umpire outbox %s)\n",
			failed, failed == 1 ? "" : "s", c->dir);
}

int cmd_status(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int ch, json = 0;

	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (ch == 'h') {
			fputs(status_help, stdout);
			return EXIT_OK;
		}
		if (ch != 'j')
			return cmd_usage_see("status");
		json = 1;
	}
	static const char *const operands[] = { "DIR (the campaign folder)" };
	if (cmd_operands("status", argc - optind, argv + optind, operands, 1, 1) != EXIT_OK)
		return EXIT_USAGE;
	struct campaign *c = NULL;
	if (campaign_open(&c, argv[optind], CAMPAIGN_JOURNAL) < 0)
		return cmd_error("umpire");
	struct inbox_status s;
	int code = EXIT_OK;
	long long now = clock_now();
	struct missed *m = xcalloc(c->n_players + 1, sizeof(*m));
	if (inbox_status(c, &s) < 0 || missed_count(m, c, s.turn) < 0)
		code = cmd_error("umpire status");
	else if (json)
		print_json(c, &s, now, m);
	else
		print_text(c, &s, now, m);
	free(m);
	inbox_status_release(&s);
	campaign_close(c);
	return code;
}
