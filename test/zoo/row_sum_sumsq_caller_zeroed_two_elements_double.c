/* row_sum_sumsq_caller_zeroed_two_elements_double: the sum and the sum of squares of each
 * row's sum, added across the rows into acc[0] and acc[1] of an accumulator the caller
 * zeroed (a statistics pass that runs over several batches).
 * Style: a numerical-methods textbook: double throughout, the row's sum in a local, no
 * set-up before the loop. */
void batch_moments(int N, int C, const double x[N][C], double acc[2])
{
#pragma fuse kernel(batch_moments) parallel(i)
	for (int i = 0; i < N; i++) {
		double s = 0.0;
		for (int c = 0; c < C; c++)
			s += x[i][c];
		acc[0] += s;
		acc[1] += s * s;
	}
}
