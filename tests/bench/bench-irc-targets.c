/* bench-irc-targets.c: a soak on a scripted network as strict as Libera (ircsim, the real bot and adapter, virtual time): 30 channels, 40 unvoiced players, four tables and 36 bystanders asking for the rules privately; the network allows 10 new private targets and one more a minute (707) and quits a client more than 20 lines behind (Excess Flood): the bot is never killed, every hand is delivered or its player told. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"
#include "ircsim.h"

#define CHANNELS   30
#define PLAYERS    40
#define TABLES     4
#define SLOTS      10          /* Solanum: target slots of a user who is not op or voice */
#define SLOT_MS    60000       /* one more a minute */
#define FLOOD_LINES 20         /* lines a client may be behind before "Excess Flood" */
#define READ_BURST 10          /* the server reads this many lines at once, then one a second */
#define RUN_MS     (20 * 60 * 1000)
#define STEP_MS    250

/* The scripted network's view of the bot. */
struct net {
	int64_t read_next;          /* the server's reading clock (a bucket, as its flood control) */
	int max_behind;
	bool killed;
	char recent[SLOTS][64];     /* the targets messaged lately, most recent first */
	double slots;
	int64_t slots_at;
	long lines, refused;
};

struct player {
	char nick[16], chan[16];
	bool table;
	int64_t ask_at;             /* a bystander's !rules, a player's !hand: next at */
	long hands, hands_refused, told;
	int64_t last_refused, last_hand;
};

/* Whether the line may go to target: a recent target, or a slot (one more a minute, SLOTS at most). */
static bool
target_ok(struct net *n, const char *target, int64_t now)
{
	int i;

	n->slots += (double)(now - n->slots_at) / SLOT_MS;
	if (n->slots > SLOTS)
		n->slots = SLOTS;
	n->slots_at = now;
	for (i = 0; i < SLOTS; i++)
		if (strcmp(n->recent[i], target) == 0)
			break;
	if (i == SLOTS) {
		if (n->slots < 1)
			return false;
		n->slots -= 1;
		i = SLOTS - 1;
	}
	memmove(n->recent[1], n->recent[0], (size_t)i * sizeof n->recent[0]);
	snprintf(n->recent[0], sizeof n->recent[0], "%s", target);
	return true;
}

static struct player *
player_of(struct player *p, const char *nick)
{
	for (int i = 0; i < PLAYERS; i++)
		if (strcmp(p[i].nick, nick) == 0)
			return &p[i];
	return NULL;
}

/* The network reads one line from the bot. */
static void
net_line(struct ircsim *s, struct net *n, struct player *p, const char *line)
{
	int64_t now = s->now, behind;
	char target[64], reply[256];
	const char *t;
	size_t len;
	struct player *who;

	n->lines++;
	if (n->read_next < now)
		n->read_next = now;
	n->read_next += 1000;
	behind = (n->read_next - now) / 1000 - READ_BURST;
	if (behind > n->max_behind)
		n->max_behind = (int)behind;
	if (behind > FLOOD_LINES)
		n->killed = true;
	if (strncmp(line, "PRIVMSG ", 8) != 0 && strncmp(line, "NOTICE ", 7) != 0)
		return;
	t = line + (line[0] == 'P' ? 8 : 7);
	len = strcspn(t, " ");
	if (t[0] == '#') {
		/* the room telling a player how to get their lines */
		const char *text = strstr(t, " :");

		for (int i = 0; text != NULL && i < PLAYERS; i++) {
			char want[64];

			snprintf(want, sizeof want, " :%.15s: your private line did not reach you", p[i].nick);
			if (strncmp(text, want, strlen(want)) == 0)
				p[i].told++;
		}
		return;
	}
	if (len >= sizeof target)
		return;
	memcpy(target, t, len);
	target[len] = '\0';
	who = player_of(p, target);
	if (!target_ok(n, target, now)) {
		n->refused++;
		if (who != NULL && strstr(t, ":Your hand") != NULL) {
			who->hands_refused++;
			who->last_refused = now;
		}
		snprintf(reply, sizeof reply, ":irc.test 707 HandFoot %s :Targets changing too fast, message dropped", target);
		ircsim_line(s, reply);
		return;
	}
	if (who != NULL && strstr(t, ":Your hand") != NULL) {
		who->hands++;
		who->last_hand = now;
	}
}

int
main(void)
{
	char extra[1024] = "channels =", line[256];
	struct player p[PLAYERS];
	struct net n = { .slots = SLOTS };
	struct ircsim *s;
	size_t seen;
	int bad = 0;
	long refused_hands = 0, told = 0, lost = 0;

	for (int i = 1; i <= CHANNELS; i++)
		snprintf(extra + strlen(extra), sizeof extra - strlen(extra), "%s #c%d", i > 1 ? "," : "", i);
	strcat(extra, "\n");
	if ((s = ircsim_new(":memory:", NULL, extra)) == NULL)
		return 1;
	s->paced = true;
	n.slots_at = s->now;
	for (int i = 1; i <= CHANNELS; i++) {
		snprintf(line, sizeof line, ":HandFoot!hf@bot.test JOIN #c%d", i);
		ircsim_line(s, line);
		snprintf(line, sizeof line, ":irc.test 315 HandFoot #c%d :End of WHO list", i);
		ircsim_line(s, line);
	}
	srand(7);
	for (int i = 0; i < PLAYERS; i++) {
		memset(&p[i], 0, sizeof p[i]);
		snprintf(p[i].nick, sizeof p[i].nick, "p%d", i + 1);
		snprintf(p[i].chan, sizeof p[i].chan, "#c%d", i % CHANNELS + 1);
		p[i].table = i < TABLES;
		p[i].ask_at = s->now + (p[i].table ? 420000 + i * 3000 : 1000 + rand() % 100000);
		snprintf(line, sizeof line, ":%.15s!u%d@h%d.test JOIN %.15s", p[i].nick, i, i, p[i].chan);
		ircsim_line(s, line);
	}
	seen = s->nsent;
	for (int64_t end = s->now + RUN_MS; s->now < end && !n.killed;) {
		for (int i = 0; i < PLAYERS; i++) {
			if (s->now < p[i].ask_at)
				continue;
			if (p[i].table && p[i].hands + p[i].hands_refused == 0 && p[i].ask_at < s->now + 1)
				snprintf(line, sizeof line, ":%.15s!u%d@h%d.test PRIVMSG %.15s :!play 2 duel", p[i].nick, i, i, p[i].chan);
			else if (p[i].table)
				snprintf(line, sizeof line, ":%.15s!u%d@h%d.test PRIVMSG %.15s :!hand", p[i].nick, i, i, p[i].chan);
			else
				snprintf(line, sizeof line, ":%.15s!u%d@h%d.test PRIVMSG %.15s :!rules", p[i].nick, i, i, p[i].chan);
			ircsim_line(s, line);
			p[i].ask_at = p[i].table ? s->now + 90000 : end + 1;
		}
		ircsim_advance(s, STEP_MS);
		for (; seen < s->nsent && !n.killed; seen++)
			net_line(s, &n, p, s->sent[seen]);
	}
	for (int i = 0; i < TABLES; i++) {
		refused_hands += p[i].hands_refused;
		told += p[i].told > 0;
		/* a refused hand: a hand came later, or they were told */
		if (p[i].hands_refused > 0 && p[i].last_hand < p[i].last_refused && p[i].told == 0)
			lost++;
		if (p[i].hands == 0 && p[i].told == 0)
			lost++;
	}
	printf("bench-irc-targets: %d channels, %d players, %d tables, %d min: %ld lines written, %ld private lines "
	       "refused (707), %ld hands refused, %ld table players told in the room, most lines behind %d\n",
	       CHANNELS, PLAYERS, TABLES, RUN_MS / 60000, n.lines, n.refused, refused_hands, told, n.max_behind);
	if (n.killed)
		printf("bench-irc-targets: the network quit the bot (Excess Flood, more than %d lines behind)\n",
		       FLOOD_LINES);
	bad |= !figure_add("bench-irc-targets", "times the network quit the bot (Excess Flood)", n.killed ? 1 : 0, "",
	                   FIGURE_AT_MOST, 0);
	bad |= !figure_add("bench-irc-targets", "table players with a hand refused, never told", (double)lost, "",
	                   FIGURE_AT_MOST, 0);
	for (int i = 0; i < TABLES; i++)
		printf("  %s: %ld hands delivered, %ld refused, told %ld time%s\n", p[i].nick, p[i].hands, p[i].hands_refused,
		       p[i].told, p[i].told == 1 ? "" : "s");
	ircsim_free(s);
	return bad;
}
