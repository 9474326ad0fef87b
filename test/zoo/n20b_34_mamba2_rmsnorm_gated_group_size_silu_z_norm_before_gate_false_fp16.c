/* Mamba2's RMSNormGated (mamba_ssm/ops/triton/layernorm_gated.py, norm_before_gate=False):
 * x * silu(z) first, then RMSNorm within groups of group_size channels (ngroups per row),
 * weight over all channels; fp16 in/out, float math. */
#include <math.h>

void rmsnorm_gated(int M, int ngroups, int group_size, float eps, const _Float16 x[M][ngroups * group_size],
		const _Float16 z[M][ngroups * group_size], const _Float16 weight[ngroups * group_size],
		_Float16 out[M][ngroups * group_size])
{
#pragma fuse kernel(rmsnorm_gated) parallel(row, g)
	for (int row = 0; row < M; row++)
		for (int g = 0; g < ngroups; g++) {
			float var = 0.0f;
			for (int c = 0; c < group_size; c++) {
				const int col = g * group_size + c;
				const float zz = (float)z[row][col];
				const float xg = (float)x[row][col] * (zz / (1.0f + expf(-zz)));
				var += xg * xg;
			}
			const float rstd = 1.0f / sqrtf(var / group_size + eps);
			for (int c = 0; c < group_size; c++) {
				const int col = g * group_size + c;
				const float zz = (float)z[row][col];
				const float xg = (float)x[row][col] * (zz / (1.0f + expf(-zz)));
				out[row][col] = (_Float16)(xg * rstd * (float)weight[col]);
			}
		}
}
