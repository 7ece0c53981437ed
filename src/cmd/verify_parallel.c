/* verify_parallel.c — `umpire verify` checks the turns on both cores (issue 38): every turn's
 * chain head is computed first from the committed exports, then threads, each with its own
 * repository handle and journal connection, take runs of turns in order; each turn's lines,
 * dice and failure are kept and told in turn order, so the output and the first failure are
 * those of one thread whatever the threads' timing. UMPIRE_VERIFY_THREADS=1 checks on one. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/verify.h"
#include "core/campaign.h"
#include "core/journal.h"
#include "core/layout.h"
#include "core/repo.h"
#include "core/turn.h"
#include "core/banned.h"

#define MAX_RUN 16     /* most turns a thread takes at a time: each run walks the key chain */
#define MAX_THREADS 16 /* UMPIRE_VERIFY_THREADS above this is taken as this */

/* What checking one turn gave. */
struct turn_result {
	int done;         /* 1 checked (passed or failed) */
	int failed;       /* 1 failed: klass and message say why */
	int klass;        /* the failure's error class */
	char *message;    /* the failure's message, owned */
	struct buf lines; /* what say() printed for it */
	size_t dice;      /* dice it checked */
};

/* What the threads share; next and first_failed under lock. */
struct pool {
	struct verify *v;
	int from, last;
	int run; /* turns a thread takes at a time: about eight runs a thread, at most MAX_RUN */
	uint8_t (*heads)[FAIR_HASH_BYTES]; /* heads[t - from + 1]: the chain head after turn t;
	                                    * heads[0] the one before from */
	struct turn_result *results;       /* results[t - from] */
	pthread_mutex_t lock;
	int next;         /* the first turn no thread has taken */
	int first_failed; /* the first turn found failing so far, last + 1 none */
};

/* How many threads: UMPIRE_VERIFY_THREADS (1 to MAX_THREADS), else 2, or 1 on one core. */
static int thread_count(void)
{
	const char *env = getenv("UMPIRE_VERIFY_THREADS");
	long n = env && *env ? strtol(env, NULL, 10) : 0;

	if (n >= 1)
		return n > MAX_THREADS ? MAX_THREADS : (int)n;
	return sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 2 : 1;
}

/* The journal hash chain after each turn from the committed exports (check_trailers checks
 * each against its commit). An export that cannot be read leaves the head before it: its
 * turn fails before the head is used, and the turns after it are not told. The exports are
 * read at main's tip, whose one journal/ tree holds them all (at each tag, each turn's own
 * copy of that tree is inflated and hashed: issue 38), else at the turn's tag. A head is only
 * used when every turn before it passed, and a turn passes only when its export at main is
 * the one at its tag (check_unchanged): so these are the heads the tags give. */
static void chain_heads(struct pool *p)
{
	char tag[LAYOUT_TAG_MAX], path[LAYOUT_PATH_MAX];
	struct buf bytes = BUF_INIT;

	memcpy(p->heads[0], p->v->head, FAIR_HASH_BYTES);
	for (int t = p->from; t <= p->last; t++) {
		int i = t - p->from + 1;
		layout_tag(tag, t);
		layout_export_path(path, t);
		buf_clear(&bytes);
		if (repo_read(p->v->c->repo, LAYOUT_BRANCH, path, &bytes) == 0 ||
			repo_read(p->v->c->repo, tag, path, &bytes) == 0)
			turn_chain_head(p->heads[i], p->heads[i - 1], bytes.data ? bytes.data : "",
				bytes.len);
		else
			memcpy(p->heads[i], p->heads[i - 1], FAIR_HASH_BYTES);
	}
	buf_release(&bytes);
	error_clear();
}

/* The next run of turns to check, [*a, *b]; 0 when none is left before the first failure. */
static int take_run(struct pool *p, int *a, int *b)
{
	(void)pthread_mutex_lock(&p->lock);
	*a = p->next;
	*b = *a + p->run - 1 < p->last ? *a + p->run - 1 : p->last;
	int ok = *a <= p->last && *a < p->first_failed;
	if (ok)
		p->next = *b + 1;
	if (ok && p->v->progress)
		fprintf(stderr, "\r\033[Kverifying turn %d/%d", *a, p->last);
	(void)pthread_mutex_unlock(&p->lock);
	return ok;
}

/* Checks runs of turns with w (a copy of the run's verify, its own campaign handles) until
 * none is left: each turn starts from the chain head before it. */
static void check_runs(struct pool *p, struct verify *w)
{
	int a, b;

	while (take_run(p, &a, &b)) {
		for (int t = a; t <= b; t++) {
			struct turn_result *r = &p->results[t - p->from];
			memcpy(w->head, p->heads[t - p->from], FAIR_HASH_BYTES);
			w->dice = 0;
			w->out = &r->lines;
			error_clear();
			if (verify_turn(w, t) < 0) {
				r->failed = 1;
				r->klass = error_last()->klass;
				r->message = xstrdup(error_last()->message);
			}
			r->dice = w->dice;
			r->done = 1;
			if (r->failed) {
				(void)pthread_mutex_lock(&p->lock);
				if (t < p->first_failed)
					p->first_failed = t;
				(void)pthread_mutex_unlock(&p->lock);
				break; /* the turns after it in this run cannot be the first failure */
			}
		}
	}
}

/* A thread's own campaign handles: the run's campaign as read, with its own repository and
 * journal connection (libgit2 and SQLite handles are not shared between threads). */
struct worker {
	struct pool *p;
	struct verify v;
	struct campaign c;
};

static void *worker_main(void *arg)
{
	struct worker *k = arg;

	check_runs(k->p, &k->v);
	repo_forget_trees(NULL); /* this thread's, before its handle is freed */
	return NULL;
}

static int worker_open(struct worker *k, struct pool *p)
{
	k->p = p;
	k->v = *p->v;
	k->c = *p->v->c;
	k->c.repo = NULL;
	k->c.journal = NULL;
	k->v.c = &k->c;
	if (repo_open(&k->c.repo, p->v->c->dir) < 0)
		return -1;
	if (p->v->c->journal) {
		char *path = xasprintf("%s/.umpire/journal.sqlite", p->v->c->dir);
		int rc = journal_open_read(&k->c.journal, path);
		free(path);
		if (rc < 0)
			return -1;
	}
	return 0;
}

static void worker_close(struct worker *k)
{
	if (k->c.journal)
		journal_close(k->c.journal);
	if (k->c.repo)
		repo_free(k->c.repo);
}

/* The results in turn order: each passing turn's lines, dice and chain head, up to the first
 * failure, which becomes error_last(). 0 / -1. */
static int tell_results(struct pool *p)
{
	struct verify *v = p->v;

	for (int t = p->from; t <= p->last; t++) {
		struct turn_result *r = &p->results[t - p->from];
		assert(r->done); /* every turn before the first failure was checked */
		if (!v->json)
			fwrite(r->lines.data ? r->lines.data : "", 1, r->lines.len, stdout);
		if (r->failed) {
			/* what a later turn set is not seen by one thread, which stops here */
			for (int u = t + 1; u <= p->last && (size_t)u < v->n_witnessed; u++)
				v->witnessed[u] = 0;
			fflush(stdout);
			return error_set(r->klass, "%s", r->message);
		}
		v->dice += r->dice;
		memcpy(v->head, p->heads[t - p->from + 1], FAIR_HASH_BYTES);
	}
	fflush(stdout);
	return 0;
}

int verify_turns_parallel(struct verify *v, int *from, int last)
{
	int n = thread_count(), rc = 0;

	if (n < 2 || last - *from + 1 < 2)
		return 0;
	if (v->n_trust_tsa && verify_stamps_open(v) < 0)
		return 0; /* the turns say it, one at a time */
	struct pool p = { .v = v, .from = *from, .last = last, .next = *from };
	size_t count = (size_t)(last - *from + 1);
	p.first_failed = last + 1;
	p.run = (int)(count / (8 * (size_t)n));
	p.run = p.run < 1 ? 1 : p.run > MAX_RUN ? MAX_RUN : p.run;
	p.heads = xcalloc(count + 1, sizeof(*p.heads));
	p.results = xcalloc(count, sizeof(*p.results));
	(void)pthread_mutex_init(&p.lock, NULL);
	chain_heads(&p);

	struct worker *k = xcalloc((size_t)n, sizeof(*k));
	pthread_t *th = xcalloc((size_t)n, sizeof(*th));
	int started = 0;
	for (int i = 1; i < n; i++) {
		if (worker_open(&k[i], &p) < 0 ||
			pthread_create(&th[i], NULL, worker_main, &k[i]) != 0)
			break; /* fewer threads: the results are the same */
		started = i;
	}
	error_clear();
	v->threads = started + 1;
	/* this thread checks too, with the run's own handles */
	struct verify own = *v;
	check_runs(&p, &own);
	for (int i = 1; i <= started; i++)
		(void)pthread_join(th[i], NULL);
	for (int i = 1; i < n; i++)
		worker_close(&k[i]);
	if (v->progress)
		fputs("\r\033[K", stderr);
	rc = tell_results(&p);
	if (rc == 0)
		*from = last + 1;
	for (size_t i = 0; i < count; i++) {
		free(p.results[i].message);
		buf_release(&p.results[i].lines);
	}
	(void)pthread_mutex_destroy(&p.lock);
	free(th);
	free(k);
	free(p.results);
	free(p.heads);
	return rc;
}
