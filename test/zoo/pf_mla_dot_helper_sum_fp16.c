/* MLA prefill written with a dot() helper, as a C programmer factors it: the score is
 * (dot(q_nope, k_nope, 128) + dot(q_pe, k_pe, 64)) * scale, row pointers into flat
 * [B*H*N] rows, fp16, non-causal, softmax over scores kept in a row buffer. */
#include <math.h>

#define NOPE 128
#define ROPE 64
#define VDIM 128

static inline float dot(const _Float16 *a, const _Float16 *b, int n)
{
	float s = 0.0f;
	for (int d = 0; d < n; d++)
		s += (float)a[d] * (float)b[d];
	return s;
}

void mla_prefill_helper(int B, int H, int N, float scale,
                        const _Float16 qn[B][H][N][NOPE], const _Float16 qr[B][H][N][ROPE],
                        const _Float16 kn[B][H][N][NOPE], const _Float16 kr[B][N][ROPE],
                        const _Float16 v[B][H][N][VDIM], _Float16 o[B][H][N][VDIM])
{
#pragma fuse kernel(mla_prefill_helper) parallel(b, h, i) rolling(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float sc[N];
				float mx = -INFINITY;
				for (int j = 0; j < N; j++) {
					sc[j] = (dot(qn[b][h][i], kn[b][h][j], NOPE) + dot(qr[b][h][i], kr[b][j], ROPE)) * scale;
					if (sc[j] > mx)
						mx = sc[j];
				}
				float sum = 0.0f;
				for (int j = 0; j < N; j++) {
					sc[j] = expf(sc[j] - mx);
					sum += sc[j];
				}
				for (int d = 0; d < VDIM; d++) {
					float a = 0.0f;
					for (int j = 0; j < N; j++)
						a += sc[j] * (float)v[b][h][j][d];
					o[b][h][i][d] = (_Float16)(a / sum);
				}
			}
}
