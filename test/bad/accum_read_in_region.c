/* A scalar set up before the region may be added to in it only when the region does not
 * read it: a running value across the rows is a dependence. */
void prefix(int R, int C, const float x[R][C], float y[R], float out[1])
{
	float total = 0.0f;
#pragma fuse kernel parallel(r)
	for (int r = 0; r < R; r++) {
		float s = 0.0f;
		for (int c = 0; c < C; c++)
			s += x[r][c];
		total += s;
		y[r] = total;
	}
	out[0] = total;
}
