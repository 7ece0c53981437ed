/* words.h — small pieces of English for messages and reports (words.c). */
#ifndef UMPIRE_WORDS_H
#define UMPIRE_WORDS_H

/* The possessive ending of name: "'" after a final s (the austrians' orders, the dwarfs'
 * turn), else "'s" (the attacker's). A static string, to print after name. */
const char *words_possessive(const char *name);

#endif
