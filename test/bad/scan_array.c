/* A scan through an array: y[c] depends on y[c - 1], a dependence carried by c that is
 * no reduction. */
void scan_array(int R, int C, const float x[R][C], float y[R][C])
{
#pragma fuse kernel(scan_array) parallel(r) rolling(c)
	for (int r = 0; r < R; r++) {
		float total = 0.0f;
		for (int c = 1; c < C; c++)
			y[r][c] = y[r][c - 1] + x[r][c];
		for (int c = 1; c < C; c++)
			total += y[r][c];
		y[r][0] = total;
	}
}
