/* llama.cpp's non-flash path ported: KQ in fp32, ggml_soft_max_ext writing its result into an F16
 * tensor (kq_f16[j] = (ggml_fp16_t)(exp(x - max) / sum)), then ggml_mul_mat(V, KQ) reading the
 * half probabilities; fp32 q/k/v and output (CPU backend). */
#include <math.h>

void llamacpp_kq_f16(int B, int H, int N, const float q[B][H][N][64], const float k[B][H][N][64],
		     const float v[B][H][N][64], float kqv[B][N][H][64])
{
#pragma fuse kernel(llamacpp_kq_f16) parallel(b, h, i)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int i = 0; i < N; i++) {
				float kq[N];
				_Float16 kq_f16[N];
				float max = -INFINITY;
				for (int j = 0; j < N; j++) {
					float s = 0.0f;
					for (int d = 0; d < 64; d++) s += q[b][h][i][d] * k[b][h][j][d];
					kq[j] = j <= i ? s * 0.125f : -INFINITY;
					max = fmaxf(max, kq[j]);
				}
				float sum = 0.0f;
				for (int j = 0; j < N; j++) sum += expf(kq[j] - max);
				for (int j = 0; j < N; j++) kq_f16[j] = (_Float16)(expf(kq[j] - max) / sum);
				for (int d = 0; d < 64; d++) {
					float acc = 0.0f;
					for (int j = 0; j < N; j++) acc += (float)kq_f16[j] * v[b][h][j][d];
					kqv[b][i][h][d] = acc;
				}
			}
}
