/* SDPA with a float additive attn_mask [B][N][N] (broadcast over heads) and the scale from
 * rsqrtf((float)D) with D = 128 a const int; fp16 in, fp16 out. */
#include <math.h>

static float rsqrt_ref(float x) { return 1.0f / sqrtf(x); }

void sdpa_addmask(int B, int H, int N, const _Float16 q[B][H][N][128], const _Float16 k[B][H][N][128],
		  const _Float16 v[B][H][N][128], const float attn_mask[B][N][N], _Float16 o[B][H][N][128])
{
	const int D = 128;
	const float scale = rsqrt_ref((float)D);
#pragma fuse kernel(sdpa_addmask) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float w[N];
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < D; d++) s += (float)q[b][h][i][d] * (float)k[b][h][j][d];
					w[j] = s * scale + attn_mask[b][i][j];
					mx = fmaxf(mx, w[j]);
				}
				float sum = 0.0f;
				for (int j = 0; j < N; j++) sum += expf(w[j] - mx);
				for (int d = 0; d < D; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) acc += expf(w[j] - mx) / sum * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)acc;
				}
			}
}
