/* a size_t difference: C wraps it around below zero, fusecc reads sizes as int */
#include <stddef.h>
void f(size_t N, const float x[N], float y[N])
{
#pragma fuse kernel(k) parallel(i)
	for (size_t i = 0; i < N; i++) {
		float s = 0.0f;
		for (size_t j = 0; j < N - i - 1; j++)
			s += x[j];
		y[i] = s;
	}
}
