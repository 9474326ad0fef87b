/* row_totals_longhand_plus_minus_fp32: two totals across the rows of a matrix, written
 * long-hand: total = total + r (the row sums), neg -= r * r (a negated sum of squares),
 * stored into out[0], out[1] after the loop.
 * Style: a Fortran programmer's C: no compound assignment for the running total, both
 * totals declared on one line. */
void totals(int N, int M, const float x[N][M], float out[2])
{
	float total = 0.0f, neg = 0.0f;
#pragma fuse kernel(totals) parallel(i)
	for (int i = 0; i < N; i++) {
		float r = 0.0f;
		for (int j = 0; j < M; j++)
			r = r + x[i][j];
		total = total + r;
		neg -= r * r;
	}
	out[0] = total;
	out[1] = neg;
}
