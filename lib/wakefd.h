/* wakefd.h: an eventfd by which a thread wakes the loop (the loop watches it, then drains it). */
#ifndef HF_WAKEFD_H
#define HF_WAKEFD_H

/* A non-blocking, close-on-exec eventfd, or -1 (errno set). */
int wakefd_open(void);
/* Wakes whoever watches fd; safe from any thread. */
void wakefd_ring(int fd);
/* Reads the count back to zero, so that the watcher is not woken again for the same rings. */
void wakefd_drain(int fd);

#endif
