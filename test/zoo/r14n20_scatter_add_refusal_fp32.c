/* index_add_: scatter rows into out by index (expected refused: scatter). */
#include <stdint.h>
void scatter(int N, int E, int M, const float src[N][E], const int64_t idx[N], float out[M][E])
{
#pragma fuse kernel(scatter) parallel(n)
	for (int n = 0; n < N; n++)
		for (int e = 0; e < E; e++) out[idx[n]][e] += src[n][e];
}
