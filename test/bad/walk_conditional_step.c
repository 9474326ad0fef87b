/* a pointer advanced under a condition: how far it got is no function of the iterator */
void f(int R, int C, const float *x, const int *keep, float *y)
{
#pragma fuse kernel(k) parallel(r)
	for (int r = 0; r < R; r++) {
		const float *xp = x + r * C;
		float s = 0.0f;
		for (int c = 0; c < C; c++) {
			s += *xp;
			if (keep[c])
				xp++;
		}
		y[r] = s;
	}
}
