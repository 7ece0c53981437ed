/* turns.c — the game-end test the rule systems with a scenario's last turn share (turns.h). */
#include "rules/lib/turns.h"
#include "core/banned.h"

int turns_last_played(int turns, int turn, const char **why)
{
	if (turns > 0 && turn > turns) {
		if (why)
			*why = "the scenario's last turn has been played";
		return 1;
	}
	return 0;
}
