/* dc_llama2c_softmax_inplace_probs_returned_splitk_fp32.c: llama2.c's decode step (a local
 * att[L] row, the max seeded with att[0] from t = 1, exp in place with the sum, `/= sum` in
 * place) that also returns the probabilities to the caller before P.V reads the row.
 * Style: fp32, #define head size 64, cache [L][H][HS], splitk(t: 4). */
#include <math.h>
#define HS 64
void dec(int H, int L, int pos, const float q[H][HS], const float kc[L][H][HS], const float vc[L][H][HS],
         float probs[H][L], float out[H][HS])
{
#pragma fuse kernel(dec) parallel(h) splitk(t: 4)
    for (int h = 0; h < H; h++) {
        float att[L];
        for (int t = 0; t <= pos; t++) {
            float score = 0.0f;
            for (int i = 0; i < HS; i++)
                score += q[h][i] * kc[t][h][i];
            att[t] = score / sqrtf((float)HS);
        }
        float max_val = att[0];
        for (int t = 1; t <= pos; t++)
            if (att[t] > max_val) max_val = att[t];
        float sum = 0.0f;
        for (int t = 0; t <= pos; t++) {
            att[t] = expf(att[t] - max_val);
            sum += att[t];
        }
        for (int t = 0; t <= pos; t++)
            att[t] /= sum;
        for (int t = 0; t <= pos; t++)
            probs[h][t] = att[t];
        for (int i = 0; i < HS; i++) {
            float val = 0.0f;
            for (int t = 0; t <= pos; t++)
                val += att[t] * vc[t][h][i];
            out[h][i] = val;
        }
    }
}
