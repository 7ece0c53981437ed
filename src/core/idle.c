/* idle.c — the mark of an idle `umpire run` pass (idle.h): made by the full pass (cmd/run.c),
 * read by the front program (src/front.c), which links this file and core/clock.c alone: so
 * it calls the C library only (malloc, not xmalloc: a failure is "no mark", never an abort). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/idle.h"
#include "core/banned.h"

#define FORMAT_LINE "umpire run-idle 1"

void idle_mark_release(struct idle_mark *m)
{
	for (size_t i = 0; i < m->n_args; i++)
		free(m->args[i]);
	for (size_t i = 0; i < m->n_stats; i++)
		free(m->stats[i].path);
	for (size_t i = 0; i < m->n_lines; i++)
		free(m->lines[i].text);
	free(m->args);
	free(m->stats);
	free(m->lines);
	memset(m, 0, sizeof(*m));
}

/* Grows *v (n entries of size) by one zeroed entry: its address, or NULL. */
static void *grow(void *v, size_t n, size_t size, void **out)
{
	if (n >= IDLE_MAX_ITEMS)
		return NULL;
	void *p = realloc(v, (n + 1) * size);
	if (!p)
		return NULL;
	memset((char *)p + n * size, 0, size);
	*out = p;
	return (char *)p + n * size;
}

static char *copy(const char *s, size_t len)
{
	char *p = malloc(len + 1);
	if (p) {
		memcpy(p, s, len);
		p[len] = '\0';
	}
	return p;
}

int idle_add_arg(struct idle_mark *m, const char *arg)
{
	void *v = m->args;
	char **slot = grow(m->args, m->n_args, sizeof(*m->args), &v);
	if (!slot)
		return -1;
	m->args = v;
	if (!(*slot = copy(arg, strlen(arg))))
		return -1;
	m->n_args++;
	return 0;
}

int idle_stat_take(int dirfd, const char *path, struct idle_stat *st)
{
	struct stat s;

	if (fstatat(dirfd, path, &s, AT_SYMLINK_NOFOLLOW) != 0) {
		if (errno != ENOENT && errno != ENOTDIR)
			return -1;
		st->absent = 1;
		st->dev = st->ino = 0;
		st->size = st->mtime = st->ctime = 0;
		return 0;
	}
	st->absent = 0;
	st->dev = (unsigned long long)s.st_dev;
	st->ino = (unsigned long long)s.st_ino;
	st->size = (long long)s.st_size;
	st->mtime = (long long)s.st_mtim.tv_sec * 1000000000LL + s.st_mtim.tv_nsec;
	st->ctime = (long long)s.st_ctim.tv_sec * 1000000000LL + s.st_ctim.tv_nsec;
	return 0;
}

int idle_add_stat(struct idle_mark *m, int dirfd, const char *path)
{
	void *v = m->stats;
	struct idle_stat *st = grow(m->stats, m->n_stats, sizeof(*m->stats), &v);
	if (!st)
		return -1;
	m->stats = v;
	if (!path[0] || idle_stat_take(dirfd, path, st) < 0 ||
		!(st->path = copy(path, strlen(path))))
		return -1;
	m->n_stats++;
	return 0;
}

/* 1 when text holds no byte below 0x20 nor DEL. */
static int printable(const char *text, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)text[i] < 0x20 || text[i] == 0x7f)
			return 0;
	return 1;
}

int idle_add_line(struct idle_mark *m, int always, const char *text)
{
	void *v = m->lines;
	if (!printable(text, strlen(text)))
		return -1;
	struct idle_line *l = grow(m->lines, m->n_lines, sizeof(*m->lines), &v);
	if (!l)
		return -1;
	m->lines = v;
	l->always = always != 0;
	if (!(l->text = copy(text, strlen(text))))
		return -1;
	m->n_lines++;
	return 0;
}

void idle_stat_text(char out[IDLE_STAT_TEXT_MAX], const struct idle_stat *st)
{
	if (st->absent)
		snprintf(out, IDLE_STAT_TEXT_MAX, "absent");
	else
		snprintf(out, IDLE_STAT_TEXT_MAX, "%llu %llu %lld %lld %lld", st->dev, st->ino,
			st->size, st->mtime, st->ctime);
}

/* A growing string for idle_format; failed set once anything could not be added. */
struct out {
	char *data;
	size_t len, cap;
	int failed;
};

static void put(struct out *o, const char *s, size_t len)
{
	if (o->failed || o->len + len + 1 > IDLE_MARK_MAX) {
		o->failed = 1;
		return;
	}
	if (o->len + len + 1 > o->cap) {
		size_t cap = o->cap ? o->cap : 1024;
		while (cap < o->len + len + 1)
			cap *= 2;
		char *p = realloc(o->data, cap);
		if (!p) {
			o->failed = 1;
			return;
		}
		o->data = p;
		o->cap = cap;
	}
	memcpy(o->data + o->len, s, len);
	o->len += len;
	o->data[o->len] = '\0';
}

static void puts_(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

static void put_hex(struct out *o, const char *s)
{
	static const char digits[] = "0123456789abcdef";
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		char two[2] = { digits[*p >> 4], digits[*p & 15] };
		put(o, two, 2);
	}
}

char *idle_format(const struct idle_mark *m, size_t *len)
{
	struct out o = { NULL, 0, 0, 0 };
	char num[128];

	puts_(&o, FORMAT_LINE "\n");
	for (size_t i = 0; i < m->n_args; i++) {
		puts_(&o, "arg ");
		put_hex(&o, m->args[i]);
		puts_(&o, "\n");
	}
	if (m->until == IDLE_NEVER)
		puts_(&o, "until never\n");
	else {
		snprintf(num, sizeof num, "until %lld\n", m->until);
		puts_(&o, num);
	}
	for (size_t i = 0; i < m->n_stats; i++) {
		char text[IDLE_STAT_TEXT_MAX];
		idle_stat_text(text, &m->stats[i]);
		puts_(&o, "stat ");
		put_hex(&o, m->stats[i].path);
		puts_(&o, " ");
		puts_(&o, text);
		puts_(&o, "\n");
	}
	for (size_t i = 0; i < m->n_lines; i++) {
		puts_(&o, m->lines[i].always ? "say 1 " : "say 0 ");
		puts_(&o, m->lines[i].text);
		puts_(&o, "\n");
	}
	puts_(&o, "end\n");
	if (o.failed) {
		free(o.data);
		return NULL;
	}
	*len = o.len;
	return o.data;
}

/* The parser's cursor: the current line [line, line + len) and what follows. */
struct in {
	const char *p, *end;
	const char *line;
	size_t len;
};

/* Moves to the next line: 1, or 0 at the end or when the rest has no newline. */
static int next_line(struct in *in)
{
	const char *nl = in->p < in->end ? memchr(in->p, '\n', (size_t)(in->end - in->p)) : NULL;
	if (!nl)
		return 0;
	in->line = in->p;
	in->len = (size_t)(nl - in->p);
	in->p = nl + 1;
	return 1;
}

/* 1 when the current line starts with word and a space; the rest then in *rest, *n. */
static int record(const struct in *in, const char *word, const char **rest, size_t *n)
{
	size_t w = strlen(word);
	if (in->len <= w || memcmp(in->line, word, w) != 0 || in->line[w] != ' ')
		return 0;
	*rest = in->line + w + 1;
	*n = in->len - w - 1;
	return 1;
}

static int hex_value(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Decodes n lowercase hex digits into a new string with no NUL in it: it, or NULL. */
static char *unhex(const char *s, size_t n)
{
	if (n % 2)
		return NULL;
	char *out = malloc(n / 2 + 1);
	for (size_t i = 0; out && i < n; i += 2) {
		int hi = hex_value(s[i]), lo = hex_value(s[i + 1]);
		if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
			free(out);
			return NULL;
		}
		out[i / 2] = (char)(hi * 16 + lo);
	}
	if (out)
		out[n / 2] = '\0';
	return out;
}

/* The number in s[0..n) (decimal as %lld or %llu writes it, exactly): 0, or -1. */
static int number(const char *s, size_t n, int is_signed, long long *sv, unsigned long long *uv)
{
	char text[32], again[32];

	if (n == 0 || n >= sizeof text)
		return -1;
	memcpy(text, s, n);
	text[n] = '\0';
	errno = 0;
	char *e;
	if (is_signed) {
		*sv = strtoll(text, &e, 10);
		snprintf(again, sizeof again, "%lld", *sv);
	} else {
		*uv = strtoull(text, &e, 10);
		snprintf(again, sizeof again, "%llu", *uv);
	}
	return errno == 0 && *e == '\0' && strcmp(again, text) == 0 ? 0 : -1;
}

/* The fields of a stat record after the path: "absent" or five numbers. 0 / -1. */
static int stat_fields(const char *s, size_t n, struct idle_stat *st)
{
	if (n == 6 && memcmp(s, "absent", 6) == 0) {
		st->absent = 1;
		return 0;
	}
	const char *end = s + n;
	for (int k = 0; k < 5; k++) {
		const char *sp = memchr(s, ' ', (size_t)(end - s));
		const char *f_end = sp ? sp : end;
		long long sv = 0;
		unsigned long long uv = 0;
		if ((k == 4) != (sp == NULL) ||
			number(s, (size_t)(f_end - s), k >= 2, &sv, &uv) < 0)
			return -1;
		if (k == 0)
			st->dev = uv;
		else if (k == 1)
			st->ino = uv;
		else
			*(k == 2 ? &st->size : k == 3 ? &st->mtime : &st->ctime) = sv;
		s = f_end + 1;
	}
	return 0;
}

/* One stat record's rest (HEXPATH FIELDS) into m. 0 / -1. */
static int parse_stat(struct idle_mark *m, const char *rest, size_t n)
{
	const char *sp = memchr(rest, ' ', n);
	void *v = m->stats;
	struct idle_stat *st = sp ? grow(m->stats, m->n_stats, sizeof(*m->stats), &v) : NULL;
	if (!st)
		return -1;
	m->stats = v;
	if (sp == rest || !(st->path = unhex(rest, (size_t)(sp - rest))))
		return -1;
	m->n_stats++; /* owned from here: released with m */
	return stat_fields(sp + 1, n - (size_t)(sp + 1 - rest), st);
}

/* One say record's rest ("0 TEXT" or "1 TEXT") into m. 0 / -1. */
static int parse_say(struct idle_mark *m, const char *rest, size_t n)
{
	if (n < 2 || (rest[0] != '0' && rest[0] != '1') || rest[1] != ' ' ||
		!printable(rest + 2, n - 2))
		return -1;
	char *text = copy(rest + 2, n - 2);
	int rc = text ? idle_add_line(m, rest[0] == '1', text) : -1;
	free(text);
	return rc;
}

/* The records after the format line. 0 / -1. */
static int parse_records(struct in *in, struct idle_mark *m)
{
	const char *rest;
	size_t n;
	int more = next_line(in);

	for (; more && record(in, "arg", &rest, &n); more = next_line(in)) {
		char *arg = n ? unhex(rest, n) : copy("", 0);
		int rc = arg ? idle_add_arg(m, arg) : -1;
		free(arg);
		if (rc < 0)
			return -1;
	}
	if (!more || !record(in, "until", &rest, &n))
		return -1;
	unsigned long long unused;
	if (n == 5 && memcmp(rest, "never", 5) == 0)
		m->until = IDLE_NEVER;
	else if (number(rest, n, 1, &m->until, &unused) < 0 || m->until < 0)
		return -1;
	for (more = next_line(in); more && record(in, "stat", &rest, &n); more = next_line(in))
		if (parse_stat(m, rest, n) < 0)
			return -1;
	for (; more && record(in, "say", &rest, &n); more = next_line(in))
		if (parse_say(m, rest, n) < 0)
			return -1;
	if (!more || in->len != 3 || memcmp(in->line, "end", 3) != 0 || in->p != in->end)
		return -1;
	return 0;
}

int idle_parse(const char *text, size_t len, struct idle_mark *out)
{
	struct in in = { text, text + len, NULL, 0 };

	memset(out, 0, sizeof(*out));
	if (len > IDLE_MARK_MAX || memchr(text, '\0', len) || !next_line(&in) ||
		in.len != strlen(FORMAT_LINE) || memcmp(in.line, FORMAT_LINE, in.len) != 0 ||
		parse_records(&in, out) < 0) {
		idle_mark_release(out);
		return -1;
	}
	return 0;
}

int idle_unchanged(const struct idle_mark *m, int dirfd)
{
	for (size_t i = 0; i < m->n_stats; i++) {
		const struct idle_stat *was = &m->stats[i];
		struct idle_stat now = { 0 };
		if (idle_stat_take(dirfd, was->path, &now) < 0 || now.absent != was->absent ||
			now.dev != was->dev || now.ino != was->ino || now.size != was->size ||
			now.mtime != was->mtime || now.ctime != was->ctime)
			return 0;
	}
	return 1;
}

int idle_same_args(const struct idle_mark *m, int argc, char *const argv[])
{
	size_t k = 0;

	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "--verbose") == 0)
			continue;
		if (k >= m->n_args || strcmp(argv[i], m->args[k]) != 0)
			return 0;
		k++;
	}
	return k == m->n_args;
}

int idle_mail_waiting(const char *maildir)
{
	size_t len = strlen(maildir);
	char *path = malloc(len + sizeof "/new");
	DIR *d = NULL;
	struct dirent *e;
	int found;

	if (path) {
		memcpy(path, maildir, len);
		memcpy(path + len, "/new", sizeof "/new");
		d = opendir(path);
	}
	found = !d; /* unreadable: the full pass says why */
	while (d && !found && (e = readdir(d)) != NULL)
		found = e->d_name[0] != '.';
	if (d)
		closedir(d);
	free(path);
	return found;
}
