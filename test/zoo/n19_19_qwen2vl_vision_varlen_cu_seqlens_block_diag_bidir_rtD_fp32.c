/* Qwen2-VL vision tower VisionAttention: packed patches of several images, cu_seqlens (int32) marks each image;
 * attention is bidirectional inside an image only (block-diagonal). q/k/v [seq_length][num_heads][head_dim]. */
#include <math.h>
#include <stdint.h>
void vision_attn(int n_images, int seq_length, int num_heads, int head_dim, const int32_t cu_seqlens[n_images + 1],
		 const float q[seq_length][num_heads][head_dim], const float k[seq_length][num_heads][head_dim],
		 const float v[seq_length][num_heads][head_dim], float out[seq_length][num_heads][head_dim])
{
	const float scale = 1.0f / sqrtf((float)head_dim);
#pragma fuse kernel(vision_attn) parallel(img, h, t)
	for (int img = 0; img < n_images; img++)
		for (int h = 0; h < num_heads; h++)
			for (int t = cu_seqlens[img]; t < cu_seqlens[img + 1]; t++) {
				float m = -INFINITY, l = 0.0f;
				float acc[head_dim];
				for (int d = 0; d < head_dim; d++) acc[d] = 0.0f;
				for (int u = cu_seqlens[img]; u < cu_seqlens[img + 1]; u++) {
					float s = 0.0f;
					for (int d = 0; d < head_dim; d++) s += q[t][h][d] * k[u][h][d];
					s *= scale;
					const float mn = fmaxf(m, s);
					const float c = expf(m - mn), p = expf(s - mn);
					l = l * c + p;
					for (int d = 0; d < head_dim; d++) acc[d] = acc[d] * c + p * v[u][h][d];
					m = mn;
				}
				for (int d = 0; d < head_dim; d++) out[t][h][d] = acc[d] / l;
			}
}
