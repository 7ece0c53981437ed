/* cmd.h — one function per command (src/cmd/<name>.c); main.c dispatches through a static
 * table. Each returns a sysexits code and never calls exit(). argv[0] is the command name. */
#ifndef UMPIRE_CMD_H
#define UMPIRE_CMD_H

int cmd_init(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_turn(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_log(int argc, char **argv);
int cmd_state(int argc, char **argv);
int cmd_rules(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_audit(int argc, char **argv);
int cmd_stats(int argc, char **argv);

/* Parses argv for a command whose only option is --help. Returns 0 to go on, -1 when help
 * was printed (exit 0), or EXIT_USAGE after printing help to stderr. */
int cmd_options_help_only(int argc, char **argv, const char *help);

/* Parses a --turn value (0..999999) or prints a usage error; returns 0 / -1. */
int cmd_parse_turn(const char *s, int *out);

#endif
