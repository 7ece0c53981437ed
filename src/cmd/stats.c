/* stats.c — `umpire stats`: how often each face came up over the whole campaign, per die
 * size, from the committed journal exports (so a clone will do), with Pearson's chi-square
 * test of fairness (p-value from GSL's chi-square distribution). Filters by player, die size
 * and purpose text. A statistic, not a proof: verify is the proof.
 * GSL is opened when a report is printed (dlopen), not linked: its two libraries would
 * otherwise be mapped and relocated by every umpire process for this command's one function. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "cmd/cmd.h"
#include "core/audit.h"
#include "core/dynlib.h"
#include "core/error.h"
#include "core/layout.h"
#include "core/banned.h"

#define STATS_MAX_FACES 100    /* a per-face table and test only up to d100 */
#define STATS_MIN_EXPECTED 5.0 /* the usual rule for the chi-square approximation */
#define STATS_LEVEL 0.01       /* the verdict's significance level */
#define RULING_PREFIX "umpire ruling "

static const char stats_help[] =
	"usage: umpire stats DIR [--player P] [--sides N] [--for TEXT]\n\n"
	"Counts how often each face came up, per die size, over every turn of the campaign in DIR\n"
	"(from the committed journal exports: a clone will do), with the expected count per face\n"
	"and Pearson's chi-square test: the statistic, its degrees of freedom (faces - 1) and the\n"
	"p-value, then a one-line verdict at the 1% level. Sizes above d100 are counted, not\n"
	"tested; a size with fewer than 5 dice expected per face is shown but not tested.\n\n"
	"  --player P   the dice of the turns whose orders from P were resolved (P sent a file:\n"
	"               'received: true' in the export), except umpire rulings; '--player umpire'\n"
	"               is exactly the umpire's rulings (purpose 'umpire ruling N: ...'). Purposes\n"
	"               name rules and units, not players, so a turn is the unit of ownership: in a\n"
	"               game where both sides move every turn, use --for to pick a side's dice.\n"
	"  --sides N    only dice with N faces\n"
	"  --for TEXT   only dice whose purpose contains TEXT (case-sensitive), e.g. '§22 Shooting'\n\n"
	"Exit 0 whatever the verdict (a statistic is evidence, not proof: see 'umpire verify').\n";

struct group {
	uint64_t sides;
	uint64_t n;      /* dice of this size */
	uint64_t *count; /* count[face - 1], NULL above STATS_MAX_FACES */
};

struct stats {
	const char *player; /* --player or NULL */
	uint64_t sides;     /* --sides or 0 */
	const char *text;   /* --for or NULL */
	struct group *g;    /* by ascending sides */
	size_t n_g;
	uint64_t total;
	int turns;
};

static struct group *group_for(struct stats *s, uint64_t sides)
{
	size_t i = 0;
	while (i < s->n_g && s->g[i].sides < sides)
		i++;
	if (i < s->n_g && s->g[i].sides == sides)
		return &s->g[i];
	s->g = xrealloc(s->g, (s->n_g + 1) * sizeof(*s->g));
	memmove(&s->g[i + 1], &s->g[i], (s->n_g - i) * sizeof(*s->g));
	s->n_g++;
	memset(&s->g[i], 0, sizeof(s->g[i]));
	s->g[i].sides = sides;
	if (sides <= STATS_MAX_FACES)
		s->g[i].count = xcalloc((size_t)sides, sizeof(uint64_t));
	return &s->g[i];
}

/* Did the turn resolve orders from s->player? */
static int player_turn(const struct stats *s, const struct journal_record *r)
{
	for (size_t i = 0; i < r->n_orders; i++)
		if (strcmp(r->orders[i].player, s->player) == 0)
			return r->orders[i].sha256[0] != '\0';
	return 0;
}

static void count_turn(struct stats *s, const struct journal_record *r)
{
	int mine = s->player && strcmp(s->player, UMPIRE_PLAYER) != 0 && player_turn(s, r);

	for (size_t i = 0; i < r->n_dice; i++) {
		const struct die_record *d = &r->dice[i];
		int ruling = strncmp(d->purpose, RULING_PREFIX, strlen(RULING_PREFIX)) == 0;
		if (s->player &&
			(strcmp(s->player, UMPIRE_PLAYER) == 0 ? !ruling : !mine || ruling))
			continue;
		if (s->sides && d->sides != s->sides)
			continue;
		if (s->text && !strstr(d->purpose, s->text))
			continue;
		struct group *g = group_for(s, d->sides);
		g->n++;
		s->total++;
		if (g->count && d->value >= 1 && d->value <= d->sides)
			g->count[d->value - 1]++;
	}
}

/* GSL's upper tail of the chi-square distribution, from the library chisq_open loads. */
static __typeof__(gsl_cdf_chisq_Q) *chisq_q;

/* Opens GSL (the ABI of the headers compiled against first) and finds gsl_cdf_chisq_Q, once
 * a process. 0 / -1 (message set, naming the library). */
static int chisq_open(void)
{
	static const char *const names[] = { "libgsl.so.27", "libgsl.so.28", "libgsl.so.25" };
	if (chisq_q)
		return 0;
	void *h = dynlib_open("stats", "GSL", names, sizeof(names) / sizeof(names[0]));
	if (!h)
		return -1;
	if (dynlib_sym(h, "gsl_cdf_chisq_Q", &chisq_q, sizeof(chisq_q)) < 0)
		return error_set(ERROR_OS, "stats: GSL lacks gsl_cdf_chisq_Q");
	return 0;
}

/* Prints one die size; returns 1 tested and consistent, 0 not tested, -1 tested and not. */
static int report_group(const struct group *g, double *p_out)
{
	printf("d%" PRIu64 ": %" PRIu64 " %s", g->sides, g->n, g->n == 1 ? "die" : "dice");
	if (!g->count) {
		printf(": more than %d faces, counted but not tested\n\n", STATS_MAX_FACES);
		return 0;
	}
	double expected = (double)g->n / (double)g->sides, chi2 = 0;
	printf(", %.2f expected per face\n", expected);
	printf("  face   count  expected  (count-expected)^2/expected\n");
	for (uint64_t f = 0; f < g->sides; f++) {
		double dev = (double)g->count[f] - expected;
		double term = expected > 0 ? dev * dev / expected : 0;
		chi2 += term;
		printf("  %4" PRIu64 "  %6" PRIu64 "  %8.2f  %8.3f\n", f + 1, g->count[f], expected,
			term);
	}
	double df = (double)(g->sides - 1);
	double p = chisq_q(chi2, df);
	*p_out = p;
	printf("  chi-square = %.3f with %.0f degrees of freedom: p = %.4g\n", chi2, df, p);
	if (expected < STATS_MIN_EXPECTED) {
		printf("  (fewer than %.0f dice expected per face: too few for the chi-square test; "
		       "not counted in the verdict)\n\n",
			STATS_MIN_EXPECTED);
		return 0;
	}
	putchar('\n');
	return p >= STATS_LEVEL ? 1 : -1;
}

static int parse_sides(const char *s, uint64_t *out)
{
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (!*s || *end || errno || s[0] == '-' || v < 2) {
		fprintf(stderr, "umpire: --sides '%s' (a number of faces from 2 expected)\n", s);
		return -1;
	}
	*out = (uint64_t)v;
	return 0;
}

/* Counts every die of every committed journal export. Returns an exit code. */
static int count_campaign(struct stats *s, struct campaign *c)
{
	struct diag d;
	int rc = EXIT_OK;

	diag_init(&d);
	for (int t = 1; t <= TURN_MAX; t++) {
		struct journal_record *r = NULL;
		int got = audit_read_export(&r, c, t, NULL, &d);
		if (got == ERROR_NOTFOUND)
			break;
		if (got < 0) {
			if (diag_count(&d))
				diag_print(&d, stderr);
			rc = diag_count(&d) ? EXIT_DATAERR : cmd_error("umpire");
			break;
		}
		count_turn(s, r);
		journal_record_free(r);
		s->turns = t;
	}
	diag_release(&d);
	return rc;
}

/* The counts per face and the chi-square verdict. */
static void print_report(const struct stats *s, const struct campaign *c)
{
	struct buf failed = BUF_INIT;

	printf("campaign %s: %d turn%s, %" PRIu64 " %s", c->id, s->turns, s->turns == 1 ? "" : "s",
		s->total, s->total == 1 ? "die" : "dice");
	if (s->player || s->sides || s->text) {
		printf(" (");
		if (s->player)
			printf("player %s%s", s->player, s->sides || s->text ? ", " : "");
		if (s->sides)
			printf("d%" PRIu64 "%s", s->sides, s->text ? ", " : "");
		if (s->text)
			printf("for contains \"%s\"", s->text);
		printf(")");
	}
	printf("\n\n");
	int tested = 0, bad = 0;
	for (size_t i = 0; i < s->n_g; i++) {
		double p = 1;
		int r = report_group(&s->g[i], &p);
		tested += r != 0;
		if (r < 0) {
			buf_printf(&failed, "%sd%" PRIu64 " (p = %.4g)", bad ? ", " : "",
				s->g[i].sides, p);
			bad++;
		}
	}
	if (!tested)
		printf("verdict: too few dice to test (at least %.0f expected per face needed)\n",
			STATS_MIN_EXPECTED);
	else if (!bad)
		printf("verdict: consistent with fair dice at the 1%% level (%d die size%s tested)\n",
			tested, tested == 1 ? "" : "s");
	else
		printf("verdict: NOT consistent with fair dice at the 1%% level: %s (a fair die fails "
		       "this test once in a hundred campaigns; 'umpire verify' proves every die)\n",
			buf_str(&failed));
	buf_release(&failed);
}

int cmd_stats(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "player", required_argument, NULL, 'p' },
		{ "sides", required_argument, NULL, 's' },
		{ "for", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct stats s;
	struct campaign *c = NULL;
	int ch, rc;

	memset(&s, 0, sizeof(s));
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (ch) {
		case 'p':
			s.player = optarg;
			break;
		case 's':
			if (parse_sides(optarg, &s.sides) < 0)
				return EXIT_USAGE;
			break;
		case 'f':
			s.text = optarg;
			break;
		case 'h':
			fputs(stats_help, stdout);
			return EXIT_OK;
		default:
			return cmd_usage_see("stats");
		}
	}
	static const char *const operands[] = { "DIR (the campaign folder)" };
	if (cmd_operands("stats", argc - optind, argv + optind, operands, 1, 1) != EXIT_OK)
		return EXIT_USAGE;
	if (campaign_open(&c, argv[optind], 0) < 0)
		return cmd_error("umpire");
	if (s.player && strcmp(s.player, UMPIRE_PLAYER) != 0 && !campaign_has_player(c, s.player)) {
		fprintf(stderr,
			"umpire: --player '%s' is not a player of campaign '%s' (one of its "
			"players or umpire expected)\n",
			s.player, c->id);
		rc = EXIT_USAGE;
	} else {
		rc = count_campaign(&s, c);
		if (rc == EXIT_OK && chisq_open() < 0)
			rc = cmd_error("umpire");
		else if (rc == EXIT_OK)
			print_report(&s, c);
	}
	for (size_t i = 0; i < s.n_g; i++)
		free(s.g[i].count);
	free(s.g);
	campaign_close(c);
	return rc;
}
