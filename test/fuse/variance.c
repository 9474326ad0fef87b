/* A variance written as sum (x - mean)^2 after a mean pass: not one product of a part
 * without the mean and a part with it, but a sum of them, x*x - 2*mean*x + mean*mean.
 * fusecc accumulates sum x*x, sum x and the count in the one pass and recombines them
 * with the final mean after it (E[x^2] - mean^2 form: docs/repair-terms.md). */
void variance(int R, int C, const float x[R][C], float var[R])
{
#pragma fuse kernel(variance) parallel(r) rolling(c)
	for (int r = 0; r < R; r++) {
		float mean = 0.0f;
		for (int c = 0; c < C; c++)
			mean += x[r][c] / C;
		float v = 0.0f;
		for (int c = 0; c < C; c++)
			v += (x[r][c] - mean) * (x[r][c] - mean);
		var[r] = v / C;
	}
}
