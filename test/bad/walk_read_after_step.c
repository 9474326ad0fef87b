/* the pointer is read again after the step in the same iteration, and after the loop */
void f(int R, int C, const float *x, float *y, float *z)
{
#pragma fuse kernel(k) parallel(r)
	for (int r = 0; r < R; r++) {
		const float *xp = x + r * C;
		const float *xq = x + r * C;
		float s = 0.0f;
		for (int c = 0; c < C; c++) {
			xp++;
			s += *xp;
		}
		for (int c = 0; c < C; c++) {
			s += *xq;
			xq++;
		}
		y[r] = s;
		z[r] = *xq;
	}
}
