/* BLOOM's build_alibi_tensor for a head count that is not a power of two, ported inline:
 * closest_power_of_2 = 2^floor(log2(H)); the first cp2 heads get base^(h+1) with
 * base = 2^(-8/cp2), the remaining heads get extra_base^(2*(h-cp2)+1) with
 * extra_base = 2^(-4/cp2). Bias = slope * j (key position only; softmax is shift-invariant
 * per row, as BLOOM relies on). Causal, fp32, D = 64. */
#include <math.h>

void bloom_attn(int B, int H, int N, const float q[B][H][N][64], const float k[B][H][N][64],
		const float v[B][H][N][64], float o[B][H][N][64])
{
	const int cp2 = 1 << (int)floorf(log2f((float)H));
	const float base = powf(2.0f, -8.0f / cp2);
	const float extra_base = powf(2.0f, -4.0f / cp2);
	const float inv_norm = 1.0f / sqrtf(64.0f);
#pragma fuse kernel(bloom_attn) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float slope;
				if (h < cp2)
					slope = powf(base, (float)(h + 1));
				else
					slope = powf(extra_base, (float)(2 * (h - cp2) + 1));
				float sc[N];
				float mx = -INFINITY;
				for (int j = 0; j <= i; j++) {
					float dot = 0.0f;
					for (int d = 0; d < 64; d++)
						dot += q[b][h][i][d] * k[b][h][j][d];
					sc[j] = dot * inv_norm + slope * (float)j;
					mx = fmaxf(mx, sc[j]);
				}
				float den = 0.0f;
				for (int j = 0; j <= i; j++) {
					sc[j] = expf(sc[j] - mx);
					den += sc[j];
				}
				for (int d = 0; d < 64; d++) {
					float a = 0.0f;
					for (int j = 0; j <= i; j++)
						a += sc[j] / den * v[b][h][j][d];
					o[b][h][i][d] = a;
				}
			}
}
