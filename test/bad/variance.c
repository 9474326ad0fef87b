/* A variance written as sum (x - mean)^2: not separable into a part without the mean and
 * a part with it, so it cannot be repaired. */
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
