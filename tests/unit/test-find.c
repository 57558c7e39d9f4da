/* test-find.c: lib/find.h (a record found by a char array member or a char * member, the first of equals, none, an empty table). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "find.h"

/* The key members are not first: the offset counts. */
struct rec {
	int n;
	char name[8];
	char *room;
};

static void
test_array_member(void **state)
{
	struct rec v[] = { { 0, "alice", NULL }, { 1, "bob", NULL }, { 2, "bob", NULL }, { 3, "", NULL } };
	struct rec *r;

	(void)state;
	r = FIND_STR(v, 4, name, "bob");
	assert_ptr_equal(r, &v[1]);   /* the first of two */
	assert_ptr_equal(FIND_STR(v, 4, name, "alice"), &v[0]);
	assert_ptr_equal(FIND_STR(v, 4, name, ""), &v[3]);
	assert_null(FIND_STR(v, 4, name, "carol"));
	assert_null(FIND_STR(v, 4, name, "bo"));   /* whole strings, not prefixes */
	assert_null(FIND_STR(v, 1, name, "bob"));  /* only the first n */
}

static void
test_pointer_member(void **state)
{
	char a[] = "!a:x", b[] = "!b:x";
	struct rec v[] = { { 0, "", NULL }, { 1, "", a }, { 2, "", b } };
	const struct rec *cv = v;

	(void)state;
	assert_ptr_equal(FIND_STR_PTR(v, 3, room, "!b:x"), &v[2]);
	assert_ptr_equal(FIND_STR_PTR(cv, 3, room, "!a:x"), &v[1]);   /* a const table too */
	assert_null(FIND_STR_PTR(v, 3, room, ""));   /* a NULL member matches nothing */
	assert_null(FIND_STR_PTR(v, 3, room, "!c:x"));
}

/* A table not allocated yet: NULL with no records. */
static void
test_empty(void **state)
{
	struct rec *none = NULL;

	(void)state;
	assert_null(FIND_STR(none, 0, name, "bob"));
	assert_null(FIND_STR_PTR(none, 0, room, "!a:x"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_array_member),
		cmocka_unit_test(test_pointer_member),
		cmocka_unit_test(test_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
