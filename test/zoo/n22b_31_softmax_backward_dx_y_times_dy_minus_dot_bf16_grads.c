/* Softmax backward as written in a from-scratch autograd (micrograd-to-C port):
 * dx = y * (dy - sum_j dy_j * y_j), y the saved forward output, all bf16, math in float. */
#include <math.h>
#include "fusecc.h"

void softmax_bwd(int N, int V, const fusecc_bf16 y[N][V], const fusecc_bf16 dy[N][V], fusecc_bf16 dx[N][V])
{
#pragma fuse kernel(softmax_bwd) parallel(n)
	for (int n = 0; n < N; n++) {
		float dot = 0.0f;
		for (int v = 0; v < V; v++)
			dot += fusecc_bf16_to_float(dy[n][v]) * fusecc_bf16_to_float(y[n][v]);
		for (int v = 0; v < V; v++) {
			const float yy = fusecc_bf16_to_float(y[n][v]);
			dx[n][v] = fusecc_float_to_bf16(yy * (fusecc_bf16_to_float(dy[n][v]) - dot));
		}
	}
}
