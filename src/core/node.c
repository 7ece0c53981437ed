/* node.c — the YAML document tree: strict parsing of untrusted files with libyaml's event
 * parser (so limits and positions are ours), canonical emitting with libyaml's emitter, and
 * the node_want_* readers that turn type and range problems into positioned diagnostics.
 * This is the only file in umpire that includes <yaml.h>. */
#include "core/node.h"

#include <assert.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>
#include "core/banned.h"

enum {
	NODE_SHOW_MAX = 20, /* bytes of an offending value quoted in a message: a short excerpt */
	NODE_ID_MAX = 64,
	NODE_FAST_EMIT_DEPTH = 64, /* nesting node_emit writes without libyaml */
	NODE_EMIT_WIDTH = 4096,    /* wide enough that long strings are never folded */
};

/* --- allocation ------------------------------------------------------------------- */

/* The capacity of items/keys for n entries. struct node keeps no capacity field, so it is
 * implied by n: 4, then powers of two. Every allocator of those arrays must follow this. */
static size_t coll_cap(size_t n)
{
	if (n == 0)
		return 0;
	size_t cap = 4;
	while (cap < n)
		cap *= 2;
	return cap;
}

static struct node *node_alloc(enum node_kind kind)
{
	struct node *n = xcalloc(1, sizeof(*n));
	n->kind = kind;
	return n;
}

/* A scalar node of the len bytes at s, the text in the node's own allocation (right after
 * it, where node_free looks): one allocation a scalar, half as many for a big state. */
static struct node *scalar_alloc(const char *s, size_t len)
{
	struct node *n = xmalloc(sizeof(*n) + len + 1);
	memset(n, 0, sizeof(*n));
	n->kind = NODE_SCALAR;
	n->scalar = (char *)(n + 1);
	memcpy(n->scalar, s, len);
	n->scalar[len] = '\0';
	return n;
}

/* node_parse's nodes come from an arena its root owns: a 9,600-figure state is some
 * 300,000 nodes, and one malloc and free each were a fifth of a big turn (issue 38). The
 * items/keys arrays stay on the heap (coll_push reallocates them, also in parsed trees). */
enum { NODE_MEM_HEAP, NODE_MEM_ARENA, NODE_MEM_ROOT };
enum { ARENA_FIRST = 4096, ARENA_MAX = 64 * 1024 };

struct arena {
	struct arena *next; /* the chunk made before this one */
	size_t used, cap;   /* bytes of data[] handed out, and its size */
	struct node data[]; /* aligned as a node; handed out in bytes */
};

/* len bytes (aligned for any node) from *a, a new chunk in front when it is full. */
static void *arena_take(struct arena **a, size_t len)
{
	len = (len + _Alignof(struct node) - 1) / _Alignof(struct node) * _Alignof(struct node);
	if (!*a || (*a)->cap - (*a)->used < len) {
		size_t cap = *a ? (*a)->cap * 2 : ARENA_FIRST;
		if (cap > ARENA_MAX)
			cap = ARENA_MAX;
		if (cap < len)
			cap = len;
		struct arena *c = xmalloc(sizeof(*c) + cap);
		c->next = *a;
		c->used = 0;
		c->cap = cap;
		*a = c;
	}
	void *p = (char *)(*a)->data + (*a)->used;
	(*a)->used += len;
	return p;
}

static void arena_free(struct arena *a)
{
	while (a) {
		struct arena *next = a->next;
		free(a);
		a = next;
	}
}

/* Appends one entry (and key, for maps) growing the arrays at the implied capacity. */
static void coll_push(struct node *c, struct node *key, struct node *value)
{
	if (c->n == coll_cap(c->n)) {
		size_t cap = c->n ? c->n * 2 : 4;
		c->items = xrealloc(c->items, cap * sizeof(*c->items));
		if (c->kind == NODE_MAP)
			c->keys = xrealloc(c->keys, cap * sizeof(*c->keys));
	}
	if (c->kind == NODE_MAP)
		c->keys[c->n] = key;
	c->items[c->n++] = value;
}

void node_free(struct node *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->n; i++) {
		if (n->keys)
			node_free(n->keys[i]);
		node_free(n->items[i]);
	}
	free(n->keys);
	free(n->items);
	if (n->scalar != (char *)(n + 1)) /* else in n's allocation (scalar_alloc) */
		free(n->scalar);
	if (n->mem == NODE_MEM_ARENA)
		return; /* its root frees the arena */
	/* A parsed root carries its arena and file name in the same allocation (new_root). */
	if (n->mem == NODE_MEM_ROOT)
		arena_free(*(struct arena **)(n + 1));
	free(n);
}

struct node *node_new_map(void)
{
	return node_alloc(NODE_MAP);
}

struct node *node_new_seq(void)
{
	return node_alloc(NODE_SEQ);
}

struct node *node_new_str(const char *s)
{
	struct node *n = scalar_alloc(s, strlen(s));
	n->quoted = 1;
	return n;
}

struct node *node_new_int(long long v)
{
	char d[DECIMAL_MAX];
	const char *p = decimal_int(d, v);

	return scalar_alloc(p, (size_t)(d + DECIMAL_MAX - 1 - p));
}

struct node *node_new_bool(int v)
{
	return scalar_alloc(v ? "true" : "false", v ? 4 : 5);
}

struct node *node_map_add(struct node *map, const char *key, struct node *value)
{
	assert(map && map->kind == NODE_MAP && key && value);
	coll_push(map, node_new_str(key), value);
	return value;
}

void node_map_str(struct node *map, const char *key, const char *s)
{
	node_map_add(map, key, node_new_str(s));
}

void node_map_hex(struct node *map, const char *key, const unsigned char *bytes, size_t n)
{
	char hex[2 * 64 + 1];

	assert(n <= 64);
	hex_encode(hex, bytes, n);
	node_map_str(map, key, hex);
}

void node_map_int(struct node *map, const char *key, long long v)
{
	node_map_add(map, key, node_new_int(v));
}

void node_map_bool(struct node *map, const char *key, int v)
{
	node_map_add(map, key, node_new_bool(v));
}

struct node *node_seq_add(struct node *seq, struct node *value)
{
	assert(seq && seq->kind == NODE_SEQ && value);
	coll_push(seq, NULL, value);
	return value;
}

struct node *node_clone(const struct node *n)
{
	if (!n)
		return NULL;
	struct node *c = node_alloc(n->kind);
	c->file = n->file;
	c->line = n->line;
	c->column = n->column;
	c->quoted = n->quoted;
	if (n->scalar)
		c->scalar = xstrdup(n->scalar);
	if (n->n) {
		size_t cap = coll_cap(n->n);
		c->items = xcalloc(cap, sizeof(*c->items));
		if (n->keys)
			c->keys = xcalloc(cap, sizeof(*c->keys));
		for (size_t i = 0; i < n->n; i++) {
			if (n->keys)
				c->keys[i] = node_clone(n->keys[i]);
			c->items[i] = node_clone(n->items[i]);
		}
		c->n = n->n;
	}
	return c;
}

/* --- message helpers ---------------------------------------------------------------- */

/* Appends s for a message: at most NODE_SHOW_MAX bytes (cut on a character boundary),
 * control characters escaped, so untrusted text cannot garble a report. */
static void show(struct buf *b, const char *s)
{
	size_t i = 0;
	for (; s[i] && i < NODE_SHOW_MAX; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c == 0x7f)
			buf_printf(b, "\\x%02x", c);
		else
			buf_append(b, &s[i], 1);
	}
	if (s[i]) {
		/* Drop a partial UTF-8 sequence left at the cut. */
		while (b->len && ((unsigned char)b->data[b->len - 1] & 0xc0) == 0x80)
			b->len--;
		if (b->len && (unsigned char)b->data[b->len - 1] >= 0xc0)
			b->len--;
		b->data[b->len] = '\0';
		buf_puts(b, "...");
	}
}

/* "a mapping", "a sequence", "'text'", "empty": what n is, for "X is ..." messages. */
static void describe(struct buf *b, const struct node *n)
{
	if (!n) {
		buf_puts(b, "missing");
		return;
	}
	switch (n->kind) {
	case NODE_MAP:
		buf_puts(b, "a mapping");
		return;
	case NODE_SEQ:
		buf_puts(b, "a sequence");
		return;
	case NODE_SCALAR:
		if (!n->quoted && n->scalar[0] == '\0') {
			buf_puts(b, "empty");
			return;
		}
		buf_puts(b, n->quoted ? "the quoted string '" : "'");
		show(b, n->scalar);
		buf_puts(b, "'");
		return;
	}
}

static void list_names(struct buf *b, const char *const *names)
{
	for (size_t i = 0; names && names[i]; i++)
		buf_printf(b, "%s%s", i ? ", " : "", names[i]);
}

/* Reports "<what> is <description of n> (<expected>)" at n. */
static void report_is(struct diag *d, const struct node *n, const char *what, const char *expected)
{
	struct buf b = BUF_INIT;
	describe(&b, n);
	node_error(d, n, "%s is %s (%s expected)", what, buf_str(&b), expected);
	buf_release(&b);
}

void node_error(struct diag *d, const struct node *n, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	diag_add(d, n ? n->file : NULL, n ? n->line : 1, n ? n->column : 1, "%s", buf_str(&b));
	buf_release(&b);
}

void node_warn(struct diag *d, const struct node *n, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	diag_warn(d, n ? n->file : NULL, n ? n->line : 1, n ? n->column : 1, "%s", buf_str(&b));
	buf_release(&b);
}

/* --- parsing ------------------------------------------------------------------------ */

struct frame {
	struct node *coll; /* the collection being filled */
	struct node *key;  /* NODE_MAP: a key waiting for its value; owned here */
};

struct parser {
	yaml_parser_t yp;
	const char *file; /* the root's copy of the file name */
	const unsigned char *input;
	size_t len;
	struct node_limits lim;
	struct diag *d;
	int errors; /* errors this parse reported (d may hold older ones) */
	size_t nodes;
	struct node *root;
	struct frame *stack;
	size_t depth;
	int documents;
	struct arena *arena; /* every node below the root; the root's once there is one */
};

static void perr(struct parser *p, yaml_mark_t mark, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void perr(struct parser *p, yaml_mark_t mark, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;
	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	diag_add(p->d, p->file, (int)mark.line + 1, (int)mark.column + 1, "%s", buf_str(&b));
	buf_release(&b);
	p->errors++;
}

/* The root node owns the arena (a pointer right after it, set once the parse is over) and
 * the file name (after that): both live in the root's own allocation, so every node can
 * point at the name and node_free(root) frees the lot. */
static struct node *new_root(const char *file, enum node_kind kind)
{
	size_t flen = strlen(file) + 1;
	struct node *n = xcalloc(1, sizeof(*n) + sizeof(struct arena *) + flen);
	char *copy = (char *)(n + 1) + sizeof(struct arena *);
	memcpy(copy, file, flen);
	n->kind = kind;
	n->file = copy;
	n->mem = NODE_MEM_ROOT;
	return n;
}

/* A zeroed node of len bytes from the parse's arena. */
static struct node *parse_take(struct parser *p, size_t len)
{
	struct node *n = arena_take(&p->arena, len);
	memset(n, 0, sizeof(*n));
	n->mem = NODE_MEM_ARENA;
	return n;
}

static struct node *parse_new(struct parser *p, enum node_kind kind, yaml_mark_t mark)
{
	struct node *n;
	if (!p->root && p->depth == 0) {
		n = new_root(p->file, kind);
		p->file = n->file;
		p->root = n;
	} else {
		n = parse_take(p, sizeof(*n));
		n->kind = kind;
		n->file = p->file;
	}
	n->line = (int)mark.line + 1;
	n->column = (int)mark.column + 1;
	return n;
}

/* parse_new for a scalar of the len bytes at s (below the root: in one allocation). */
static struct node *parse_new_scalar(struct parser *p, const char *s, size_t len, yaml_mark_t mark)
{
	if (!p->root && p->depth == 0) {
		struct node *n = parse_new(p, NODE_SCALAR, mark);
		n->scalar = xmalloc(len + 1);
		memcpy(n->scalar, s, len);
		n->scalar[len] = '\0';
		return n;
	}
	struct node *n = parse_take(p, sizeof(*n) + len + 1);
	n->kind = NODE_SCALAR;
	n->scalar = (char *)(n + 1);
	memcpy(n->scalar, s, len);
	n->scalar[len] = '\0';
	n->file = p->file;
	n->line = (int)mark.line + 1;
	n->column = (int)mark.column + 1;
	return n;
}

/* Hands a new node to the collection on top of the stack (or makes it the root). */
static void attach(struct parser *p, struct node *n)
{
	if (p->depth == 0)
		return; /* it is the root, already recorded by parse_new */
	struct frame *f = &p->stack[p->depth - 1];
	if (f->coll->kind == NODE_SEQ) {
		coll_push(f->coll, NULL, n);
		return;
	}
	if (!f->key) {
		if (n->kind != NODE_SCALAR) {
			yaml_mark_t m = { 0, (size_t)n->line - 1, (size_t)n->column - 1 };
			perr(p, m, "a key is %s (a plain name expected)",
				n->kind == NODE_MAP ? "a mapping" : "a sequence");
		} else if (!n->quoted && n->scalar[0] == '\0') {
			yaml_mark_t m = { 0, (size_t)n->line - 1, (size_t)n->column - 1 };
			perr(p, m, "a key is empty (a plain name expected)");
		}
		f->key = n;
		return;
	}
	coll_push(f->coll, f->key, n);
	f->key = NULL;
}

static int key_cmp(const struct node *a, const struct node *b)
{
	return strcmp(a->scalar, b->scalar);
}

/* Key indices by key text (index_sort: equal keys stay in document order). */
static int key_index_cmp(size_t a, size_t b, const void *ctx)
{
	struct node *const *keys = ctx;
	return key_cmp(keys[a], keys[b]);
}

/* Reports every repeated key at the repetition, naming the line of the first. Sorting
 * keeps this O(n log n) for the large maps an attacker could send. */
static void check_duplicates(struct parser *p, const struct node *map)
{
	size_t m = 0;
	size_t *idx = xmalloc((map->n ? map->n : 1) * sizeof(*idx));
	size_t *tmp = xmalloc((map->n ? map->n : 1) * sizeof(*tmp));
	for (size_t i = 0; i < map->n; i++)
		if (map->keys[i]->kind == NODE_SCALAR)
			idx[m++] = i;
	index_sort(idx, tmp, m, key_index_cmp, map->keys);
	for (size_t i = 1, first = 0; i < m; i++) {
		const struct node *k = map->keys[idx[i]], *f = map->keys[idx[first]];
		if (key_cmp(k, f) != 0) {
			first = i;
			continue;
		}
		struct buf b = BUF_INIT;
		show(&b, k->scalar);
		yaml_mark_t mk = { 0, (size_t)k->line - 1, (size_t)k->column - 1 };
		perr(p, mk, "duplicate key '%s' (first at line %d, each key once expected)",
			buf_str(&b), f->line);
		buf_release(&b);
	}
	free(idx);
	free(tmp);
}

/* Line and column (0-based, in characters like libyaml's marks, and a column for each byte
 * that is not UTF-8, as diag counts them) of a byte offset; the reader reports only an
 * offset. */
static void offset_mark(const struct parser *p, size_t off, yaml_mark_t *m)
{
	size_t line = 0, col = 0, len;
	if (off > p->len)
		off = p->len;
	for (size_t i = 0; i < off; i += len) {
		unsigned char c = p->input[i];
		len = diag_utf8_len(p->input + i, p->len - i);
		if (len == 0)
			len = 1;
		if (c == '\n' || (c == '\r' && (i + 1 >= p->len || p->input[i + 1] != '\n'))) {
			line++;
			col = 0;
		} else if (c != '\r') {
			col++;
		}
	}
	m->index = off;
	m->line = line;
	m->column = col;
}

/* The offset of the first byte of the input that starts no valid UTF-8 sequence, at or
 * before off (libyaml's reader names the byte where it noticed: for a Latin-1 'é' followed by
 * a space, the space), else off itself. */
static size_t first_bad_utf8(const struct parser *p, size_t off)
{
	for (size_t i = 0, len; i < p->len && i <= off; i += len)
		if ((len = diag_utf8_len(p->input + i, p->len - i)) == 0)
			return i;
	return off;
}

static void report_libyaml(struct parser *p)
{
	yaml_parser_t *yp = &p->yp;
	const char *problem = yp->problem ? yp->problem : "unknown error";
	switch (yp->error) {
	case YAML_MEMORY_ERROR:
		fprintf(stderr, "umpire: out of memory (libyaml)\n");
		abort();
	case YAML_READER_ERROR: {
		yaml_mark_t m;
		if (!strstr(problem, "UTF-8")) {
			offset_mark(p, yp->problem_offset, &m);
			perr(p, m, "%s: #x%02X (UTF-8 text without control characters expected)",
				problem, (unsigned)yp->problem_value);
			return;
		}
		size_t at = first_bad_utf8(p, yp->problem_offset);
		unsigned byte = at < p->len ? p->input[at] : (unsigned)yp->problem_value;
		char latin1[3] = { (char)(0xc0 | byte >> 6), (char)(0x80 | (byte & 0x3f)), 0 };
		offset_mark(p, at, &m);
		perr(p, m,
			"byte #x%02X is not UTF-8%s%s%s (UTF-8 text without control characters expected)",
			byte, byte >= 0xa0 ? ", perhaps Latin-1 '" : "", byte >= 0xa0 ? latin1 : "",
			byte >= 0xa0 ? "': save the file as UTF-8" : "");
		return;
	}
	default:
		if (yp->context)
			perr(p, yp->problem_mark,
				"%s %s started at line %zu, column %zu (valid YAML expected)",
				problem, yp->context, yp->context_mark.line + 1,
				yp->context_mark.column + 1);
		else
			perr(p, yp->problem_mark, "%s (valid YAML expected)", problem);
		return;
	}
}

/* Common checks for a node-starting event; returns -1 when parsing must stop. */
static int node_event(struct parser *p, const yaml_char_t *anchor, const yaml_char_t *tag,
	yaml_mark_t mark)
{
	if (++p->nodes > p->lim.max_nodes) {
		perr(p, mark, "too many nodes: more than %zu (at most %zu expected)",
			p->lim.max_nodes, p->lim.max_nodes);
		return -1;
	}
	struct buf b = BUF_INIT;
	if (anchor) {
		show(&b, (const char *)anchor);
		perr(p, mark, "anchor '&%s' is not allowed (plain values expected)", buf_str(&b));
	}
	if (tag) {
		/* Show the tag as written: libyaml hands over "!!str" expanded. */
		static const char core[] = "tag:yaml.org,2002:";
		const char *t = (const char *)tag;
		int is_core = !strncmp(t, core, sizeof(core) - 1);
		buf_clear(&b);
		show(&b, is_core ? t + sizeof(core) - 1 : t);
		perr(p, mark, "tag '%s%s' is not allowed (untagged values expected)",
			is_core ? "!!" : "", buf_str(&b));
	}
	buf_release(&b);
	return 0;
}

/* Handles one event; returns 1 at the end of the stream, 0 to go on, -1 to stop. */
static int parse_event(struct parser *p, yaml_event_t *ev)
{
	struct node *n;
	switch (ev->type) {
	case YAML_STREAM_START_EVENT:
	case YAML_DOCUMENT_END_EVENT:
	case YAML_NO_EVENT:
		return 0;
	case YAML_STREAM_END_EVENT:
		return 1;
	case YAML_DOCUMENT_START_EVENT:
		if (p->documents++) {
			perr(p, ev->start_mark,
				"a second document is not allowed (one document per file expected)");
			return -1;
		}
		if (ev->data.document_start.version_directive ||
			ev->data.document_start.tag_directives.start !=
				ev->data.document_start.tag_directives.end)
			perr(p, ev->start_mark,
				"directives are not allowed (a plain YAML document expected)");
		return 0;
	case YAML_ALIAS_EVENT:
		if (node_event(p, NULL, NULL, ev->start_mark) < 0)
			return -1;
		struct buf b = BUF_INIT;
		show(&b, (const char *)ev->data.alias.anchor);
		perr(p, ev->start_mark, "alias '*%s' is not allowed (plain values expected)",
			buf_str(&b));
		buf_release(&b);
		/* A stand-in keeps the structure whole so later errors are still found. */
		n = parse_new(p, NODE_SCALAR, ev->start_mark);
		n->scalar = xasprintf("*%s", (const char *)ev->data.alias.anchor);
		n->quoted = 1;
		attach(p, n);
		return 0;
	case YAML_SCALAR_EVENT: {
		size_t len = ev->data.scalar.length;
		if (node_event(p, ev->data.scalar.anchor, ev->data.scalar.tag, ev->start_mark) < 0)
			return -1;
		if (len > p->lim.max_scalar)
			perr(p, ev->start_mark, "value is %zu bytes long (at most %zu expected)",
				len, p->lim.max_scalar);
		/* A "\0" escape in a double-quoted scalar would silently cut a C string. */
		if (memchr(ev->data.scalar.value, '\0', len))
			perr(p, ev->start_mark,
				"value contains a NUL character (text without NUL expected)");
		n = parse_new_scalar(p, (const char *)ev->data.scalar.value, len, ev->start_mark);
		n->quoted = ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
		attach(p, n);
		return 0;
	}
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT: {
		int is_map = ev->type == YAML_MAPPING_START_EVENT;
		const yaml_char_t *anchor = is_map ? ev->data.mapping_start.anchor :
						     ev->data.sequence_start.anchor;
		const yaml_char_t *tag = is_map ? ev->data.mapping_start.tag :
						  ev->data.sequence_start.tag;
		if (node_event(p, anchor, tag, ev->start_mark) < 0)
			return -1;
		if (p->depth + 1 > p->lim.max_depth) {
			perr(p, ev->start_mark,
				"collections nested %zu deep (at most %zu levels expected)",
				p->depth + 1, p->lim.max_depth);
			return -1;
		}
		n = parse_new(p, is_map ? NODE_MAP : NODE_SEQ, ev->start_mark);
		attach(p, n);
		p->stack[p->depth].coll = n;
		p->stack[p->depth].key = NULL;
		p->depth++;
		return 0;
	}
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT: {
		assert(p->depth > 0);
		struct frame *f = &p->stack[--p->depth];
		/* libyaml always pairs keys with values (an absent value is an empty scalar). */
		assert(!f->key);
		if (f->coll->kind == NODE_MAP)
			check_duplicates(p, f->coll);
		return 0;
	}
	}
	return 0;
}

int node_parse(struct node **out, const char *file, const void *buf, size_t len,
	const struct node_limits *lim, struct diag *d)
{
	struct parser p;
	int rc = -1;
	memset(&p, 0, sizeof(p));
	*out = NULL;
	p.file = file ? file : "<input>";
	p.input = buf;
	p.len = len;
	p.d = d;
	if (lim)
		p.lim = *lim;
	if (!p.lim.max_bytes)
		p.lim.max_bytes = NODE_DEFAULT_MAX_BYTES;
	if (!p.lim.max_depth)
		p.lim.max_depth = NODE_DEFAULT_MAX_DEPTH;
	if (!p.lim.max_nodes)
		p.lim.max_nodes = NODE_DEFAULT_MAX_NODES;
	if (!p.lim.max_scalar)
		p.lim.max_scalar = NODE_DEFAULT_MAX_SCALAR;

	if (len > p.lim.max_bytes) {
		diag_add(d, p.file, 1, 1, "file is %zu bytes (at most %zu expected)", len,
			p.lim.max_bytes);
		return -1;
	}
	/* libyaml skips a UTF-8 byte order mark but then counts it as a column, so "---"
	 * right after it is no longer a document marker; drop it here instead. */
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3)) {
		p.input += 3;
		p.len -= 3;
	}
	/* After the size check, so an oversized file gets its one line and no copy; after the
	 * byte order mark, so columns on line 1 are counted from where libyaml counts them. */
	diag_source(d, p.file, p.input, p.len);
	p.stack = xcalloc(p.lim.max_depth, sizeof(*p.stack));
	if (!yaml_parser_initialize(&p.yp)) {
		fprintf(stderr, "umpire: out of memory (libyaml)\n");
		abort();
	}
	yaml_parser_set_input_string(&p.yp, p.len ? p.input : (const unsigned char *)"", p.len);
	/* Order files are UTF-8; a UTF-16 byte order mark is an error, not a hint. */
	yaml_parser_set_encoding(&p.yp, YAML_UTF8_ENCODING);

	for (;;) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&p.yp, &ev)) {
			report_libyaml(&p);
			break;
		}
		int r = parse_event(&p, &ev);
		yaml_event_delete(&ev);
		if (r)
			break;
	}
	if (!p.errors && (!p.root || (p.root->kind == NODE_SCALAR && !p.root->quoted &&
					     p.root->scalar[0] == '\0'))) {
		diag_add(d, p.file, 1, 1, "document is empty (a YAML document expected)");
		p.errors++;
	}
	/* The root takes the arena; without one, nothing can be in it (the root comes first). */
	if (p.root)
		*(struct arena **)(p.root + 1) = p.arena;
	else
		assert(!p.arena);
	if (!p.errors) {
		*out = p.root;
		p.root = NULL;
		rc = 0;
	}
	/* After an early stop, keys still waiting for a value are owned by their frames (in
	 * the arena: freed with the root, after them). */
	for (size_t i = 0; i < p.depth; i++)
		node_free(p.stack[i].key);
	node_free(p.root);
	free(p.stack);
	yaml_parser_delete(&p.yp);
	return rc;
}

/* --- emitting ----------------------------------------------------------------------- */

static int write_buf(void *data, unsigned char *bytes, size_t size)
{
	buf_append(data, bytes, size);
	return 1;
}

static int ascii_lower_eq(const char *s, const char *word)
{
	for (; *s && *word; s++, word++) {
		char c = *s >= 'A' && *s <= 'Z' ? (char)(*s - 'A' + 'a') : *s;
		if (c != *word)
			return 0;
	}
	return *s == '\0' && *word == '\0';
}

/* Whether s, written plain, reads back as the string s under YAML 1.1 and 1.2 readers
 * alike. Deliberately conservative: anything that might resolve to null, a bool, a number
 * (including octal, hex, sexagesimal, .inf), or needs escaping is quoted instead. */
static int plain_safe(const char *s)
{
	static const char *const words[] = { "y", "n", "yes", "no", "true", "false", "on", "off",
		"null", "~", NULL };
	size_t len = strlen(s);
	if (len == 0 || s[0] == ' ' || s[len - 1] == ' ')
		return 0;
	for (size_t i = 0; len <= 5 && words[i]; i++) /* none is longer than "false" */
		if (ascii_lower_eq(s, words[i]))
			return 0;
	unsigned char c0 = (unsigned char)s[0];
	if (!((c0 >= 'a' && c0 <= 'z') || (c0 >= 'A' && c0 <= 'Z') || (c0 >= '0' && c0 <= '9') ||
		    c0 == '_' || c0 == '/' || c0 >= 0x80))
		return 0;
	int numeric_chars = 1; /* only [0-9_.:eE+-] after a leading digit: a number */
	int ascii = 1;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		ascii &= c < 0x80;
		int alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			    (c >= '0' && c <= '9');
		if (!alnum && c != '_' && c != '-' && c != '.' && c != '/' && c != ' ' && c < 0x80)
			return 0;
		if (!((c >= '0' && c <= '9') || c == '_' || c == '.' || c == ':' || c == 'e' ||
			    c == 'E' || c == '+' || c == '-'))
			numeric_chars = 0;
	}
	/* Non-ASCII: refuse the code points YAML treats as breaks, spaces or marks. */
	for (size_t i = 0; !ascii && i + 1 < len; i++) {
		const unsigned char *u = (const unsigned char *)s + i;
		if (u[0] == 0xc2 && (u[1] < 0xa1)) /* C1 controls, NEL, no-break space */
			return 0;
		if (i + 2 < len && u[0] == 0xe2 && u[1] == 0x80 && (u[2] == 0xa8 || u[2] == 0xa9))
			return 0; /* line and paragraph separators */
		if (i + 2 < len && u[0] == 0xef && u[1] == 0xbb && u[2] == 0xbf)
			return 0; /* byte order mark */
	}
	if (c0 >= '0' && c0 <= '9') {
		if (numeric_chars)
			return 0;
		/* 0x1F, 0o17, 0b101 */
		if (c0 == '0' && len > 1 && strchr("xXoObB", s[1]))
			return 0;
	}
	return 1;
}

static int emit_node(yaml_emitter_t *em, const struct node *n)
{
	yaml_event_t ev;
	switch (n->kind) {
	case NODE_SCALAR: {
		yaml_scalar_style_t style = YAML_PLAIN_SCALAR_STYLE;
		if (n->quoted && !plain_safe(n->scalar))
			style = YAML_DOUBLE_QUOTED_SCALAR_STYLE;
		if (!yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)n->scalar,
			    (int)strlen(n->scalar), 1, 1, style))
			return -1;
		break;
	}
	case NODE_SEQ:
		if (!yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
			    n->n ? YAML_BLOCK_SEQUENCE_STYLE : YAML_FLOW_SEQUENCE_STYLE))
			return -1;
		if (!yaml_emitter_emit(em, &ev))
			return -1;
		for (size_t i = 0; i < n->n; i++)
			if (emit_node(em, n->items[i]) < 0)
				return -1;
		yaml_sequence_end_event_initialize(&ev);
		break;
	case NODE_MAP:
		if (!yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
			    n->n ? YAML_BLOCK_MAPPING_STYLE : YAML_FLOW_MAPPING_STYLE))
			return -1;
		if (!yaml_emitter_emit(em, &ev))
			return -1;
		for (size_t i = 0; i < n->n; i++)
			if (emit_node(em, n->keys[i]) < 0 || emit_node(em, n->items[i]) < 0)
				return -1;
		yaml_mapping_end_event_initialize(&ev);
		break;
	}
	/* yaml_emitter_emit takes the event, also on failure. */
	return yaml_emitter_emit(em, &ev) ? 0 : -1;
}

/* 1 if the len bytes at p are UTF-8 that libyaml's emitter (unicode on) writes as they are
 * inside double quotes: well formed, and each character outside ASCII printable by its
 * IS_PRINTABLE (U+00A0 to U+FFFD, no surrogate, no U+FEFF, U+FFFE, U+FFFF; nothing past
 * U+FFFF) and not a break (U+2028, U+2029). Else 0: libyaml decides. */
static int utf8_as_is(const unsigned char *p, size_t len)
{
	for (size_t i = 0; i < len;) {
		unsigned c = p[i], n, cp;
		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf) {
			n = 1;
			cp = c & 0x1f;
		} else if (c >= 0xe0 && c <= 0xef) {
			n = 2;
			cp = c & 0x0f;
		} else {
			return 0;
		}
		if (i + n >= len)
			return 0;
		for (unsigned k = 1; k <= n; k++) {
			if ((p[i + k] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (p[i + k] & 0x3f);
		}
		if (cp < 0xa0 || (n == 2 && cp < 0x800) || (cp >= 0xd800 && cp <= 0xdfff) ||
			cp == 0x2028 || cp == 0x2029 || cp == 0xfeff || cp >= 0xfffe)
			return 0;
		i += n + 1;
	}
	return 1;
}

/* s as emit_node writes a printable scalar that fits on its line: plain when plain_safe says so
 * (quoted, ASCII) or for an integer or a bool (not quoted), else double-quoted, '"' and '\\'
 * escaped as libyaml does (UTF-8 as utf8_as_is allows). -1 for anything else: libyaml's. */
static int simple_scalar(struct buf *out, const char *s, int quoted)
{
	size_t len = 0;
	int ascii = 1;
	for (; s[len]; len++) {
		unsigned char c = (unsigned char)s[len];
		if (c < 0x20 || c == 0x7f)
			return -1;
		ascii &= c < 0x80;
	}
	/* Outside ASCII only inside double quotes (libyaml chooses how to write a plain one). */
	if (!ascii && (!quoted || plain_safe(s) || !utf8_as_is((const unsigned char *)s, len)))
		return -1;
	if (!quoted) {
		size_t i = s[0] == '-';
		int digits = len > i;
		for (; i < len; i++)
			digits = digits && s[i] >= '0' && s[i] <= '9';
		if (!digits && strcmp(s, "true") != 0 && strcmp(s, "false") != 0)
			return -1;
		buf_append(out, s, len);
		return 0;
	}
	if (ascii && plain_safe(s)) { /* never with '"' or '\\' in it */
		buf_append(out, s, len);
		return 0;
	}
	buf_puts(out, "\"");
	for (size_t i = 0; i < len; i++) {
		int esc = s[i] == '"' || s[i] == '\\'; /* then a backslash before it */
		buf_append(out, (const char[]){ '\\', s[i] } + !esc, 1 + (size_t)esc);
	}
	buf_puts(out, "\"");
	return 0;
}

/* --- emitting without libyaml, for the documents it would write the same ---------------- */

/* 1 if s is ASCII and plain_safe: a mapping key fast_block writes as it is (simple_scalar
 * would write the same bytes; libyaml writes any other key). */
static int plain_ascii(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p >= 0x80)
			return 0;
	return plain_safe(s);
}

int node_written_quoted(const struct node *n)
{
	return n->quoted && !plain_ascii(n->scalar);
}

static void put_indent(struct buf *out, int indent)
{
	static const char spaces[] = "                                ";
	for (; indent > 0; indent -= (int)(sizeof(spaces) - 1))
		buf_append(out, spaces,
			indent < (int)sizeof(spaces) - 1 ? (size_t)indent : sizeof(spaces) - 1);
}

static int fast_block(struct buf *out, const struct node *n, int indent, int inline_first,
	size_t line, int depth);

/* The rest of a line after "key:" or "- " (sep: what goes before a value on that line):
 * a scalar, an empty collection, or a collection on the lines below. -1 where libyaml might
 * write otherwise. */
static int fast_value(struct buf *out, const struct node *v, int indent, const char *sep,
	size_t line, int depth)
{
	if (v->kind == NODE_SCALAR) {
		buf_puts(out, sep);
		if (simple_scalar(out, v->scalar, v->quoted) < 0 ||
			out->len - line >= NODE_EMIT_WIDTH)
			return -1;
		buf_puts(out, "\n");
		return 0;
	}
	if (v->n == 0) {
		buf_puts(out, sep);
		buf_puts(out, v->kind == NODE_MAP ? "{}\n" : "[]\n");
		return 0;
	}
	return fast_block(out, v, indent, 0, line, depth + 1);
}

/* A block mapping or sequence at indent as libyaml writes it (indent 2; a sequence that is
 * a mapping's value is not indented further); when inline_first, its first entry continues
 * the line "- " began at line. 0, or -1 for anything outside that simple form. */
static int fast_block(struct buf *out, const struct node *n, int indent, int inline_first,
	size_t line, int depth)
{
	if (depth > NODE_FAST_EMIT_DEPTH)
		return -1;
	for (size_t i = 0; i < n->n; i++) {
		if (i > 0 || !inline_first) {
			line = out->len;
			put_indent(out, indent);
		}
		if (n->kind == NODE_SEQ) {
			const struct node *v = n->items[i];
			buf_puts(out, "- ");
			if (v->kind != NODE_SCALAR && v->n) {
				if (fast_block(out, v, indent + 2, 1, line, depth + 1) < 0)
					return -1;
			} else if (fast_value(out, v, indent, "", line, depth) < 0) {
				return -1;
			}
			continue;
		}
		const struct node *k = n->keys[i], *v = n->items[i];
		if (k->kind != NODE_SCALAR || !plain_ascii(k->scalar))
			return -1;
		buf_puts(out, k->scalar);
		buf_puts(out, ":");
		if (v->kind != NODE_SCALAR && v->n) {
			buf_puts(out, "\n");
			if (fast_block(out, v, v->kind == NODE_MAP ? indent + 2 : indent, 0, 0,
				    depth + 1) < 0)
				return -1;
		} else if (fast_value(out, v, indent, " ", line, depth) < 0) {
			return -1;
		}
	}
	return 0;
}

/* n as libyaml's emitter writes it, appended to out (left as it was on failure). 0 / -1. */
static int emit_libyaml(const struct node *n, struct buf *out)
{
	yaml_emitter_t em;
	yaml_event_t ev;
	int rc = -1;
	struct buf tmp = BUF_INIT;
	if (!yaml_emitter_initialize(&em)) {
		fprintf(stderr, "umpire: out of memory (libyaml)\n");
		abort();
	}
	/* Written to a scratch buffer so a failure leaves out as it was. */
	yaml_emitter_set_output(&em, write_buf, &tmp);
	yaml_emitter_set_encoding(&em, YAML_UTF8_ENCODING);
	yaml_emitter_set_unicode(&em, 1);
	yaml_emitter_set_width(&em, NODE_EMIT_WIDTH);
	yaml_emitter_set_indent(&em, 2);
	yaml_emitter_set_break(&em, YAML_LN_BREAK);

	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	if (!yaml_emitter_emit(&em, &ev))
		goto done;
	yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
	if (!yaml_emitter_emit(&em, &ev))
		goto done;
	if (emit_node(&em, n) < 0)
		goto done;
	yaml_document_end_event_initialize(&ev, 1);
	if (!yaml_emitter_emit(&em, &ev))
		goto done;
	yaml_stream_end_event_initialize(&ev);
	if (!yaml_emitter_emit(&em, &ev) || !yaml_emitter_flush(&em))
		goto done;
	buf_append(out, tmp.data, tmp.len);
	rc = 0;
done:
	yaml_emitter_delete(&em);
	buf_release(&tmp);
	return rc;
}

int node_emit(const struct node *n, struct buf *out)
{
	int fast;
	return node_emit_how(n, out, &fast);
}

int node_emit_how(const struct node *n, struct buf *out, int *fast)
{
	*fast = 0;
	if (!n)
		return -1;
	/* Most documents (states, exports) are block collections of short scalars: written
	 * directly, as libyaml would write them; libyaml writes anything else. */
	if (n->kind != NODE_SCALAR && n->n) {
		size_t at = out->len;
		if (fast_block(out, n, 0, 0, at, 0) == 0) {
			*fast = 1;
			return 0;
		}
		out->len = at;
		if (out->data)
			out->data[at] = '\0';
	}
	return emit_libyaml(n, out);
}

int node_emit_entry(struct buf *out, int item, int first, const char *key, const char *value,
	int quoted)
{
	size_t at = out->len;
	buf_puts(out, item ? (first ? "- " : "  ") : "");
	buf_puts(out, key);
	buf_puts(out, ": ");
	if (simple_scalar(out, value, quoted) == 0 && out->len - at < NODE_EMIT_WIDTH) {
		buf_puts(out, "\n");
		return 0;
	}
	/* Anything else as libyaml writes it: the entry alone, in a mapping at the same
	 * column (an item of a sequence when item), so at the same indentation and width. */
	out->len = at;
	out->data[at] = '\0';
	struct node *map = node_new_map(), *root = map;
	struct node *v = node_new_str(value);
	v->quoted = quoted;
	node_map_add(map, key, v);
	if (item) {
		root = node_new_seq();
		node_seq_add(root, map);
	}
	int rc = node_emit(root, out);
	if (rc == 0 && item && !first)
		out->data[at] = ' '; /* "- " opened the wrapping sequence's item */
	node_free(root);
	return rc;
}

/* --- reading with diagnostics ------------------------------------------------------- */

const struct node *node_get(const struct node *map, const char *key)
{
	if (!map || map->kind != NODE_MAP)
		return NULL;
	for (size_t i = 0; i < map->n; i++) /* the first byte first: most keys differ there */
		if (map->keys[i]->kind == NODE_SCALAR && map->keys[i]->scalar[0] == key[0] &&
			!strcmp(map->keys[i]->scalar, key))
			return map->items[i];
	return NULL;
}

const struct node *node_need(const struct node *map, const char *key, struct diag *d)
{
	const struct node *v = node_get(map, key);
	if (v)
		return v;
	if (map && map->kind != NODE_MAP) {
		struct buf b = BUF_INIT;
		describe(&b, map);
		node_error(d, map, "expected a mapping with key '%s', found %s", key, buf_str(&b));
		buf_release(&b);
	} else {
		node_error(d, map, "missing key '%s' (a value for '%s' expected)", key, key);
	}
	return NULL;
}

static int want_kind(const struct node *n, enum node_kind kind, const char *what, struct diag *d)
{
	const char *kname = kind == NODE_MAP ? "a mapping" : "a sequence";
	if (!n) {
		node_error(d, n, "missing %s (%s expected)", what, kname);
		return -1;
	}
	if (n->kind == kind)
		return 0;
	struct buf b = BUF_INIT;
	if (n->kind == NODE_SCALAR && !n->quoted && n->scalar[0] == '\0')
		buf_puts(&b, "an empty value");
	else if (n->kind == NODE_SCALAR)
		describe(&b, n);
	else
		buf_puts(&b, n->kind == NODE_MAP ? "a mapping" : "a sequence");
	node_error(d, n, "expected %s for %s, found %s", kname, what, buf_str(&b));
	buf_release(&b);
	return -1;
}

int node_check_keys(const struct node *n, const char *what, const char *const *allowed, int *bad,
	struct diag *d)
{
	if (node_check_map(n, what, allowed, d) == 0)
		return 0;
	*bad = -1;
	return n && n->kind == NODE_MAP ? 0 : -1;
}

int node_check_map(const struct node *n, const char *what, const char *const *allowed,
	struct diag *d)
{
	int rc = 0;
	if (want_kind(n, NODE_MAP, what, d) < 0)
		return -1;
	for (size_t i = 0; i < n->n; i++) {
		const struct node *k = n->keys[i];
		size_t j = 0;
		while (allowed && allowed[j] &&
			(allowed[j][0] != k->scalar[0] || strcmp(allowed[j], k->scalar)))
			j++;
		if (allowed && allowed[j])
			continue;
		struct buf b = BUF_INIT, names = BUF_INIT;
		show(&b, k->scalar);
		list_names(&names, allowed);
		if (names.len)
			node_error(d, k, "unknown key '%s' in %s (expected one of: %s)",
				buf_str(&b), what, buf_str(&names));
		else
			node_error(d, k, "unknown key '%s' in %s (no keys expected)", buf_str(&b),
				what);
		buf_release(&b);
		buf_release(&names);
		rc = -1;
	}
	return rc;
}

int node_check_seq(const struct node *n, const char *what, size_t max_items, struct diag *d)
{
	if (want_kind(n, NODE_SEQ, what, d) < 0)
		return -1;
	if (max_items && n->n > max_items) {
		node_error(d, n, "too many items in %s: %zu (at most %zu expected)", what, n->n,
			max_items);
		return -1;
	}
	return 0;
}

/* Strict decimal: "0" or an optional '-' and digits without a leading zero (YAML 1.1
 * reads 010 as octal 8, so a leading zero is ambiguous, not harmless). */
static int parse_decimal(const char *s, long long *out)
{
	int neg = *s == '-';
	const char *p = s + neg;
	unsigned long long v = 0;
	unsigned long long lim = neg ? (unsigned long long)LLONG_MAX + 1 : LLONG_MAX;
	if (*p < '0' || *p > '9' || (*p == '0' && (p[1] != '\0' || neg)))
		return -1;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return -1;
		unsigned digit = (unsigned)(*p - '0');
		if (v > (lim - digit) / 10)
			return -1;
		v = v * 10 + digit;
	}
	if (neg)
		*out = v == (unsigned long long)LLONG_MAX + 1 ? LLONG_MIN : -(long long)v;
	else
		*out = (long long)v;
	return 0;
}

int node_want_int(const struct node *n, const char *what, long long min, long long max,
	long long *out, struct diag *d)
{
	long long v;
	char expected[96];

	if (n && n->kind == NODE_SCALAR && !n->quoted && parse_decimal(n->scalar, &v) == 0 &&
		v >= min && v <= max) {
		*out = v;
		return 0;
	}
	/* The message only on failure: a big state parses thousands of integers. */
	if (min == LLONG_MIN && max == LLONG_MAX)
		snprintf(expected, sizeof(expected), "an integer");
	else if (min == LLONG_MIN)
		snprintf(expected, sizeof(expected), "an integer of at most %lld", max);
	else if (max == LLONG_MAX)
		snprintf(expected, sizeof(expected), "an integer of at least %lld", min);
	else if (min == max)
		snprintf(expected, sizeof(expected), "the integer %lld", min);
	else
		snprintf(expected, sizeof(expected), "an integer from %lld to %lld", min, max);
	report_is(d, n, what, expected);
	return -1;
}

/* A plain empty scalar is YAML's null: for a string it means the value was left out. */
static int want_scalar(const struct node *n, const char *what, const char *expected, struct diag *d)
{
	if (!n || n->kind != NODE_SCALAR || (!n->quoted && n->scalar[0] == '\0')) {
		report_is(d, n, what, expected);
		return -1;
	}
	return 0;
}

int node_want_str(const struct node *n, const char *what, size_t max_len, const char **out,
	struct diag *d)
{
	char expected[64];
	if (max_len)
		snprintf(expected, sizeof(expected), "a string of at most %zu bytes", max_len);
	else
		snprintf(expected, sizeof(expected), "a string");
	if (want_scalar(n, what, expected, d) < 0)
		return -1;
	size_t len = strlen(n->scalar);
	if (max_len && len > max_len) {
		node_error(d, n, "%s is %zu bytes long (at most %zu expected)", what, len, max_len);
		return -1;
	}
	*out = n->scalar;
	return 0;
}

int node_is_id(const char *s)
{
	size_t len = strlen(s);
	int ok = len >= 1 && len <= NODE_ID_MAX;

	for (size_t i = 0; ok && i < len; i++) {
		char c = s[i];
		ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		     c == '_' || c == '.' || c == '-';
	}
	return ok;
}

int node_want_id(const struct node *n, const char *what, const char **out, struct diag *d)
{
	static const char expected[] = "an identifier of 1 to 64 letters, digits, '_', '.' or '-'";
	if (want_scalar(n, what, expected, d) < 0)
		return -1;
	if (!node_is_id(n->scalar)) {
		report_is(d, n, what, expected);
		return -1;
	}
	*out = n->scalar;
	return 0;
}

int node_is_player_id(const char *s)
{
	char c = s[0];

	return node_is_id(s) &&
	       ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'));
}

int node_want_player_id(const struct node *n, const char *what, const char **out, struct diag *d)
{
	static const char expected[] = "a player id: 1 to 64 letters, digits, '_', '.' or '-', "
				       "starting with a letter or a digit";
	if (want_scalar(n, what, expected, d) < 0)
		return -1;
	if (!node_is_player_id(n->scalar)) {
		report_is(d, n, what, expected);
		return -1;
	}
	*out = n->scalar;
	return 0;
}

int node_want_bool(const struct node *n, const char *what, int *out, struct diag *d)
{
	if (n && n->kind == NODE_SCALAR && !n->quoted) {
		if (!strcmp(n->scalar, "true")) {
			*out = 1;
			return 0;
		}
		if (!strcmp(n->scalar, "false")) {
			*out = 0;
			return 0;
		}
	}
	report_is(d, n, what, "true or false");
	return -1;
}

int node_want_enum(const struct node *n, const char *what, const char *const *names, int *out,
	struct diag *d)
{
	struct buf list = BUF_INIT;
	int rc = -1;
	/* The list of names only for a message: a state of thousands of enums parses without. */
	if (!n || n->kind != NODE_SCALAR || (!n->quoted && n->scalar[0] == '\0')) {
		struct buf b = BUF_INIT;
		list_names(&list, names);
		describe(&b, n);
		node_error(d, n, "%s is %s (one of: %s expected)", what, buf_str(&b),
			buf_str(&list));
		buf_release(&b);
		goto done;
	}
	for (int i = 0; names && names[i]; i++) {
		if (!strcmp(names[i], n->scalar)) {
			*out = i;
			rc = 0;
			goto done;
		}
	}
	struct buf b = BUF_INIT;
	list_names(&list, names);
	show(&b, n->scalar);
	node_error(d, n, "unknown %s '%s' (expected one of: %s)", what, buf_str(&b),
		buf_str(&list));
	buf_release(&b);
done:
	buf_release(&list);
	return rc;
}
