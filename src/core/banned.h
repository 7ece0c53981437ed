/* banned.h — C library calls umpire never makes, turned into compile errors (git's banned.h):
 * each is too easy to misuse, or breaks determinism, and a safer call exists. Include it as
 * the last header of every .c file under src/ (tools/check-boundaries checks that): after the
 * system headers, whose prototypes a function-like macro would otherwise break. */
#ifndef UMPIRE_BANNED_H
#define UMPIRE_BANNED_H

#define BANNED(func) sorry_##func##_is_a_banned_function

/* Unbounded or silently truncating copies: the length is the caller's guess. Use buf_puts,
 * buf_printf, xstrdup or xasprintf (core/buf.h), or memcpy with a length you have checked. */
#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
/* strncpy does not terminate a full buffer, strncat's n is not the buffer's size. */
#undef strncpy
#define strncpy(x, y, n) BANNED(strncpy)
#undef strncat
#define strncat(x, y, n) BANNED(strncat)

/* No bound on the output. Use snprintf and check its result, or buf_printf/xasprintf. */
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
/* No bound at all (removed from C11). Use fgets or getline. */
#undef gets
#define gets(s) BANNED(gets)

/* No error report: "12x", "" and an overflow all come back as some number. Use strtol or
 * strtoll with errno, the end pointer and the range checked. */
#undef atoi
#define atoi(s) BANNED(atoi)
#undef atol
#define atol(s) BANNED(atol)
#undef atoll
#define atoll(s) BANNED(atoll)

/* Hidden static state: not reentrant, and it writes into its input. Use strcspn/strspn, or
 * strtok_r. */
#undef strtok
#define strtok(s, d) BANNED(strtok)

/* Randomness must be fair and replayable: every die comes from the dice service (core/dice.h),
 * which draws from the committed seed chain; secrets come from fair.c (libsodium). */
#undef rand
#define rand() BANNED(rand)
#undef srand
#define srand(s) BANNED(srand)
#undef random
#define random() BANNED(random)

/* The clock makes output depend on when it ran. Use clock_now() (core/clock.h), which honours
 * SOURCE_DATE_EPOCH; it alone reads the time of day, with clock_gettime. */
#undef time
#define time(t) BANNED(time)
/* Static result buffers (not reentrant), and localtime depends on the machine's time zone.
 * Use gmtime_r, with the time from clock_now(). */
#undef localtime
#define localtime(t) BANNED(localtime)
#undef gmtime
#define gmtime(t) BANNED(gmtime)
#undef ctime
#define ctime(t) BANNED(ctime)
#undef asctime
#define asctime(tm) BANNED(asctime)

/* A name that is free now may be taken before it is opened. Use mkstemp or mkdtemp. */
#undef mktemp
#define mktemp(x) BANNED(mktemp)
#undef tmpnam
#define tmpnam(s) BANNED(tmpnam)

#endif
