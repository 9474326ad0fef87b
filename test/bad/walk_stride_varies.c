/* a pointer advanced by a stride that changes with the iteration (ragged rows) */
void f(int R, int C, const float *x, const int *len, float *y)
{
#pragma fuse kernel(k) parallel(r)
	for (int r = 0; r < R; r++) {
		const float *xp = x + r * C;
		float s = 0.0f;
		for (int c = 0; c < C; c++) {
			s += xp[0];
			xp += len[c];
		}
		y[r] = s;
	}
}
