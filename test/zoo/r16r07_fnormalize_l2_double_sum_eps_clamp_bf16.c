/* F.normalize(x, dim=-1) for embedding vectors (retrieval): x / max(||x||, 1e-12), the sum of
 * squares in double by a careful engineer, bf16 in/out, run-time dim. */
#include <math.h>
#include "fusecc.h"

void l2norm(int N, int E, const fusecc_bf16 x[N][E], fusecc_bf16 y[N][E])
{
#pragma fuse kernel(l2norm) parallel(n)
	for (int n = 0; n < N; n++) {
		double ss = 0.0;
		for (int e = 0; e < E; e++) { double v = fusecc_bf16_to_float(x[n][e]); ss += v * v; }
		const float inv = 1.0f / fmaxf((float)sqrt(ss), 1e-12f);
		for (int e = 0; e < E; e++) y[n][e] = fusecc_float_to_bf16(fusecc_bf16_to_float(x[n][e]) * inv);
	}
}
