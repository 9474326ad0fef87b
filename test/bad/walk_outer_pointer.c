/* a pointer declared outside the row loop and walked in the inner loop: each row starts
 * where the previous one ended */
void f(int R, int C, const float *x, float *y)
{
	const float *xp = x;
#pragma fuse kernel(k) parallel(r)
	for (int r = 0; r < R; r++) {
		float s = 0.0f;
		for (int c = 0; c < C; c++) {
			s += *xp;
			xp++;
		}
		y[r] = s;
	}
}
