/* rating.h: the rating method: a multiplayer Elo over all pairs of sides (docs/PLAYING.md, "Ratings"). */
#ifndef HF_RATING_H
#define HF_RATING_H

#define RATING_START 1500.0   /* a player's rating before their first rated game */
#define RATING_K     32.0     /* the most one game can move a two-side rating */
#define RATING_SIDES_MAX 8

/* One finished game of n sides (2 to RATING_SIDES_MAX): rating[i] is side
 * i's rating (the mean of its players'), points[i] its final score.  Every
 * pair of sides is a match: the side with more points scores 1, the other 0,
 * equal points 0.5 each; the expected score of i against j is
 * 1 / (1 + 10^((rating[j] - rating[i]) / 400)).  delta[i] is
 * K / (n - 1) times the sum over the other sides of (score - expected):
 * each player of side i gains delta[i].  The deltas sum to zero.
 * Returns 0, or -1 (delta untouched) if n is out of range. */
int rating_game(int n, const double *rating, const long long *points, double *delta);

/* A side's rating: the mean of its n players' (a partnership is one side). */
double rating_mean(int n, const double *players);

#endif
