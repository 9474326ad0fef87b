/* LayerNorm over a padded batch [B][T][C], skipping the padding rows with the lengths read
 * straight in the condition (`if (t >= lengths[b]) continue;`), as a PyTorch user ports a
 * masked LayerNorm; padding rows of y are left as they were. bf16 storage, fp32 math. */
#include <math.h>
#include <stdint.h>
#include "fusecc.h"

void masked_layernorm(int B, int T, int C, float eps, const int64_t lengths[B], const fusecc_bf16 x[B][T][C],
		      const float gamma[C], const float beta[C], fusecc_bf16 y[B][T][C])
{
#pragma fuse kernel(masked_layernorm) parallel(b, t)
	for (int b = 0; b < B; b++)
		for (int t = 0; t < T; t++) {
			if (t >= lengths[b])
				continue;
			float mean = 0.0f;
			for (int c = 0; c < C; c++)
				mean += fusecc_bf16_to_float(x[b][t][c]);
			mean /= C;
			float var = 0.0f;
			for (int c = 0; c < C; c++) {
				float d = fusecc_bf16_to_float(x[b][t][c]) - mean;
				var += d * d;
			}
			var /= C;
			float rstd = 1.0f / sqrtf(var + eps);
			for (int c = 0; c < C; c++)
				y[b][t][c] = fusecc_float_to_bf16((fusecc_bf16_to_float(x[b][t][c]) - mean) * rstd * gamma[c] + beta[c]);
		}
}
