/* A variance written as sum (x - mean)^2 after a mean pass: not one product of a part
 * without the mean and a part with it, but a sum of them. fusecc shifts x by its first
 * element k (x - mean = (x - k) + (k - mean)), accumulates sum (x - k)^2, sum (x - k) and
 * the count in the one pass and recombines them with the final mean after it
 * (docs/repair-terms.md, sums of separable terms). */
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
