/* dc_att_buffer_softmax_inplace_gqa_lens_rtD_fp32.c: a GQA decode that keeps its attention
 * row in a caller buffer att[B][H][L], as a C port of a decode kernel with a scratch
 * tensor: scores stored and the max taken in one loop, then exp in place with the sum,
 * then `/= sum` in place, then P.V (d outer) reads att. Style: fp32, run-time head dim and
 * scale computed before the region, kv head h / G, per-sequence lengths, splitk(t: 8). */
#include <math.h>
void decode(int B, int H, int KVH, int L, int D, const float q[B][H][D], const float kc[B][KVH][L][D],
            const float vc[B][KVH][L][D], const int len[B], float att[B][H][L], float o[B][H][D])
{
    const float sc = 1.0f / sqrtf((float)D);
    const int G = H / KVH;
#pragma fuse kernel(decode) parallel(b, h) splitk(t: 8)
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            const int kh = h / G;
            float mx = -INFINITY;
            for (int t = 0; t < len[b]; t++) {
                float s = 0.0f;
                for (int d = 0; d < D; d++)
                    s += q[b][h][d] * kc[b][kh][t][d];
                att[b][h][t] = s * sc;
                if (att[b][h][t] > mx) mx = att[b][h][t];
            }
            float sum = 0.0f;
            for (int t = 0; t < len[b]; t++) {
                att[b][h][t] = expf(att[b][h][t] - mx);
                sum += att[b][h][t];
            }
            for (int t = 0; t < len[b]; t++)
                att[b][h][t] /= sum;
            for (int d = 0; d < D; d++) {
                float a = 0.0f;
                for (int t = 0; t < len[b]; t++)
                    a += att[b][h][t] * vc[b][kh][t][d];
                o[b][h][d] = a;
            }
        }
}
