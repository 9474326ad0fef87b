/* GQA decode over a sequence-major KV cache [B][L][KVH][HEAD_DIM] (the layout vLLM/HF caches
 * use before paging), fp16. Style: KV head inline as h / (H / KVH); scale parameter; scores
 * in a local s[L]; j-outer P.V into acc[HEAD_DIM]; splitk(j); loop order b, h. */
#include <math.h>

#define HEAD_DIM 128

void decode_bnhd(int B, int H, int KVH, int L, float softmax_scale,
		 const _Float16 q[B][H][HEAD_DIM],
		 const _Float16 k[B][L][KVH][HEAD_DIM],
		 const _Float16 v[B][L][KVH][HEAD_DIM],
		 _Float16 o[B][H][HEAD_DIM])
{
#pragma fuse kernel(decode_bnhd) parallel(b, h) splitk(j)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++) {
			float s[L];
			float m = -INFINITY;
			for (int j = 0; j < L; j++) {
				float dot = 0.0f;
				for (int d = 0; d < HEAD_DIM; d++)
					dot += (float)q[b][h][d] * (float)k[b][j][h / (H / KVH)][d];
				s[j] = dot * softmax_scale;
				m = fmaxf(m, s[j]);
			}
			float l = 0.0f;
			float acc[HEAD_DIM];
			for (int d = 0; d < HEAD_DIM; d++)
				acc[d] = 0.0f;
			for (int j = 0; j < L; j++) {
				float p = expf(s[j] - m);
				l += p;
				for (int d = 0; d < HEAD_DIM; d++)
					acc[d] += p * (float)v[b][j][h / (H / KVH)][d];
			}
			for (int d = 0; d < HEAD_DIM; d++)
				o[b][h][d] = (_Float16)(acc[d] / l);
		}
}
