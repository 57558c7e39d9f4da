/* rating.c: the rating method: a multiplayer Elo over all pairs of sides, pure arithmetic. */
#include <math.h>

#include "rating.h"

/* What side a is expected to score against side b. */
static double
rating_expect(double a, double b)
{
	return 1.0 / (1.0 + pow(10.0, (b - a) / 400.0));
}

int
rating_game(int n, const double *rating, const long long *points, double *delta)
{
	int i, j;

	if (n < 2 || n > RATING_SIDES_MAX)
		return -1;
	for (i = 0; i < n; i++) {
		double sum = 0.0;

		for (j = 0; j < n; j++) {
			if (j == i)
				continue;
			double won = points[i] > points[j] ? 1.0 : points[i] == points[j] ? 0.5 : 0.0;

			sum += won - rating_expect(rating[i], rating[j]);
		}
		delta[i] = RATING_K / (n - 1) * sum;
	}
	return 0;
}

double
rating_mean(int n, const double *players)
{
	double sum = 0.0;
	int i;

	for (i = 0; i < n; i++)
		sum += players[i];
	return n > 0 ? sum / n : RATING_START;
}
