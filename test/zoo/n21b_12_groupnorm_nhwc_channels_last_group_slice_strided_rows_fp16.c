/* GroupNorm on channels-last activations (NHWC, as diffusers' CPU path for SD): group g is
 * the channels [g * CPG, (g + 1) * CPG) of every pixel, so a group's elements are strided. */
#include <math.h>

void groupnorm_nhwc(int N, int HW, int G, int CPG, float eps, const _Float16 x[N][HW][G * CPG],
		    const float gamma[G * CPG], const float beta[G * CPG], _Float16 y[N][HW][G * CPG])
{
#pragma fuse kernel(groupnorm_nhwc) parallel(n, g)
	for (int n = 0; n < N; n++)
		for (int g = 0; g < G; g++) {
			float sum = 0.0f;
			for (int p = 0; p < HW; p++)
				for (int k = 0; k < CPG; k++) sum += (float)x[n][p][g * CPG + k];
			const float mean = sum / (HW * CPG);
			float var = 0.0f;
			for (int p = 0; p < HW; p++)
				for (int k = 0; k < CPG; k++) {
					float d = (float)x[n][p][g * CPG + k] - mean;
					var += d * d;
				}
			const float rstd = 1.0f / sqrtf(var / (HW * CPG) + eps);
			for (int p = 0; p < HW; p++)
				for (int k = 0; k < CPG; k++) {
					const int c = g * CPG + k;
					y[n][p][c] = (_Float16)(((float)x[n][p][c] - mean) * rstd * gamma[c] + beta[c]);
				}
		}
}
