/* node_read.c — the tree node_parse would read back from bytes node_emit_how has just written
 * without libyaml, made from the tree they were written from: a turn checks the state it wrote
 * as the next turn loads it without parsing a 9,600-figure state.yaml a second time. */
#include "core/node.h"

#include <stdlib.h>
#include <string.h>
#include "core/banned.h"

/* Key indices by key text, for index_sort. */
static int key_index_cmp(size_t a, size_t b, const void *ctx)
{
	struct node *const *keys = ctx;
	return strcmp(keys[a]->scalar, keys[b]->scalar);
}

/* 1 if a key of map (every key a scalar) is there twice, as node_parse would refuse. */
static int key_twice(const struct node *map)
{
	if (map->n <= 8) {
		for (size_t i = 1; i < map->n; i++)
			for (size_t j = 0; j < i; j++)
				if (strcmp(map->keys[i]->scalar, map->keys[j]->scalar) == 0)
					return 1;
		return 0;
	}
	size_t *idx = xmalloc(map->n * sizeof(*idx)), *tmp = xmalloc(map->n * sizeof(*tmp));
	for (size_t i = 0; i < map->n; i++)
		idx[i] = i;
	index_sort(idx, tmp, map->n, key_index_cmp, map->keys);
	int twice = 0;
	for (size_t i = 1; i < map->n && !twice; i++)
		twice = strcmp(map->keys[idx[i]]->scalar, map->keys[idx[i - 1]]->scalar) == 0;
	free(idx);
	free(tmp);
	return twice;
}

/* n at depth (collections open around it), counting nodes as node_parse's events do. */
static int as_read(struct node *n, size_t depth, size_t *nodes, const struct node_limits *lim)
{
	if (++*nodes > lim->max_nodes)
		return -1;
	if (n->kind == NODE_SCALAR) {
		if (strlen(n->scalar) > lim->max_scalar)
			return -1;
		n->quoted = (unsigned char)node_written_quoted(n);
		return 0;
	}
	if (depth + 1 > lim->max_depth)
		return -1;
	for (size_t i = 0; i < n->n; i++) {
		struct node *k = n->keys ? n->keys[i] : NULL;
		/* node_emit_how writes every key plain (without libyaml). */
		if (k && (k->kind != NODE_SCALAR || ++*nodes > lim->max_nodes ||
				 strlen(k->scalar) > lim->max_scalar))
			return -1;
		if (k)
			k->quoted = 0;
		if (as_read(n->items[i], depth + 1, nodes, lim) < 0)
			return -1;
	}
	return n->kind == NODE_MAP && key_twice(n) ? -1 : 0;
}

int node_as_read(struct node *n, size_t len, const struct node_limits *lim)
{
	struct node_limits l = { 0 };
	size_t nodes = 0;

	if (lim)
		l = *lim;
	l.max_bytes = l.max_bytes ? l.max_bytes : NODE_DEFAULT_MAX_BYTES;
	l.max_depth = l.max_depth ? l.max_depth : NODE_DEFAULT_MAX_DEPTH;
	l.max_nodes = l.max_nodes ? l.max_nodes : NODE_DEFAULT_MAX_NODES;
	l.max_scalar = l.max_scalar ? l.max_scalar : NODE_DEFAULT_MAX_SCALAR;
	/* node_emit_how writes a scalar alone with libyaml, and an empty collection as "{}". */
	if (!n || n->kind == NODE_SCALAR || n->n == 0 || len > l.max_bytes)
		return -1;
	return as_read(n, 0, &nodes, &l);
}
