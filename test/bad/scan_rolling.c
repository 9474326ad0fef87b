/* A prefix sum where a rolling reduction is requested: the running total is read at
 * every step, so it is a scan, not a reduction. */
void scan(int R, int C, const float x[R][C], float y[R][C])
{
#pragma fuse kernel(scan) parallel(r) rolling(c)
	for (int r = 0; r < R; r++) {
		float run = 0.0f;
		for (int c = 0; c < C; c++) {
			run += x[r][c];
			y[r][c] = run;
		}
	}
}
