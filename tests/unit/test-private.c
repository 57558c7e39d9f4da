/* test-private.c: !private: a player's choice (quiet beside the room, or a direct conversation) reaches the adapter; no choice means the adapter's default. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "fake.h"

/* The last private message to user (NULL if none). */
static const struct fake_msg *
last_private(struct fake *f, const char *user)
{
	for (size_t i = f->nmsgs; i-- > 0;)
		if (f->msgs[i].kind == MSG_PRIVATE && strcmp(f->msgs[i].user, user) == 0)
			return &f->msgs[i];
	return NULL;
}

/* alice and bob in a duel in #g, dealt. */
static struct fake *
duel(void)
{
	struct fake *f = fake_new(":memory:", "flood_burst = 100");

	fake_say(f, "#g", "alice", "!new duel");
	fake_say(f, "#g", "bob", "!join");
	fake_say(f, "#g", "alice", "!start");
	return f;
}

static void
test_private_choice(void **state)
{
	struct fake *f = duel();
	const struct fake_msg *m;

	(void)state;
	/* nobody chose: the adapter's own setting decides */
	assert_non_null(m = last_private(f, "alice"));
	assert_int_equal(m->private_as, PRIVATE_DEFAULT);
	fake_clear(f);
	fake_say(f, "#g", "alice", "!private");
	assert_non_null(fake_find(f, "you have not chosen"));

	/* PRIVMSG chosen: told apart from no choice, and this very reply goes that way */
	fake_clear(f);
	fake_say(f, "#g", "alice", "!private privmsg");
	assert_non_null(m = fake_find(f, "as privmsg"));
	assert_int_equal(m->kind, MSG_PRIVATE);
	assert_int_equal(m->private_as, PRIVATE_CONVERSATION);
	fake_say(f, "#g", "alice", "!hand");
	assert_int_equal(last_private(f, "alice")->private_as, PRIVATE_CONVERSATION);

	fake_clear(f);
	fake_say(f, "#g", "alice", "!pm notice");
	fake_say(f, "#g", "alice", "!hand");
	assert_non_null(m = last_private(f, "alice"));
	assert_int_equal(m->private_as, PRIVATE_QUIET);
	assert_true(m->notice);

	/* bob never chose (his hand, said at the deal, is said again once a minute has passed) */
	fake_clear(f);
	fake_advance(f, REPLY_SAME_MS);
	fake_say(f, "#g", "bob", "!hand");
	assert_non_null(m = last_private(f, "bob"));
	assert_int_equal(m->private_as, PRIVATE_DEFAULT);
	fake_free(f);
}

static void
test_private_choice_kept(void **state)
{
	char db[] = "/tmp/hf-private-XXXXXX.db";
	struct fake *f;
	int fd = mkstemps(db, 3);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	/* the choice is stored: a new game (and a restart) keep it */
	f = fake_new(db, "flood_burst = 100");
	fake_dm(f, "alice", "!private privmsg");
	fake_free(f);
	f = fake_new(db, "flood_burst = 100");
	fake_say(f, "#g", "alice", "!new duel");
	fake_say(f, "#g", "bob", "!join");
	fake_say(f, "#g", "alice", "!start");
	assert_int_equal(last_private(f, "alice")->private_as, PRIVATE_CONVERSATION);
	assert_int_equal(last_private(f, "bob")->private_as, PRIVATE_DEFAULT);
	fake_free(f);
	unlink(db);
}

/* What is stored is what every earlier version wrote and reads: "1" for a
 * notice (quiet), "0" for privmsg (a direct conversation). */
static void
test_private_stored_values(void **state)
{
	(void)state;
	assert_int_equal(store_private_as("1"), PRIVATE_QUIET);
	assert_int_equal(store_private_as("0"), PRIVATE_CONVERSATION);
}

/* The words that name what a player sees, beside IRC's. */
static void
test_private_plain_words(void **state)
{
	struct fake *f = duel();
	const struct fake_msg *m;

	(void)state;
	fake_say(f, "#g", "alice", "!private direct");
	fake_say(f, "#g", "alice", "!hand");
	assert_non_null(m = last_private(f, "alice"));
	assert_int_equal(m->private_as, PRIVATE_CONVERSATION);
	fake_clear(f);
	fake_advance(f, REPLY_SAME_MS);
	fake_say(f, "#g", "alice", "!private quiet");
	fake_say(f, "#g", "alice", "!hand");
	assert_non_null(m = last_private(f, "alice"));
	assert_int_equal(m->private_as, PRIVATE_QUIET);
	fake_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_private_stored_values),
		cmocka_unit_test(test_private_plain_words),
		cmocka_unit_test(test_private_choice),
		cmocka_unit_test(test_private_choice_kept),
	};

	return cmocka_run_group_tests_name("private delivery", tests, NULL, NULL);
}
