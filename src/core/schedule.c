/* schedule.c — the umpire's overrides of a running campaign (schedule.h): their record in
 * the close file and in .umpire/overrides.yaml until a close carries them, the deadlines they
 * move, and the checks a change of the schedule must pass, when made and in verify. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/schedule.h"
#include "core/campaign.h"
#include "core/close.h"
#include "core/error.h"
#include "core/file.h"
#include "core/layout.h"
#include "core/node.h"
#include "core/pbem.h"
#include "core/repo.h"
#include "core/turn.h"
#include "core/banned.h"

const char *const override_kind_names[] = { "extend", "pause", "resume", "replace", "end", NULL };

int override_is_seat_or_end(enum override_kind kind)
{
	return kind == OVERRIDE_REPLACE || kind == OVERRIDE_END;
}

const struct override *schedule_end(const struct campaign *c, int turn)
{
	size_t n;
	const struct override *o = schedule_of_turn(c, turn, &n);
	for (size_t i = 0; i < n; i++)
		if (o[i].kind == OVERRIDE_END)
			return &o[i];
	return NULL;
}

void override_release(struct override *o)
{
	free(o->player);
	free(o->ssh_key);
	free(o->reason);
	memset(o, 0, sizeof(*o));
}

void override_copy(struct override *out, const struct override *o)
{
	*out = *o;
	out->player = o->player ? xstrdup(o->player) : NULL;
	out->ssh_key = o->ssh_key ? xstrdup(o->ssh_key) : NULL;
	out->reason = o->reason ? xstrdup(o->reason) : NULL;
}

void override_list_free(struct override *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		override_release(&v[i]);
	free(v);
}

void schedule_emit(struct node *map, const struct override *v, size_t n, int with_turn)
{
	char when[32];

	if (n == 0)
		return;
	struct node *seq = node_map_add(map, "overrides", node_new_seq());
	for (size_t i = 0; i < n; i++) {
		const struct override *o = &v[i];
		struct node *m = node_seq_add(seq, node_new_map());
		node_map_str(m, "kind", override_kind_names[o->kind]);
		if (with_turn)
			node_map_int(m, "turn", o->turn);
		node_map_int(m, "at", o->at);
		pbem_format_utc(when, sizeof when, o->at);
		node_map_str(m, "at_utc", when);
		if (o->player)
			node_map_str(m, "player", o->player);
		if (!override_is_seat_or_end(o->kind))
			node_map_int(m, "shift", o->shift);
		if (o->kind == OVERRIDE_PAUSE)
			node_map_int(m, "until", o->until);
		if (o->ssh_key)
			node_map_str(m, "ssh_key", o->ssh_key);
		node_map_str(m, "reason", o->reason ? o->reason : "");
	}
}

/* One item of `overrides:` into o; 0 / -1 (problems in d). */
static int parse_one(struct override *o, const struct node *m, int turn, int with_turn,
	struct diag *d)
{
	static const char *const keys[] = { "kind", "turn", "at", "at_utc", "player", "shift",
		"until", "ssh_key", "reason", NULL };
	size_t before = diag_count(d);
	const struct node *n;
	const char *s;
	long long v;
	int k;

	memset(o, 0, sizeof(*o));
	o->turn = turn;
	if (node_check_map(m, "an override", keys, d) < 0)
		return -1;
	if ((n = node_need(m, "kind", d)) &&
		node_want_enum(n, "kind", override_kind_names, &k, d) == 0)
		o->kind = (enum override_kind)k;
	if (with_turn && (n = node_need(m, "turn", d)) &&
		node_want_int(n, "turn", 1, TURN_MAX, &v, d) == 0)
		o->turn = (int)v;
	if ((n = node_need(m, "at", d)))
		node_want_int(n, "at", 0, (long long)1 << 50, &o->at, d);
	n = node_get(m, "player");
	if (n && node_want_player_id(n, "player", &s, d) == 0)
		o->player = xstrdup(s);
	else if (!n && (o->kind == OVERRIDE_EXTEND || o->kind == OVERRIDE_REPLACE))
		node_need(m, "player", d);
	if (!override_is_seat_or_end(o->kind) && (n = node_need(m, "shift", d)))
		node_want_int(n, "shift", -((long long)1 << 40), (long long)1 << 40, &o->shift, d);
	if (o->kind == OVERRIDE_PAUSE && (n = node_need(m, "until", d)))
		node_want_int(n, "until", 0, (long long)1 << 50, &o->until, d);
	n = node_get(m, "ssh_key");
	if (n && node_want_str(n, "ssh_key", PBEM_SSH_KEY_MAX, &s, d) == 0)
		o->ssh_key = xstrdup(s);
	if ((n = node_need(m, "reason", d)) &&
		node_want_str(n, "reason", SCHEDULE_MAX_REASON, &s, d) == 0)
		o->reason = xstrdup(s);
	return diag_count(d) == before ? 0 : -1;
}

int schedule_parse(struct override **v, size_t *n, const struct node *seq, int turn, int with_turn,
	struct diag *d)
{
	size_t before = diag_count(d);

	*v = NULL;
	*n = 0;
	if (!seq)
		return 0;
	if (node_check_seq(seq, "overrides", SCHEDULE_MAX, d) < 0)
		return -1;
	*v = xcalloc(seq->n + 1, sizeof(**v));
	for (size_t i = 0; i < seq->n; i++)
		if (parse_one(&(*v)[*n], seq->items[i], turn, with_turn, d) == 0)
			(*n)++;
		else
			override_release(&(*v)[*n]);
	return diag_count(d) == before ? 0 : -1;
}

static void add(struct pbem *p, const struct override *o)
{
	p->overrides = xrealloc(p->overrides, (p->n_overrides + 1) * sizeof(*p->overrides));
	p->overrides[p->n_overrides++] = *o;
}

/* The pending file's path. A new string. */
static char *pending_path(const struct campaign *c)
{
	return xasprintf("%s/.umpire/" SCHEDULE_PENDING, c->dir);
}

/* The pending overrides (those of turns not closed on HEAD) into c->pbem. 0 / -1. */
static int load_pending(struct campaign *c)
{
	char *path = pending_path(c);
	struct buf bytes = BUF_INIT, text = BUF_INIT;
	struct override *v = NULL;
	struct node *root = NULL;
	size_t n = 0;
	struct diag d;
	int rc = 0;

	diag_init(&d);
	if (file_read(path, 4 * 1024 * 1024, &bytes) < 0) {
		if (error_last()->klass == ERROR_MISSING && errno == ENOENT)
			error_clear();
		else
			rc = error_prefix("the umpire's overrides '%s'", path);
		goto done;
	}
	if (node_parse(&root, path, bytes.data ? bytes.data : "", bytes.len, NULL, &d) == 0 &&
		node_check_map(root, "the overrides file",
			(const char *const[]){ "overrides", NULL }, &d) == 0)
		schedule_parse(&v, &n, node_get(root, "overrides"), 0, 1, &d);
	if (diag_count(&d)) {
		diag_format(&d, &text, DIAG_BRIEF);
		rc = error_set(ERROR_INPUT, "%s", buf_str(&text));
		goto done;
	}
	for (size_t i = 0; i < n; i++) {
		char tag[LAYOUT_TAG_MAX];
		layout_close_tag(tag, v[i].turn);
		if (repo_has(c->repo, tag))
			override_release(&v[i]);
		else
			add(&c->pbem, &v[i]);
	}
	free(v);
done:
	node_free(root);
	diag_release(&d);
	buf_release(&text);
	buf_release(&bytes);
	free(path);
	return rc;
}

/* Each replaced seat's key is its newcomer's (or none): the old one signs nothing more. */
static void apply_keys(struct campaign *c)
{
	for (size_t i = 0; i < c->pbem.n_overrides; i++) {
		const struct override *o = &c->pbem.overrides[i];
		if (o->kind != OVERRIDE_REPLACE)
			continue;
		for (size_t p = 0; p < c->n_players && p < c->pbem.n_contacts; p++)
			if (strcmp(c->players[p], o->player) == 0) {
				free(c->pbem.contacts[p].ssh_key);
				c->pbem.contacts[p].ssh_key = o->ssh_key ? xstrdup(o->ssh_key) :
									   NULL;
			}
	}
}

/* The closes' overrides as this copy last read them (.git/SCHEDULE_READ: the turn they run
 * through, its close commit's id, the overrides of closes 1 to it; the umpire's copy and a
 * clone alike): into c->pbem when close-THROUGH is still that commit, whose history holds
 * every earlier close, and the turn into *through (0: none, stale, unreadable, or
 * c->closes_reread, and every close is read again). Every command of a long campaign read
 * each past close file, a tree of the growing journal/ each, before the first of them did. */
static void load_read(struct campaign *c, int *through)
{
	char *path = xasprintf("%s/.git/" SCHEDULE_READ, c->dir);
	struct buf bytes = BUF_INIT;
	struct node *root = NULL;
	struct override *v = NULL;
	size_t n = 0;
	struct diag d;
	long long t = 0;
	const char *close = NULL;
	char tag[LAYOUT_TAG_MAX], id[41];

	*through = 0;
	diag_init(&d);
	if (c->closes_reread || file_read(path, 4 * 1024 * 1024, &bytes) < 0 ||
		node_parse(&root, path, bytes.data ? bytes.data : "", bytes.len, NULL, &d) < 0 ||
		node_check_map(root, "the closes read",
			(const char *const[]){ "through", "close", "overrides", NULL }, &d) < 0 ||
		!node_get(root, "through") || !node_get(root, "close") ||
		node_want_int(node_get(root, "through"), "through", 1, TURN_MAX, &t, &d) < 0 ||
		node_want_str(node_get(root, "close"), "close", 40, &close, &d) < 0)
		goto done;
	layout_close_tag(tag, (int)t);
	if (repo_commit_id(c->repo, tag, id) != 0 || strcmp(id, close) != 0 ||
		schedule_parse(&v, &n, node_get(root, "overrides"), 0, 1, &d) < 0 || diag_count(&d))
		goto done;
	for (size_t i = 0; i < n; i++)
		add(&c->pbem, &v[i]);
	n = 0;
	*through = (int)t;
done:
	override_list_free(v, n);
	error_clear();
	node_free(root);
	diag_release(&d);
	buf_release(&bytes);
	free(path);
}

/* Writes .git/SCHEDULE_READ: the overrides of closes 1 to through (c->pbem's so far),
 * close_id close-THROUGH's commit. A cache: nothing when .git is not a folder, nothing said
 * when it cannot be written. */
static void save_read(struct campaign *c, int through, const char *close_id)
{
	char *git = xasprintf("%s/.git", c->dir), *dir = xasprintf("%s/.git/umpire", c->dir);
	struct node *root = node_new_map();
	struct buf yaml = BUF_INIT;
	struct stat st;

	if (lstat(git, &st) == 0 && S_ISDIR(st.st_mode)) {
		node_map_int(root, "through", through);
		node_map_str(root, "close", close_id);
		schedule_emit(root, c->pbem.overrides, c->pbem.n_overrides, 1);
		buf_puts(&yaml,
			"# umpire: the overrides the closes of turns 1 to THROUGH carry, as "
			"read (a cache: removed, it is made again)\n");
		if (node_emit(root, &yaml) == 0)
			file_write_durable(dir, strchr(SCHEDULE_READ, '/') + 1, yaml.data,
				yaml.len);
	}
	error_clear();
	node_free(root);
	buf_release(&yaml);
	free(dir);
	free(git);
}

int schedule_load(struct campaign *c)
{
	char last_id[41] = "";
	int from, t;

	if (c->entropy == CAMPAIGN_ENTROPY_NONE)
		return 0;
	load_read(c, &from);
	for (t = from + 1; t <= TURN_MAX; t++) {
		struct close_record r;
		char id[41];
		/* A close that cannot be read stops here: verify says why at its turn. */
		int rc = turn_read_close(c, t, &r, id, NULL);
		if (rc != 0) {
			error_clear();
			break;
		}
		memcpy(last_id, id, sizeof(id));
		for (size_t i = 0; i < r.n_overrides; i++)
			add(&c->pbem, &r.overrides[i]);
		free(r.overrides);
		r.overrides = NULL;
		r.n_overrides = 0;
		close_release(&r);
	}
	if (t - 1 > from && last_id[0])
		save_read(c, t - 1, last_id);
	int rc = load_pending(c);
	apply_keys(c);
	return rc;
}

int schedule_open_turn(const struct campaign *c)
{
	char tag[LAYOUT_TAG_MAX];
	int t = 1;

	for (;; t++) {
		layout_close_tag(tag, t);
		if (c->entropy == CAMPAIGN_ENTROPY_NONE)
			layout_tag(tag, t);
		if (!repo_has(c->repo, tag))
			return t;
	}
}

long long schedule_deadline_before(const struct campaign *c, size_t i, int turn)
{
	const struct pbem *p = &c->pbem;

	if (!p->schedule.set || turn < 1)
		return -1;
	long long d = p->schedule.first_deadline + (long long)(turn - 1) * p->schedule.every;
	for (size_t k = 0; k < i && k < p->n_overrides; k++)
		if (p->overrides[k].turn <= turn)
			d += p->overrides[k].shift;
	return d;
}

long long schedule_extended(const struct campaign *c, const char *player)
{
	long long s = 0;
	for (size_t i = 0; i < c->pbem.n_overrides; i++) {
		const struct override *o = &c->pbem.overrides[i];
		if (o->kind == OVERRIDE_EXTEND && strcmp(o->player, player) == 0)
			s += o->shift;
	}
	return s;
}

/* The last pause or resume among the first n overrides, or NULL. */
static const struct override *last_pause(const struct campaign *c, size_t n)
{
	for (size_t i = n; i-- > 0;)
		if (c->pbem.overrides[i].kind == OVERRIDE_PAUSE ||
			c->pbem.overrides[i].kind == OVERRIDE_RESUME)
			return &c->pbem.overrides[i];
	return NULL;
}

int schedule_paused(const struct campaign *c, long long now, long long *until)
{
	const struct override *o = last_pause(c, c->pbem.n_overrides);
	if (!o || o->kind != OVERRIDE_PAUSE || o->until <= now)
		return 0;
	*until = o->until;
	return 1;
}

/* Why override i of c->pbem (among those before it) breaks the rules, or 0. */
static int check_one(const struct campaign *c, size_t i)
{
	const struct override *o = &c->pbem.overrides[i];
	const struct override *p = last_pause(c, i);
	long long dl = schedule_deadline_before(c, i, o->turn);
	char when[32], at[32];

	pbem_format_utc(at, sizeof at, o->at);
	pbem_format_utc(when, sizeof when, dl);
	if (!override_is_seat_or_end(o->kind) && !c->pbem.schedule.set)
		return error_set(ERROR_INPUT, "turn %d: a %s without a schedule", o->turn,
			override_kind_names[o->kind]);
	if (!override_is_seat_or_end(o->kind) && o->at >= dl)
		return error_set(ERROR_INPUT,
			"turn %d: the %s made at %s moves turn %d's deadline %s, which had passed then (a change recorded after a deadline cannot move it)",
			o->turn, override_kind_names[o->kind], at, o->turn, when);
	switch (o->kind) {
	case OVERRIDE_EXTEND: {
		long long used = 0;
		for (size_t k = 0; k <= i; k++)
			if (c->pbem.overrides[k].kind == OVERRIDE_EXTEND &&
				strcmp(c->pbem.overrides[k].player, o->player) == 0)
				used += c->pbem.overrides[k].shift;
		if (o->shift <= 0 || used > c->pbem.schedule.extensions)
			return error_set(ERROR_INPUT,
				"turn %d: an extension of %lld s for %s brings his extensions to %lld s, over the budget schedule.extensions gives (%lld s)",
				o->turn, o->shift, o->player, used, c->pbem.schedule.extensions);
		break;
	}
	case OVERRIDE_PAUSE:
		if (o->until <= o->at || o->shift != o->until - o->at)
			return error_set(ERROR_INPUT,
				"turn %d: a pause made at %s until %lld must end later and shift every deadline by its length (%lld s, not %lld s)",
				o->turn, at, o->until, o->until - o->at, o->shift);
		break;
	case OVERRIDE_RESUME:
		if (!p || p->kind != OVERRIDE_PAUSE || p->until <= o->at ||
			o->shift != o->at - p->until)
			return error_set(ERROR_INPUT,
				"turn %d: a resume at %s ends no pause running then, or moves the deadlines by other than the pause's unused time",
				o->turn, at);
		break;
	default:
		break;
	}
	return 0;
}

int schedule_add(struct campaign *c, struct override *o)
{
	struct node *root = node_new_map();
	struct buf yaml = BUF_INIT;
	size_t first = c->pbem.n_overrides;
	char *dir = xasprintf("%s/.umpire", c->dir);
	int rc;

	add(&c->pbem, o);
	memset(o, 0, sizeof(*o));
	rc = check_one(c, first);
	if (rc == 0) {
		/* Every pending one (those of the open turn) with the new one, rewritten whole. */
		size_t k = first;
		while (k > 0 && c->pbem.overrides[k - 1].turn >= c->pbem.overrides[first].turn)
			k--;
		schedule_emit(root, c->pbem.overrides + k, first + 1 - k, 1);
		buf_puts(&yaml,
			"# the umpire's overrides a close has not committed yet (docs/formats.md)\n");
		if (node_emit(root, &yaml) < 0)
			rc = error_set(ERROR_INTERNAL, "internal error: cannot emit the overrides");
		else
			rc = file_write_durable(dir, SCHEDULE_PENDING, yaml.data, yaml.len);
	}
	if (rc < 0) {
		*o = c->pbem.overrides[first];
		c->pbem.n_overrides = first;
	} else {
		apply_keys(c);
	}
	node_free(root);
	buf_release(&yaml);
	free(dir);
	return rc;
}

int schedule_committed(struct campaign *c, int turn)
{
	char *dir = xasprintf("%s/.umpire", c->dir);
	(void)turn;
	int rc = file_remove_durable(dir, SCHEDULE_PENDING);
	free(dir);
	if (rc < 0 && error_last()->klass == ERROR_MISSING) {
		error_clear();
		rc = 0;
	}
	return rc;
}

const struct override *schedule_of_turn(const struct campaign *c, int turn, size_t *n)
{
	size_t i = 0;
	while (i < c->pbem.n_overrides && c->pbem.overrides[i].turn < turn)
		i++;
	size_t k = i;
	while (k < c->pbem.n_overrides && c->pbem.overrides[k].turn == turn)
		k++;
	*n = k - i;
	return c->pbem.overrides + i;
}

int schedule_check_close(const struct campaign *c, int turn, long long prev_closed_at,
	long long closed_at)
{
	for (size_t i = 0; i < c->pbem.n_overrides; i++) {
		const struct override *o = &c->pbem.overrides[i];
		if (o->turn != turn)
			continue;
		if (i > 0 && c->pbem.overrides[i - 1].turn > turn)
			return error_set(ERROR_INPUT, "turn %d: the overrides are out of order",
				turn);
		if (o->at > closed_at || (prev_closed_at >= 0 && o->at < prev_closed_at))
			return error_set(ERROR_INPUT,
				"turn %d: an override made at %lld, outside the time turn %d was open (from %lld to its close at %lld)",
				turn, o->at, turn, prev_closed_at, closed_at);
		if (check_one(c, i) < 0)
			return -1;
	}
	return 0;
}

int seat_new_player_from(const struct campaign *c, const char *seat)
{
	int from = 1;
	for (size_t i = 0; i < c->pbem.n_overrides; i++)
		if (c->pbem.overrides[i].kind == OVERRIDE_REPLACE &&
			strcmp(c->pbem.overrides[i].player, seat) == 0)
			from = c->pbem.overrides[i].turn;
	return from;
}

/* "1d", "27h20m" or "45s": days when whole, else hours, minutes and seconds, signed. */
static void duration(struct buf *out, long long s)
{
	long long a = s < 0 ? -s : s;
	buf_puts(out, s < 0 ? "-" : "");
	if (a && a % 86400 == 0) {
		buf_printf(out, "%lldd", a / 86400);
		return;
	}
	if (a >= 3600)
		buf_printf(out, "%lldh", a / 3600);
	if (a % 3600 >= 60)
		buf_printf(out, "%lldm", a % 3600 / 60);
	if (a % 60 || a == 0)
		buf_printf(out, "%llds", a % 60);
}

void override_describe(struct buf *out, const struct override *o)
{
	char when[32];

	pbem_format_utc(when, sizeof when, o->at);
	buf_printf(out, "%s: ", when);
	switch (o->kind) {
	case OVERRIDE_EXTEND:
		buf_puts(out, "extension of ");
		duration(out, o->shift);
		buf_printf(out, " asked by %s (every deadline moves)", o->player);
		break;
	case OVERRIDE_PAUSE:
		pbem_format_utc(when, sizeof when, o->until);
		buf_printf(out, "paused until %s (every deadline moves ", when);
		duration(out, o->shift);
		buf_puts(out, ")");
		break;
	case OVERRIDE_RESUME:
		buf_puts(out, "resumed (every deadline moves ");
		duration(out, o->shift);
		buf_puts(out, ")");
		break;
	case OVERRIDE_END:
		if (o->player)
			buf_printf(out, "the umpire ends the game with turn %d: %s wins", o->turn,
				o->player);
		else
			buf_printf(out, "the umpire ends the game with turn %d: a draw", o->turn);
		break;
	default:
		buf_printf(out, "seat %s: new player from turn %d", o->player, o->turn);
		break;
	}
	if (o->reason && *o->reason)
		buf_printf(out, ": %s", o->reason);
}
