/* a bool array the region writes: masks and indices are read-only inputs, outputs are float */
#include <stdbool.h>

void f(int N, const float x[N], bool keep[N], float y[N])
{
#pragma fuse kernel(k) parallel(i)
	for (int i = 0; i < N; i++) {
		keep[i] = x[i] > 0.0f;
		y[i] = keep[i] ? x[i] : 0.0f;
	}
}
