/* A call as a statement to a function the file does not define. */
void normalise(float *x, int n);

void rows(int R, int C, float x[R][C])
{
#pragma fuse kernel(k) parallel(r)
	for (int r = 0; r < R; r++)
		normalise(x[r], C);
}
