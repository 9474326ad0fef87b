/* an int compared with an unsigned size: C converts a negative start to a huge value */
void f(unsigned N, int W, const float x[N], float y[N])
{
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++) {
		float s = 0.0f;
		for (int j = i - W; j < N; j++)
			s += x[i];
		y[i] = s;
	}
}
