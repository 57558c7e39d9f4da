/* list.h: the moves of a doubly linked list whose items link themselves through their own prev and next members, whatever their type (a list is a head pointer, and a tail pointer where the owner appends). */
#ifndef HF_LIST_H
#define HF_LIST_H

/* Macros, not functions: the items are the caller's own structs, typed, and
 * the head and tail are its own members; a function would need one link
 * type and casts back at every use.  Each argument is evaluated more than
 * once: pass plain lvalues (o->head, it), never an expression with a side
 * effect.  Not locked: the owner's lock, if any, guards the list. */

/* Adds it after tail. */
#define LIST_APPEND(head, tail, it) do {                                    \
		(it)->prev = (tail);                                        \
		(it)->next = NULL;                                          \
		if ((tail) != NULL)                                         \
			(tail)->next = (it);                                \
		else                                                        \
			(head) = (it);                                      \
		(tail) = (it);                                              \
	} while (0)

/* Adds it before at, which is on the list (at NULL: after tail).  at must
 * not be head itself: head is set before at is done with (copy it first). */
#define LIST_INSERT_BEFORE(head, tail, at, it) do {                        \
		if ((at) == NULL) {                                         \
			LIST_APPEND(head, tail, it);                        \
		} else {                                                    \
			(it)->next = (at);                                  \
			(it)->prev = (at)->prev;                            \
			if ((at)->prev != NULL)                             \
				(at)->prev->next = (it);                    \
			else                                                \
				(head) = (it);                              \
			(at)->prev = (it);                                  \
		}                                                           \
	} while (0)

/* A list kept without a tail (it is only pushed at the front, and walked). */

/* Adds it at the front. */
#define LIST_PUSH(head, it) do {                                            \
		(it)->prev = NULL;                                          \
		(it)->next = (head);                                        \
		if ((head) != NULL)                                         \
			(head)->prev = (it);                                \
		(head) = (it);                                              \
	} while (0)

/* Takes it, which is on the list, out of it.  Its own links are left as they
 * were: the caller frees it or links it again (a walk may still step past it). */
#define LIST_REMOVE(head, it) do {                                          \
		if ((it)->prev != NULL)                                     \
			(it)->prev->next = (it)->next;                      \
		else                                                        \
			(head) = (it)->next;                                \
		if ((it)->next != NULL)                                     \
			(it)->next->prev = (it)->prev;                      \
	} while (0)

/* Takes it, which is on the list, out of it: LIST_REMOVE, and its tail
 * moves back when it was the last. */
#define LIST_UNLINK(head, tail, it) do {                                    \
		if ((it)->next == NULL)                                     \
			(tail) = (it)->prev;                                \
		LIST_REMOVE(head, it);                                      \
	} while (0)

#endif
