/* bench/floor.c — the in-process half of `make bench` (bench/run.sh is the other):
 *
 *   floor dice N            the dice service (dice_roll, fair source) against raw libsodium
 *                           HMAC-SHA256 of the same message, and against raw OpenSSL
 *                           HMAC-SHA256 keyed once as the service uses it (EVP_MAC), N
 *                           each, alternated; medians
 *   floor turn JOURNAL T FILE...
 *                           the floor of turn T: what no referee can avoid for it — libyaml
 *                           loading the same order files, SQLite inserting the same rows
 *                           (read from JOURNAL, turn T) in one WAL/synchronous=FULL
 *                           transaction with bound parameters, and one libgit2 commit of
 *                           the same files (fsync on; their bytes from the campaign's tag
 *                           turn-T) into a fresh repository, in $TMPDIR (/tmp);
 *                           prints the median seconds of 5 runs
 *   floor run [--ok CODE] CMD ARG...
 *                           runs CMD once (fork/exec, its stdout and stderr to /dev/null) and
 *                           prints "wall user sys maxrss_kb": wall in seconds from
 *                           CLOCK_MONOTONIC (ns resolution), user and sys CPU seconds and peak
 *                           RSS from wait4's rusage (us resolution), where /usr/bin/time
 *                           rounds to 10 ms; exits 1 if CMD fails (exits other than 0 and
 *                           CODE: verify's 3, "consistent, not proven fair", is how an
 *                           entropy-none or demo-beacon campaign passes)
 *
 * Public libraries only (libyaml, SQLite, libgit2, libsodium, OpenSSL) plus the project's own dice
 * service. Timing is CLOCK_MONOTONIC; nothing here is a test (speed is never asserted). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <git2.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <sodium.h>
#include <sqlite3.h>
#include <yaml.h>

#include "core/dice.h"
#include "core/fair.h"

#define RUNS 5

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int dbl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), dbl_cmp);
	return v[n / 2];
}

static void die(const char *what)
{
	fprintf(stderr, "floor: %s\n", what);
	exit(1);
}

/* --- dice service against raw HMAC ----------------------------------------------------- */

static double time_service(long n)
{
	static const uint8_t seed[32] = { 7 };
	struct dice d;
	double t0 = now();

	dice_init_fair(&d, seed);
	for (long i = 0; i < n; i++)
		dice_roll(&d, 6, "bench");
	double t = now() - t0;
	dice_release(&d);
	return t;
}

static double time_raw_hmac(long n)
{
	static const uint8_t seed[32] = { 7 };
	uint8_t msg[25] = "umpire/die/v1", out[32];
	volatile uint8_t sink = 0;
	double t0 = now();

	for (long i = 0; i < n; i++) {
		msg[20] = (uint8_t)i;
		crypto_auth_hmacsha256(out, msg, sizeof msg, seed);
		sink ^= out[0];
	}
	(void)sink;
	return now() - t0;
}

/* The same HMAC through OpenSSL's EVP_MAC the way the dice service computes it: the key set
 * once, each message restarting the keyed context (EVP_MAC_init without a key). */
static double time_raw_openssl(long n)
{
	static uint8_t seed[32] = { 7 };
	uint8_t msg[25] = "umpire/die/v1", out[32];
	volatile uint8_t sink = 0;
	char digest[] = "SHA256";
	OSSL_PARAM params[] = {
		OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
		OSSL_PARAM_construct_end(),
	};
	EVP_MAC *mac = EVP_MAC_fetch(NULL, OSSL_MAC_NAME_HMAC, NULL);
	EVP_MAC_CTX *ctx = mac ? EVP_MAC_CTX_new(mac) : NULL;
	size_t len;
	double t0 = now();

	if (!ctx || EVP_MAC_init(ctx, seed, sizeof seed, params) != 1)
		die("OpenSSL HMAC");
	for (long i = 0; i < n; i++) {
		msg[20] = (uint8_t)i;
		if (EVP_MAC_init(ctx, NULL, 0, NULL) != 1 ||
			EVP_MAC_update(ctx, msg, sizeof msg) != 1 ||
			EVP_MAC_final(ctx, out, &len, sizeof out) != 1)
			die("OpenSSL HMAC");
		sink ^= out[0];
	}
	(void)sink;
	double t = now() - t0;
	EVP_MAC_CTX_free(ctx);
	EVP_MAC_free(mac);
	return t;
}

static int bench_dice(long n)
{
	double svc[RUNS], raw[RUNS], ossl[RUNS];

	for (int r = 0; r < RUNS; r++) {
		svc[r] = time_service(n);
		raw[r] = time_raw_hmac(n);
		ossl[r] = time_raw_openssl(n);
	}
	double s = median(svc, RUNS), h = median(raw, RUNS), o = median(ossl, RUNS);
	printf("dice_service_per_s %.0f\nraw_hmac_per_s %.0f\nservice_vs_raw %.3f\n"
	       "raw_openssl_hmac_per_s %.0f\nservice_vs_openssl %.3f\n",
		n / s, n / h, h / s, n / o, o / s);
	return 0;
}

/* --- the floor of a turn ---------------------------------------------------------------- */

struct blob {
	char *path;
	void *data;
	size_t len;
};

struct rows {
	sqlite3_stmt *sel[4]; /* dice, events, orders, files of the turn */
	struct blob *files;
	size_t n_files;
};

static void *file_bytes(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *p = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		die(path);
	do {
		if (n == cap)
			p = realloc(p, cap = cap ? 2 * cap : 65536);
		got = fread(p + n, 1, cap - n, f);
		n += got;
	} while (got > 0);
	fclose(f);
	*len = n;
	return p;
}

static void parse_yaml(const void *bytes, size_t len)
{
	yaml_parser_t p;
	yaml_document_t doc;

	yaml_parser_initialize(&p);
	yaml_parser_set_input_string(&p, bytes, len);
	if (!yaml_parser_load(&p, &doc))
		die("yaml");
	yaml_document_delete(&doc);
	yaml_parser_delete(&p);
}

/* Copies the turn's rows of table from src into dst, one bound INSERT a row. */
static void copy_rows(sqlite3 *src, sqlite3 *dst, const char *table, int turn)
{
	char sql[256];
	sqlite3_stmt *sel, *ins;

	snprintf(sql, sizeof sql, "SELECT * FROM %s WHERE turn = ?1", table);
	if (sqlite3_prepare_v2(src, sql, -1, &sel, NULL) != SQLITE_OK)
		die(sqlite3_errmsg(src));
	sqlite3_bind_int(sel, 1, turn);
	int cols = sqlite3_column_count(sel);
	char marks[128] = "";
	for (int i = 0; i < cols; i++)
		strcat(marks, i ? ",?" : "?");
	snprintf(sql, sizeof sql, "INSERT INTO %s VALUES (%s)", table, marks);
	if (sqlite3_prepare_v2(dst, sql, -1, &ins, NULL) != SQLITE_OK)
		die(sqlite3_errmsg(dst));
	while (sqlite3_step(sel) == SQLITE_ROW) {
		for (int i = 0; i < cols; i++)
			sqlite3_bind_value(ins, i + 1, sqlite3_column_value(sel, i));
		if (sqlite3_step(ins) != SQLITE_DONE)
			die(sqlite3_errmsg(dst));
		sqlite3_reset(ins);
	}
	sqlite3_finalize(sel);
	sqlite3_finalize(ins);
}

static const char *const tables[] = { "turns", "orders", "dice", "events", "files" };

/* A fresh database with the journal's tables (no triggers: the floor), WAL, FULL. */
static sqlite3 *fresh_db(sqlite3 *src, const char *path)
{
	sqlite3 *db;
	sqlite3_stmt *st;

	unlink(path);
	if (sqlite3_open(path, &db) != SQLITE_OK)
		die("sqlite open");
	sqlite3_exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL", NULL, NULL, NULL);
	if (sqlite3_prepare_v2(src, "SELECT sql FROM sqlite_master WHERE type = 'table'", -1, &st,
		    NULL) != SQLITE_OK)
		die(sqlite3_errmsg(src));
	while (sqlite3_step(st) == SQLITE_ROW)
		if (sqlite3_exec(db, (const char *)sqlite3_column_text(st, 0), NULL, NULL, NULL) !=
			SQLITE_OK)
			die(sqlite3_errmsg(db));
	sqlite3_finalize(st);
	return db;
}

/* The turn's committed files: the paths of its files rows, the bytes as the campaign's git
 * holds them at tag turn-T (the journal keeps their hashes only since schema_version 2). The
 * campaign is the journal's folder's parent (.umpire/journal.sqlite). */
static void load_files(sqlite3 *src, const char *journal, int turn, struct rows *r)
{
	sqlite3_stmt *st;
	git_repository *repo;
	git_object *tree;
	char dir[4096], rev[64];

	snprintf(dir, sizeof dir, "%s", journal);
	for (int k = 0; k < 2; k++) {
		char *slash = strrchr(dir, '/');
		if (!slash)
			die("the journal's path names no campaign folder");
		*slash = '\0';
	}
	if (!dir[0])
		snprintf(dir, sizeof dir, "/");
	snprintf(rev, sizeof rev, "turn-%04d^{tree}", turn);
	if (git_repository_open(&repo, dir) < 0 || git_revparse_single(&tree, repo, rev) < 0)
		die("the journal's campaign has no tag of the turn");
	if (sqlite3_prepare_v2(src, "SELECT path FROM files WHERE turn = ?1", -1, &st, NULL) !=
		SQLITE_OK)
		die(sqlite3_errmsg(src));
	sqlite3_bind_int(st, 1, turn);
	while (sqlite3_step(st) == SQLITE_ROW) {
		git_tree_entry *e;
		git_blob *blob;
		r->files = realloc(r->files, (r->n_files + 1) * sizeof(*r->files));
		struct blob *b = &r->files[r->n_files++];
		b->path = strdup((const char *)sqlite3_column_text(st, 0));
		if (git_tree_entry_bypath(&e, (git_tree *)tree, b->path) < 0 ||
			git_blob_lookup(&blob, repo, git_tree_entry_id(e)) < 0)
			die(b->path);
		b->len = (size_t)git_blob_rawsize(blob);
		b->data = malloc(b->len + 1);
		memcpy(b->data, git_blob_rawcontent(blob), b->len);
		git_blob_free(blob);
		git_tree_entry_free(e);
	}
	sqlite3_finalize(st);
	git_object_free(tree);
	git_repository_free(repo);
}

/* One commit of the turn's files on an empty tree, in a fresh repository. */
static void commit_files(const char *dir, const struct rows *r)
{
	git_repository *repo;
	git_index *index;
	git_signature *sig;
	git_tree *tree;
	git_oid tree_id, commit_id;

	if (git_repository_init(&repo, dir, 0) < 0 || git_index_new(&index) < 0)
		die("git init");
	for (size_t i = 0; i < r->n_files; i++) {
		git_index_entry e;
		memset(&e, 0, sizeof e);
		e.path = r->files[i].path;
		e.mode = GIT_FILEMODE_BLOB;
		if (git_blob_create_from_buffer(&e.id, repo, r->files[i].data, r->files[i].len) <
				0 ||
			git_index_add(index, &e) < 0)
			die("git blob");
	}
	if (git_index_write_tree_to(&tree_id, index, repo) < 0 ||
		git_tree_lookup(&tree, repo, &tree_id) < 0 ||
		git_signature_new(&sig, "umpire", "umpire@localhost", 0, 0) < 0 ||
		git_commit_create(&commit_id, repo, "refs/heads/main", sig, sig, NULL, "floor\n",
			tree, 0, NULL) < 0)
		die("git commit");
	git_signature_free(sig);
	git_tree_free(tree);
	git_index_free(index);
	git_repository_free(repo);
}

static int bench_turn(const char *journal, int turn, char **paths, int n_paths)
{
	/* in $TMPDIR when set (bench/lib.sh's big_floor: beside the campaign it is the floor of,
	 * on the same file system, fsyncs and all), else /tmp */
	const char *tmpdir = getenv("TMPDIR");
	char tmpl[1024], dbpath[1100], gitdir[1100];

	if (!tmpdir || !*tmpdir)
		tmpdir = "/tmp";
	if (strchr(tmpdir, '\'') ||
		snprintf(tmpl, sizeof tmpl, "%s/umpire-floor.XXXXXX", tmpdir) >= (int)sizeof tmpl)
		die("TMPDIR: too long or has a quote");
	double t[RUNS];
	sqlite3 *src;
	struct rows r = { 0 };
	void **bytes = calloc((size_t)n_paths, sizeof(*bytes));
	size_t *lens = calloc((size_t)n_paths, sizeof(*lens));

	if (!mkdtemp(tmpl))
		die("mkdtemp");
	if (sqlite3_open_v2(journal, &src, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
		die("journal");
	git_libgit2_init();
	load_files(src, journal, turn, &r);
	for (int i = 0; i < n_paths; i++)
		bytes[i] = file_bytes(paths[i], &lens[i]);
	git_libgit2_opts(GIT_OPT_ENABLE_FSYNC_GITDIR, 1);
	for (int run = 0; run < RUNS; run++) {
		snprintf(dbpath, sizeof dbpath, "%s/j%d.sqlite", tmpl, run);
		snprintf(gitdir, sizeof gitdir, "%s/g%d", tmpl, run);
		sqlite3 *db = fresh_db(src, dbpath);
		double t0 = now();
		for (int i = 0; i < n_paths; i++)
			parse_yaml(bytes[i], lens[i]);
		sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
		for (size_t k = 0; k < sizeof tables / sizeof tables[0]; k++)
			copy_rows(src, db, tables[k], turn);
		if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
			die(sqlite3_errmsg(db));
		commit_files(gitdir, &r);
		t[run] = now() - t0;
		sqlite3_close(db);
	}
	printf("floor_s %.4f\n", median(t, RUNS));
	char cmd[1100];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpl);
	if (system(cmd) != 0)
		die("rm");
	sqlite3_close(src);
	return 0;
}

/* --- one command, timed precisely ----------------------------------------------------- */

static double tv_s(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static int bench_run(char **argv, int ok)
{
	double start = now();
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		if (null < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0)
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	int status;
	struct rusage ru;

	if (wait4(pid, &status, 0, &ru) != pid)
		die("wait4");
	double wall = now() - start;

	printf("%.6f %.6f %.6f %ld\n", wall, tv_s(ru.ru_utime), tv_s(ru.ru_stime), ru.ru_maxrss);
	return WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == ok) ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (sodium_init() < 0)
		die("sodium");
	if (argc == 3 && strcmp(argv[1], "dice") == 0)
		return bench_dice(atol(argv[2]));
	if (argc >= 5 && strcmp(argv[1], "run") == 0 && strcmp(argv[2], "--ok") == 0)
		return bench_run(argv + 4, atoi(argv[3]));
	if (argc >= 3 && strcmp(argv[1], "run") == 0)
		return bench_run(argv + 2, 0);
	if (argc >= 4 && strcmp(argv[1], "turn") == 0)
		return bench_turn(argv[2], atoi(argv[3]), argv + 4, argc - 4);
	fprintf(stderr,
		"usage: floor dice N | floor turn JOURNAL TURN FILE... | floor run [--ok CODE] CMD ARG...\n");
	return 64;
}
