/* a pointer read and advanced in one expression */
void f(int R, int C, const float *x, float *y)
{
#pragma fuse kernel(k) parallel(r)
	for (int r = 0; r < R; r++) {
		const float *xp = x + r * C;
		float s = 0.0f;
		for (int c = 0; c < C; c++)
			s += *xp++;
		y[r] = s;
	}
}
