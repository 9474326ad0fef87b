/* a pointer advanced by a local the loop changes */
void f(int R, int C, const float *x, float *y)
{
#pragma fuse kernel(k) parallel(r)
	for (int r = 0; r < R; r++) {
		const float *xp = x + r * C;
		int step = 1;
		float s = 0.0f;
		for (int c = 0; c < C; c++) {
			s += xp[0];
			xp += step;
			step = 2;
		}
		y[r] = s;
	}
}
