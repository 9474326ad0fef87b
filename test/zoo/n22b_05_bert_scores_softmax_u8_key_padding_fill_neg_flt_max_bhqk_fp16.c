/* BERT eager, the softmax half only: attention scores [B][H][Q][K] already computed by a
 * cuBLAS bmm, HF's attention_mask (uint8, 1 = keep) turned into masked_fill(-FLT_MAX), then
 * softmax over the keys. Written by someone porting modeling_bert.py around a GEMM. */
#include <math.h>
#include <float.h>
#include <stdint.h>

void bert_masked_softmax(int B, int H, int Q, int K, const _Float16 scores[B][H][Q][K],
			 const uint8_t attention_mask[B][K], _Float16 probs[B][H][Q][K])
{
#pragma fuse kernel(bert_masked_softmax) parallel(b, h, q)
	for (int b = 0; b < B; b++)
		for (int h = 0; h < H; h++)
			for (int q = 0; q < Q; q++) {
				float mx = -FLT_MAX;
				for (int k = 0; k < K; k++) {
					float s = attention_mask[b][k] ? (float)scores[b][h][q][k] : -FLT_MAX;
					mx = fmaxf(mx, s);
				}
				float den = 0.0f;
				for (int k = 0; k < K; k++) {
					float s = attention_mask[b][k] ? (float)scores[b][h][q][k] : -FLT_MAX;
					den += expf(s - mx);
				}
				for (int k = 0; k < K; k++) {
					float s = attention_mask[b][k] ? (float)scores[b][h][q][k] : -FLT_MAX;
					probs[b][h][q][k] = (_Float16)(expf(s - mx) / den);
				}
			}
}
