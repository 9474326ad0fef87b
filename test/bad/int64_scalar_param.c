/* an int64 scalar parameter: sizes and other integer scalars are int */
#include <stdint.h>

void f(int64_t N, const float x[N], float y[N])
{
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++)
		y[i] = x[i] * 2.0f;
}
