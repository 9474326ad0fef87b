/* The Annotated Transformer's LayerNorm: a_2 * (x - mean) / (std + eps) + b_2 where std is
 * torch's x.std(-1), the unbiased (n - 1) estimator, and eps (1e-6) is added to the std, not
 * the variance; someone porting it to C for an inference engine with fp16 activations. */
#include <math.h>

void annotated_layernorm(int rows, int features, float eps, const _Float16 x[rows][features],
		const float a_2[features], const float b_2[features], _Float16 y[rows][features])
{
#pragma fuse kernel(annotated_layernorm) parallel(r)
	for (int r = 0; r < rows; r++) {
		float mean = 0.0f;
		for (int f = 0; f < features; f++) mean += (float)x[r][f];
		mean /= features;
		float ss = 0.0f;
		for (int f = 0; f < features; f++) {
			float dlt = (float)x[r][f] - mean;
			ss += dlt * dlt;
		}
		float std = sqrtf(ss / (features - 1));
		for (int f = 0; f < features; f++)
			y[r][f] = (_Float16)(a_2[f] * ((float)x[r][f] - mean) / (std + eps) + b_2[f]);
	}
}
