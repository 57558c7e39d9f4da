/* figures.c: benchmark figures against their targets, printed and kept in one file for the docs to link to. */
#include <stdio.h>
#include <stdlib.h>

#include "figures.h"

const char *
figure_file(void)
{
	static char path[4096];
	const char *f = getenv("HANDFOOT_FIGURES"), *b = getenv("HANDFOOT_BUILD");

	if (f != NULL && f[0] != '\0')
		return f;
	snprintf(path, sizeof path, "%s/bench-figures.md", b != NULL && b[0] != '\0' ? b : "build");
	return path;
}

bool
figure_add(const char *bench, const char *what, double value, const char *unit, enum figure_want want,
           double target)
{
	const char *cmp = want == FIGURE_AT_MOST ? "<=" : ">=";
	bool met = want == FIGURE_AT_MOST ? value >= 0 && value <= target : value >= target;
	FILE *f;

	printf("  %-58s %10.2f %-3s target %s %-8g %s\n", what, value, unit, cmp, target, met ? "met" : "NOT MET");
	fflush(stdout);
	/* a row a figure; a bench run alone (not by make bench) adds to what is there */
	if ((f = fopen(figure_file(), "a")) != NULL) {
		fprintf(f, "| %s | %s | %.2f %s | %s %g %s | %s |\n", bench, what, value, unit, cmp, target, unit,
		        met ? "yes" : "**no**");
		fclose(f);
	}
	return met;
}
