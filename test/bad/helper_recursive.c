/* A recursive helper: fusecc inlines every call, so the nesting has to end. */
static void clear(float *x, int n)
{
	for (int i = 0; i < n; i++)
		x[i] = 0.0f;
	clear(x, n);
}

void rows(int R, int C, float x[R][C])
{
#pragma fuse kernel(k) parallel(r)
	for (int r = 0; r < R; r++)
		clear(x[r], C);
}
