/* An output element set before the region is the start of a sum only when the region
 * only adds to it: here the region reads it. */
void running(int R, int C, const float x[R][C], float y[R], float loss[1])
{
	loss[0] = 0.0f;
#pragma fuse kernel parallel(r)
	for (int r = 0; r < R; r++) {
		float s = 0.0f;
		for (int c = 0; c < C; c++)
			s += x[r][c];
		y[r] = s + loss[0];
		loss[0] += s;
	}
}
