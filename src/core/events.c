/* events.c — the ordered list of what happened in a turn. Each event copies its phase,
 * player and text so callers may pass temporaries; first_die ties it to the dice drawn
 * from that point on, so reports can show the rolls beside the narrative. */
#include "core/events.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/dice.h"
#include "core/banned.h"

const char *event_kind_name(enum event_kind kind)
{
	return kind == EVENT_VOID ? "void" : "event";
}

int events_is_no_orders(const char *text, const char *player)
{
	static const char prefix[] = "no orders from ";

	return strncmp(text, prefix, sizeof prefix - 1) == 0 &&
	       strcmp(text + sizeof prefix - 1, player) == 0;
}

void events_init(struct events *e)
{
	memset(e, 0, sizeof(*e));
}

void events_release(struct events *e)
{
	for (size_t i = 0; i < e->n; i++) {
		free(e->v[i].phase);
		free(e->v[i].player);
		free(e->v[i].text);
	}
	free(e->v);
	memset(e, 0, sizeof(*e));
}

static struct event *events_push(struct events *e, enum event_kind kind, const char *phase,
	const char *fmt, va_list ap)
{
	if (e->n == e->cap) {
		e->cap = e->cap ? e->cap * 2 : 16;
		e->v = xrealloc(e->v, e->cap * sizeof(*e->v));
	}
	struct event *ev = &e->v[e->n++];
	struct buf text = BUF_INIT;
	buf_vprintf(&text, fmt, ap);
	/* An event is one line of a report; a stray newline would break the layout. */
	for (size_t i = 0; i < text.len; i++)
		if (text.data[i] == '\n' || text.data[i] == '\r')
			text.data[i] = ' ';
	ev->kind = kind;
	ev->phase = xstrdup(phase ? phase : "");
	ev->player = NULL;
	ev->order_index = 0;
	ev->text = buf_detach(&text);
	ev->first_die = e->dice ? dice_count(e->dice) : 0;
	return ev;
}

void events_add(struct events *e, const char *phase, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	events_push(e, EVENT_EVENT, phase, fmt, ap);
	va_end(ap);
}

void events_void(struct events *e, const char *phase, const char *player, int order_index,
	const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	struct event *ev = events_push(e, EVENT_VOID, phase, fmt, ap);
	va_end(ap);
	ev->player = xstrdup(player ? player : "");
	ev->order_index = order_index;
}
