/* cmd.h: the command table: lookup and checks, one entry per command file, hints. */
#ifndef HF_CMD_H
#define HF_CMD_H

#include "tables.h"

/* ------------------------------------------------------------- cmd.c */
const struct cmd_entry *cmd_find(const char *name, char *why, size_t whylen);
const struct cmd_entry *const *cmd_table(size_t *n);
/* Reads one typed command line (cleaned, prefix stripped) into cmd: its
 * first word the name, the rest read as the table entry's arguments are
 * (cards in groups for a card command, else words).  The one reader of
 * typed text; a bad argument is kept in cmd->why for cmd_run to refuse. */
void cmd_parse(const char *line, struct command *cmd);
/* Checks and runs one command, typed (cmd_parse) or given as data by
 * an adapter: the one path every command takes. */
void cmd_run(struct cmd_ctx *c, const struct command *cmd);
/* A seated player's !join N or !team N before the deal: 0, or -1 with the refusal said. */
int  cmd_join_team_change(struct cmd_ctx *c, const char *word);

#define CMD_ENTRY(n) extern const struct cmd_entry cmd_##n##_entry
CMD_ENTRY(new); CMD_ENTRY(join); CMD_ENTRY(leave); CMD_ENTRY(bot); CMD_ENTRY(start);
CMD_ENTRY(draw); CMD_ENTRY(pickup); CMD_ENTRY(meld); CMD_ENTRY(discard); CMD_ENTRY(out);
CMD_ENTRY(yes); CMD_ENTRY(no); CMD_ENTRY(hand); CMD_ENTRY(table); CMD_ENTRY(pile);
CMD_ENTRY(score); CMD_ENTRY(rules); CMD_ENTRY(who); CMD_ENTRY(abort); CMD_ENTRY(stats);
CMD_ENTRY(top); CMD_ENTRY(help); CMD_ENTRY(private); CMD_ENTRY(auto); CMD_ENTRY(play); CMD_ENTRY(tell);
CMD_ENTRY(hint); CMD_ENTRY(watch); CMD_ENTRY(web); CMD_ENTRY(team); CMD_ENTRY(clock);
#undef CMD_ENTRY

/* ------------------------------------------------------------ hint.c */
/* A hint as one line of commands to type in order ("hint: !meld 4 4 2, 5 5 5
 * · !discard 8"), or one step and "then !hint again"; cards as the hand names them. */
void hint_line(struct rbuf *b, const struct hf_hint *h);
/* cmd-play.c: refuses arguments naming players by id ("@bob:server"),
 * which only an adapter that makes rooms handles; true if refused. */
bool play_names_ids(struct cmd_ctx *c);

#endif
