/* turns.h — the game-end test the rule systems with a scenario's last turn share (rules.h,
 * game_over). */
#ifndef UMPIRE_RULES_LIB_TURNS_H
#define UMPIRE_RULES_LIB_TURNS_H

/* 1 when the scenario has a last turn (turns > 0) and turn is past it, with *why (why not
 * NULL) "the scenario's last turn has been played"; else 0. */
int turns_last_played(int turns, int turn, const char **why);

#endif
