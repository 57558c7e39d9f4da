/* hsround.h: the game scenario of the real homeservers' tests (e2e-synapse-game, e2e-dendrite-game): two people and two computer players play a whole round; hands reach their owners alone, turn pings highlight.
 *
 * On the server s (synapse.h, or dendrite.h's on the same struct): ann and
 * bob are registered, the daemon starts as a fresh bot account
 * (synapse-bot.h; tag names its log), ann makes a room and invites the bot
 * and bob, bob joins, ann opens classic for one round, bob joins the
 * table, ann deals for four.  Each accepts the room the bot makes for their
 * hand (recorded in the bot's m.direct); each, pinged for their turn, plays
 * BY_HAND turns by hand (!draw, then a discard from the hand the bot sent),
 * answers "!yes" when asked, then hands the seat over (!auto), and the round
 * runs to "Game over".  Then, read back from the server as each user: no
 * hand in any room but its owner's; each hand room joined by exactly the
 * bot and its player, invite-only, history hidden from later members,
 * unencrypted; every turn ping names its player in its text and in
 * m.mentions, and is in the player's GET /notifications, with the highlight
 * tweak as hl says the server's own push rules decide.  Fails through cmocka.
 */
#ifndef HF_TEST_HSROUND_H
#define HF_TEST_HSROUND_H

#include "synapse.h"

/* Which pings the server's push rules highlight. */
enum hsround_highlight {
	HSROUND_EVERY_PING,      /* Synapse: by m.mentions (.m.rule.is_user_mention) or the name */
	HSROUND_ONE_LINE_PINGS,  /* Dendrite v0.13.8: no .m.rule.is_user_mention, and its
	                          * contains_display_name / contains_user_name globs match a
	                          * body only if it has no line break: those pings notify,
	                          * unhighlighted (asserted, so a fixed Dendrite is noticed);
	                          * at least one one-line ping must highlight */
};

void hsround_play(struct synapse *s, const char *tag, enum hsround_highlight hl);
/* No room u is in but own holds a hand or a foot, nor (seat not NULL) the text seat, a seat's
 * link, as u reads them back from the server: fails the test naming the room. */
void hsround_private_stays(struct synapse *s, const struct synapse_user *u, const char *own, const char *seat);

#endif
