/* figures.h: a benchmark's figures beside their targets: printed, written as rows of one file that `make bench` starts afresh, and met or not, so that a bench fails when it misses one. */
#ifndef HF_TEST_FIGURES_H
#define HF_TEST_FIGURES_H

#include <stdbool.h>

enum figure_want {
	FIGURE_AT_MOST,     /* met when value <= target */
	FIGURE_AT_LEAST     /* met when value >= target */
};

/* The file every figure goes to: $HANDFOOT_FIGURES, else
 * $HANDFOOT_BUILD/bench-figures.md (build/ if unset). */
const char *figure_file(void);
/* Prints "  what  value unit  target <= T  met" (or NOT MET) and appends
 * the row "| bench | what | value unit | <= T | yes |" to figure_file().
 * A negative value of an AT_MOST figure means nothing was measured: not
 * met.  Returns whether it is met. */
bool figure_add(const char *bench, const char *what, double value, const char *unit, enum figure_want want,
                double target);

#endif
