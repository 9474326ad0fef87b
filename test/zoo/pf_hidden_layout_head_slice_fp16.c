/* pf_hidden_layout_head_slice_fp16: q/k/v in the hidden layout [B][N][NH * 64], head h at
 * columns h * 64 + d (BERT, GPT-2's split, llm.c), no mask, a hand-written online softmax,
 * fp16. */
#include <math.h>
void hid(int B, int N, int NH, const _Float16 q[B][N][NH * 64], const _Float16 k[B][N][NH * 64],
         const _Float16 v[B][N][NH * 64], _Float16 o[B][N][NH * 64])
{
#pragma fuse kernel(hid) parallel(b, h, i) rolling(j)
    for (int b = 0; b < B; b++)
    for (int h = 0; h < NH; h++)
    for (int i = 0; i < N; i++) {
        float m = -INFINITY, l = 0, acc[64];
        for (int d = 0; d < 64; d++) acc[d] = 0;
        for (int j = 0; j < N; j++) {
            float s = 0;
            for (int d = 0; d < 64; d++) s += (float)q[b][i][h * 64 + d] * (float)k[b][j][h * 64 + d];
            s *= 0.125f;
            float mn = fmaxf(m, s), a = expf(m - mn), p = expf(s - mn);
            l = l * a + p;
            for (int d = 0; d < 64; d++) acc[d] = acc[d] * a + p * (float)v[b][j][h * 64 + d];
            m = mn;
        }
        for (int d = 0; d < 64; d++) o[b][i][h * 64 + d] = (_Float16)(acc[d] / l);
    }
}
