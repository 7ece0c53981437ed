/* node.h — the YAML document tree every file format is read into and written from.
 * The only YAML parser in umpire is behind this header (libyaml, in node.c). Reading is
 * strict because order files are untrusted: one document, no anchors, aliases or tags,
 * no duplicate keys, bounded size, depth and node count. Every node keeps its line and
 * column so semantic errors point at the offending value. Writing is canonical: maps are
 * emitted in the order their keys were added, block style, so the same tree always gives
 * the same bytes. */
#ifndef UMPIRE_NODE_H
#define UMPIRE_NODE_H

#include <stddef.h>
#include <stdint.h>
#include "core/diag.h"
#include "core/buf.h"

enum node_kind { NODE_SCALAR, NODE_SEQ, NODE_MAP };

struct node {
	enum node_kind kind;
	int line, column;     /* 1-based position of the node's first character; 0 if built */
	unsigned char quoted; /* NODE_SCALAR: written quoted in the source / forced string */
	unsigned char mem;    /* 0: its own allocation; node_parse's: 1 in its root's arena
	                       * (node_free leaves it to the root), 2 the root owning it */
	const char *file;     /* source file name (owned by the doc), NULL if built in memory */
	char *scalar;         /* NODE_SCALAR: the text, NUL-terminated */
	size_t n;             /* NODE_SEQ: items; NODE_MAP: pairs */
	struct node **items;  /* NODE_SEQ items; NODE_MAP values */
	struct node **keys;   /* NODE_MAP keys (always scalars, unique) */
};

/* What a node_limits field of 0 stands for. */
enum {
	NODE_DEFAULT_MAX_BYTES = 64 * 1024,
	NODE_DEFAULT_MAX_DEPTH = 16,
	NODE_DEFAULT_MAX_NODES = 20000,
	NODE_DEFAULT_MAX_SCALAR = 4096,
};

struct node_limits {
	size_t max_bytes;  /* input size; 0 = 64 KiB */
	size_t max_depth;  /* nesting of collections; 0 = 16 */
	size_t max_nodes;  /* total nodes; 0 = 20000 */
	size_t max_scalar; /* bytes of one scalar; 0 = 4096 */
};

/* Parses one YAML document from buf (len bytes, need not be NUL-terminated).
 * file names the input in diagnostics and is copied. On success *out is the root (a doc
 * owned by the caller; free with node_free) and 0 is returned. On failure every error
 * found is added to d, *out is NULL, and -1 is returned. An empty document is an error.
 * lim may be NULL for the defaults. */
int node_parse(struct node **out, const char *file, const void *buf, size_t len,
	const struct node_limits *lim, struct diag *d);

/* Frees a tree from node_parse or the builders below (NULL is fine). */
void node_free(struct node *n);

/* --- builders (for state, journal exports, campaign files); abort on OOM --- */
struct node *node_new_map(void);
struct node *node_new_seq(void);
/* A string scalar; emitted quoted if it would otherwise read as a number/bool/null. */
struct node *node_new_str(const char *s);
struct node *node_new_int(long long v);
struct node *node_new_bool(int v);
/* Appends key → value to map (takes ownership of value; key is copied). Returns value. */
struct node *node_map_add(struct node *map, const char *key, struct node *value);
/* Convenience: adds a string / int / bool value. */
void node_map_str(struct node *map, const char *key, const char *s);
/* Adds n bytes as lower-case hex (n <= 64: hashes, keys, salts). */
void node_map_hex(struct node *map, const char *key, const unsigned char *bytes, size_t n);
void node_map_int(struct node *map, const char *key, long long v);
void node_map_bool(struct node *map, const char *key, int v);
/* Appends value to seq (takes ownership). Returns value. */
struct node *node_seq_add(struct node *seq, struct node *value);
/* Deep copy (positions kept, file pointer shared: the copy must not outlive the source). */
struct node *node_clone(const struct node *n);

/* Emits n as a YAML document (block style, "---" omitted, trailing newline) onto out.
 * Deterministic: same tree, same bytes. Returns 0, or -1 on emitter failure. */
int node_emit(const struct node *n, struct buf *out);
/* node_emit, and in *fast 1 when it wrote n without libyaml (a block
 * collection of scalars on one line each, node_written_quoted saying how), else 0. */
int node_emit_how(const struct node *n, struct buf *out, int *fast);
/* For a scalar node_emit_how wrote without libyaml: 1 if it is written quoted (a reader sees a
 * quoted string), 0 if plain (as a key always is). */
int node_written_quoted(const struct node *n);
/* Makes n, a tree node_emit_how wrote without libyaml into len bytes, the tree node_parse reads
 * from those bytes under lim (NULL or 0 fields: the defaults): each scalar's quoted flag as
 * written (positions and file stay unset). 0, or -1 when node_parse would refuse them (over
 * a limit, a key twice): then n is part-changed and only the bytes tell; parse them. For the
 * checks of what umpire has just written (the turn's reread), not for anything read. */
int node_as_read(struct node *n, size_t len, const struct node_limits *lim);
/* Appends one "key: value" entry of a block mapping exactly as node_emit writes it inside a
 * whole document, without building the document: item 0, the document's own mapping
 * (column 0); item 1, a mapping that is an item of a block sequence (first: its first key,
 * after "- "). value is a string (quoted: 1, as node_map_str), or the text of an integer or
 * a bool (quoted: 0). Printable ASCII is written directly, anything else by libyaml.
 * Returns 0, or -1 when libyaml fails (out as it was). */
int node_emit_entry(struct buf *out, int item, int first, const char *key, const char *value,
	int quoted);

/* --- reading with diagnostics (all report into d and return -1 on failure) --- */

/* The value for key in map, or NULL (map may be NULL or not a map). */
const struct node *node_get(const struct node *map, const char *key);
/* Like node_get, but a missing key is an error at the map's position. */
const struct node *node_need(const struct node *map, const char *key, struct diag *d);
/* Checks n is a map and has only keys from allowed (NULL-terminated); reports each
 * unknown key at the key's position with the list of expected keys. */
/* The same for parsers that report every problem at once: any problem sets *bad to -1;
 * returns -1 only when n is not a map (nothing more can be read), 0 otherwise, so the known
 * keys of a map with unknown ones are still checked. */
int node_check_keys(const struct node *n, const char *what, const char *const *allowed, int *bad,
	struct diag *d);
int node_check_map(const struct node *n, const char *what, const char *const *allowed,
	struct diag *d);
int node_check_seq(const struct node *n, const char *what, size_t max_items, struct diag *d);
/* Integer in [min, max] (decimal, optional sign, plain scalar). */
int node_want_int(const struct node *n, const char *what, long long min, long long max,
	long long *out, struct diag *d);
/* Any scalar (not a collection); *out points into the node. max_len 0 = no limit. */
int node_want_str(const struct node *n, const char *what, size_t max_len, const char **out,
	struct diag *d);
/* 1 if s is an identifier: 1 to NODE_ID_MAX letters, digits, '_', '.' or '-'. */
int node_is_id(const char *s);

/* 1 if s is a player id (docs/formats.md, "Player ids"): an identifier (node_is_id) that
 * starts with a letter or a digit, so never ".", "..", ".git", "-x" or any other name a
 * path or a command line reads as something else. Player ids name folders and files. */
int node_is_player_id(const char *s);
/* A player id (node_is_player_id), else an error at n. */
int node_want_player_id(const struct node *n, const char *what, const char **out, struct diag *d);

/* An identifier: [A-Za-z0-9_.-]+, at most 64 bytes. */
int node_want_id(const struct node *n, const char *what, const char **out, struct diag *d);
/* true/false. */
int node_want_bool(const struct node *n, const char *what, int *out, struct diag *d);
/* One of names (NULL-terminated); *out is its index. */
int node_want_enum(const struct node *n, const char *what, const char *const *names, int *out,
	struct diag *d);
/* Reports an error at n's position (n may be NULL: "<input>":1:1). */
void node_error(struct diag *d, const struct node *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Reports a warning at n's position (diag_warn): shown, but the input is not wrong. */
void node_warn(struct diag *d, const struct node *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
