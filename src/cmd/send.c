/* send.c — stub. */
#include "cmd/cmd.h"
#include "core/banned.h"

int cmd_send(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return EXIT_SOFTWARE;
}
