/* fifo.h: a first-in first-out list of the caller's items, linked through a struct fifo_link as their first member. */
#ifndef HF_FIFO_H
#define HF_FIFO_H

/* The first member of every item a fifo holds: items are cast back from it. */
struct fifo_link {
	struct fifo_link *next;
};

struct fifo {
	struct fifo_link *head, *tail;
};

/* Adds it at the tail. Not locked: the owner's lock guards the list. */
void fifo_push(struct fifo *f, struct fifo_link *it);
/* The head, unlinked, or NULL when empty. */
struct fifo_link *fifo_pop(struct fifo *f);
/* The whole list, oldest first, linked through next; f is left empty. */
struct fifo_link *fifo_take_all(struct fifo *f);

#endif
