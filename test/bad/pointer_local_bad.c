/* A pointer local must point into an array parameter at a fixed offset. */
void f(int N, int D, const float *x, float *y)
{
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++) {
		const float *row = i < 3 ? x : x + D;
		float s = 0.0f;
		for (int d = 0; d < D; d++)
			s += row[d];
		y[i] = s;
	}
}
